/**
 * Every configuration entry git would read, in git's order (do_git_config_sequence): system,
 * global (XDG, then ~/.gitconfig), the repository's `config`, the worktree's `config.worktree`,
 * then the command line (GIT_CONFIG_COUNT/KEY_n/VALUE_n, then GIT_CONFIG_PARAMETERS, which also
 * carries `-c` and `--config-env`). `include.path` and `includeIf.<condition>.path` are followed
 * where they appear, relative to the including file, `~/` expanded, up to git's depth of 10.
 *
 * Each entry says whether git certainly reads it. Where the model has a choice (a file that is
 * only read when a variable the line may have unset is unset, a condition it cannot decide) it
 * reads the file anyway and marks its entries uncertain: an uncertain entry can add a risk but
 * never hides an earlier one (see `candidates`).
 */
import { posix } from 'node:path';
import { realpathSync } from 'node:fs';
import type { FileProbe } from '../file-probe.js';
import type { RepoCode } from '../types.js';
import { parseGitConfig, type GitConfigEntry, type GitConfigParse } from './config-syntax.js';
import type { GitRepo } from './discovery.js';

export interface LoadedEntry extends GitConfigEntry {
  /** The file, or `the command line`. */
  file: string;
  scope: 'system' | 'global' | 'local' | 'worktree' | 'command';
  /** git certainly reads this entry (false: one plausible reading among others). */
  certain: boolean;
  /** The value is not known here (a variable the line sets dynamically); `value` is then null. */
  unknownValue?: boolean;
}

export interface LoadedConfig {
  entries: LoadedEntry[];
  /** Configuration that could not be checked. */
  problems: RepoCode[];
}

/** A configuration pair from the command line or the environment. */
export interface CommandLineConfig {
  name: string;
  /** null: given without `=` (boolean true). */
  value: string | null;
  /** The value is not known here. */
  unknown?: boolean;
  /** `-c`, `--config-env`, `GIT_CONFIG_COUNT`… for messages. */
  origin: string;
}

export interface LoadInput {
  repo: GitRepo | null;
  /** `$HOME` for the command; null when the line sets it to something unknown. */
  home: string | null;
  variable(name: string): string | null | undefined;
  commandLine: CommandLineConfig[];
}

const MAX_INCLUDE_DEPTH = 10;
/** Other places a system gitconfig lives ($(prefix)/etc/gitconfig of other builds). */
const OTHER_SYSTEM_CONFIGS = ['/usr/local/etc/gitconfig', '/opt/homebrew/etc/gitconfig'];

/** Parsed files by path and stamp: a file's entries do not change until the file does. */
const parsedFiles = new Map<string, GitConfigParse>();

function parseFile(probe: FileProbe, path: string): GitConfigParse | 'missing' | { error: string } {
  const st = probe.stat(path);
  if (!st) return 'missing';
  const key = `${path}\0${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  const hit = parsedFiles.get(key);
  if (hit) return hit;
  const r = probe.read(path);
  if (r.kind === 'missing') return 'missing';
  if (r.kind === 'error') return { error: r.reason };
  const parsed = parseGitConfig(r.text);
  if (parsedFiles.size > 256) parsedFiles.clear();
  parsedFiles.set(key, parsed);
  return parsed;
}

const TRUE = /^(true|yes|on|1)$/i;

/** git's boolean reading of a value: a key without `=` is true, `""` is false. */
export function gitBool(value: string | null): boolean | null {
  if (value === null) return true;
  if (TRUE.test(value)) return true;
  if (/^(false|no|off|0|)$/i.test(value)) return false;
  return null;
}

function realpathOr(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/**
 * interpolate_path: `~/x` is under $HOME. `~user/` and `%(prefix)/` depend on the password
 * database and git's build; null says the path is not known here.
 */
function interpolate(path: string, home: string | null): string | null {
  if (path === '~' || path.startsWith('~/')) return home === null ? null : home + path.slice(1);
  if (path.startsWith('~') || path.startsWith('%(prefix)/')) return null;
  return path;
}

/**
 * Whether an `includeIf` condition holds. `gitdir:`/`worktree:` patterns without wildcards of
 * their own (the usual `gitdir:~/work/`) are decided exactly as git's include_by_path does;
 * everything else — wildcards, `onbranch:`, `hasconfig:`, conditions a newer git may know — is
 * 'maybe'.
 */
function conditionHolds(cond: string, includingFile: string | null, input: LoadInput): boolean | 'maybe' {
  const m = /^(gitdir|worktree)(\/i)?:(.*)$/s.exec(cond);
  if (!m) return 'maybe';
  const subject = m[1] === 'gitdir' ? input.repo?.gitDir : input.repo?.workTree;
  if (!input.repo || !subject) return false;
  let pattern = interpolate(m[3], input.home);
  if (pattern === null) return 'maybe';
  if (pattern.startsWith('./')) {
    if (includingFile === null) return 'maybe';
    pattern = posix.dirname(realpathOr(includingFile)) + pattern.slice(1);
  } else if (!pattern.startsWith('/')) {
    pattern = '**/' + pattern;
  }
  if (pattern.endsWith('/')) pattern += '**';
  const anyPrefix = pattern.startsWith('**/');
  const anySuffix = pattern.endsWith('/**');
  const core = pattern.slice(anyPrefix ? 3 : 0, anySuffix ? -2 : undefined);
  if (/[*?[\\]/.test(core)) return 'maybe';
  const fold = m[2] ? (s: string) => s.toLowerCase() : (s: string) => s;
  const want = fold(core);
  // git matches the realpath, then the plain absolute path.
  for (const text of new Set([realpathOr(subject), subject]).values()) {
    const t = fold(text);
    const starts: number[] = anyPrefix ? [0, ...[...t].flatMap((c, i) => (c === '/' ? [i + 1] : []))] : [0];
    for (const k of starts) {
      const rest = t.slice(k);
      if (anySuffix ? rest.startsWith(want) : rest === want) return true;
    }
  }
  return false;
}

export function loadGitConfig(probe: FileProbe, input: LoadInput): LoadedConfig {
  const loader = new ConfigLoader(probe, input);
  loader.systemFiles();
  loader.globalFiles();
  if (input.repo) {
    loader.addFile(posix.join(input.repo.commonDir, 'config'), 'local', true, 0);
    // Read only with extensions.worktreeConfig; reading it regardless can only add.
    loader.addFile(posix.join(input.repo.gitDir, 'config.worktree'), 'worktree', false, 0);
  }
  loader.commandLine();
  return { entries: loader.entries, problems: loader.problems };
}

/** The entries read so far, in git's order, and what could not be read. */
class ConfigLoader {
  readonly entries: LoadedEntry[] = [];
  readonly problems: RepoCode[] = [];

  constructor(
    private readonly probe: FileProbe,
    private readonly input: LoadInput,
  ) {}

  addFile(path: string, scope: LoadedEntry['scope'], certain: boolean, depth: number): void {
    const parsed = parseFile(this.probe, path);
    if (parsed === 'missing') return; // git skips configuration files that do not exist
    if ('error' in parsed) {
      this.problems.push({ kind: 'unknown', where: path, what: `git configuration that could not be read (${parsed.error})` });
      return;
    }
    if (parsed.errorLine !== null) {
      this.problems.push({ kind: 'unknown', where: `${path}:${parsed.errorLine}`, what: 'git configuration that could not be parsed' });
      return;
    }
    for (const e of parsed.entries) {
      this.entries.push({ ...e, file: path, scope, certain });
      this.followInclude(e, path, scope, certain, depth);
    }
  }

  private followInclude(e: GitConfigEntry, file: string | null, scope: LoadedEntry['scope'], certain: boolean, depth: number): void {
    let holds: boolean | 'maybe';
    if (e.name === 'include.path') holds = true;
    else if (e.section === 'includeif' && e.key === 'path' && e.subsection !== null) holds = conditionHolds(e.subsection, file, this.input);
    else return;
    if (holds === false || e.value === null) return;
    const where = file ?? 'the command line';
    const expanded = interpolate(e.value, this.input.home);
    if (expanded === null) {
      this.problems.push({ kind: 'unknown', where, what: `${e.name} = ${e.value} names a file not known here` });
      return;
    }
    // Relative includes are relative to the including file; from the command line git refuses them.
    if (!expanded.startsWith('/') && file === null) return;
    const target = posix.resolve(file === null ? '/' : posix.dirname(file), expanded);
    if (depth + 1 > MAX_INCLUDE_DEPTH) {
      this.problems.push({ kind: 'unknown', where, what: `includes nested deeper than git's limit of ${MAX_INCLUDE_DEPTH} (${target})` });
      return;
    }
    this.addFile(target, scope, certain && holds === true, depth + 1);
  }

  /** System configuration (unless GIT_CONFIG_NOSYSTEM). */
  systemFiles(): void {
    const v = this.input.variable;
    const noSystem = v('GIT_CONFIG_NOSYSTEM');
    if (typeof noSystem === 'string' && gitBool(noSystem) === true) return;
    const systemFile = v('GIT_CONFIG_SYSTEM');
    if (systemFile === null) this.problems.push({ kind: 'unknown', where: 'GIT_CONFIG_SYSTEM', what: 'names a system configuration not known here' });
    else if (systemFile !== undefined && systemFile !== '') this.addFile(systemFile, 'system', true, 0);
    this.addFile('/etc/gitconfig', 'system', systemFile === undefined, 0);
    for (const f of OTHER_SYSTEM_CONFIGS) this.addFile(f, 'system', false, 0);
  }

  /**
   * Global configuration: GIT_CONFIG_GLOBAL replaces both default files. The defaults are read
   * even then (uncertain): an `unset` earlier on the line is not something we track.
   */
  globalFiles(): void {
    const v = this.input.variable;
    const globalFile = v('GIT_CONFIG_GLOBAL');
    if (globalFile === null) this.problems.push({ kind: 'unknown', where: 'GIT_CONFIG_GLOBAL', what: 'names a global configuration not known here' });
    else if (globalFile !== undefined && globalFile !== '') this.addFile(globalFile, 'global', true, 0);
    const defaultsCertain = globalFile === undefined;
    const xdg = v('XDG_CONFIG_HOME');
    if (xdg === null) this.problems.push({ kind: 'unknown', where: 'XDG_CONFIG_HOME', what: 'set to a directory not known here, whose git/config git reads' });
    else if (xdg) this.addFile(posix.join(xdg, 'git/config'), 'global', defaultsCertain, 0);
    if (this.input.home === null) {
      this.problems.push({ kind: 'unknown', where: 'HOME', what: 'set to a directory not known here, whose .gitconfig git reads' });
    } else {
      this.addFile(posix.join(this.input.home, '.config/git/config'), 'global', defaultsCertain && !xdg, 0);
      this.addFile(posix.join(this.input.home, '.gitconfig'), 'global', defaultsCertain, 0);
    }
  }

  /** `-c name=value`, `--config-env`, GIT_CONFIG_COUNT…: entries of their own, read last. */
  commandLine(): void {
    for (const c of this.input.commandLine) {
      const entry = commandLineEntry(c);
      if (!entry) {
        this.problems.push({ kind: 'unknown', where: 'the command line', what: `${c.origin} ${c.name}: a configuration name git cannot use` });
        continue;
      }
      this.entries.push({ ...entry, file: `the command line (${c.origin})`, scope: 'command', certain: true, unknownValue: c.unknown === true });
      if (c.unknown) {
        if (entry.name === 'include.path' || (entry.section === 'includeif' && entry.key === 'path')) {
          this.problems.push({ kind: 'unknown', where: 'the command line', what: `${c.origin} ${c.name} includes a file not known here` });
        }
        continue;
      }
      this.followInclude(entry, null, 'command', true, 0);
    }
  }
}

function commandLineEntry(c: CommandLineConfig): GitConfigEntry | null {
  const first = c.name.indexOf('.');
  const last = c.name.lastIndexOf('.');
  if (first <= 0 || last === c.name.length - 1) return null;
  const section = c.name.slice(0, first).toLowerCase();
  const subsection = first === last ? null : c.name.slice(first + 1, last);
  const key = c.name.slice(last + 1).toLowerCase();
  const name = subsection === null ? `${section}.${key}` : `${section}.${subsection}.${key}`;
  return { name, section, subsection, key, value: c.value, line: 0 };
}

/**
 * The values git may end up using for a single-valued key: the last certain entry and every
 * uncertain one after it (git's "last one wins", strict where the model is unsure).
 */
export function candidates(entries: readonly LoadedEntry[], match: (e: LoadedEntry) => boolean): LoadedEntry[] {
  let out: LoadedEntry[] = [];
  for (const e of entries) {
    if (!match(e)) continue;
    if (e.certain) out = [e];
    else out.push(e);
  }
  return out;
}
