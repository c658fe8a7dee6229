/**
 * What a project-configuration check needs and what it reports. A "read-only" command that loads
 * configuration or code from the directory it runs in (git's `.git/config`, cargo's
 * `.cargo/config.toml`, a Gemfile, a Vagrantfile) runs whatever that configuration names; each
 * check knows one tool's files and the keys in them that run programs.
 */
import { posix } from 'node:path';
import type { ParsedArgv } from '../../programs/argv.js';
import type { WalkedCommand } from '../../walk/types.js';

export interface ProjectContext {
  cmd: WalkedCommand;
  parsed: ParsedArgv;
  /** The command's working directory (checks are not called when it is unknown). */
  cwd: string;
  /** The home directory of the analysis context (`$HOME` unless the line sets it: see `variable`). */
  home: string;
  /**
   * The value of an environment variable for this command: what the line sets (prefix
   * assignment, `env X=…`, an earlier `export`) first, else the analysis context's environment.
   * A string when known, null when set to something unknown, undefined when unset.
   */
  variable(name: string): string | null | undefined;
  /** The line itself sets this variable (so it is the command's choice, not the user's environment). */
  lineSets(name: string): boolean;
  /** Every variable `variable` knows a value (or null) for: the line's and the analysis context's. */
  variableNames(): string[];
}

/**
 * One way the command runs code it was not given on its command line.
 * - `key`: a configuration key names a program (`core.fsmonitor` in `.git/config`).
 * - `file`: the tool evaluates a file as code (`Gemfile`, `Vagrantfile`, a provider binary).
 * - `unknown`: configuration that could run code could not be checked (unreadable, dynamic, a limit).
 */
export interface RepoCode {
  kind: 'key' | 'file' | 'unknown';
  /** Where: a file path, or `the command line` / `the environment`. */
  where: string;
  /** The key (`core.fsmonitor`), the file's role (`Gemfile (Ruby)`), or what could not be known. */
  what: string;
  /** The program or value, when there is one. */
  value?: string | null;
}

export type ProjectCheck = (ctx: ProjectContext) => RepoCode[];

/**
 * A tool's home directory: its variable (`CARGO_HOME`) when the environment sets it, else
 * `underHome` in the home directory; null when either is not known here.
 */
export function toolHome(variable: string | null | undefined, home: string | null, underHome: string): string | null {
  if (variable !== undefined) return variable;
  if (home === null) return null;
  return posix.join(home, underHome);
}

/** ` = "value"` (long values cut) for a finding's line; nothing when there is no value. */
function valueText(value: string | null | undefined): string {
  if (value === undefined) return '';
  if (value === null) return ' = (unknown value)';
  return ` = ${JSON.stringify(value.length > 60 ? value.slice(0, 57) + '…' : value)}`;
}

/** One line for a finding: what runs and where it is configured. */
export function describeRepoCode(c: RepoCode): string {
  const value = valueText(c.value);
  switch (c.kind) {
    case 'key':
      return `${c.what}${value} in ${c.where}`;
    case 'file':
      return `${c.where} (${c.what})`;
    default:
      return `${c.where}: ${c.what}`;
  }
}
