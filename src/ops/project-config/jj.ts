/**
 * Jujutsu: every command loads the repository's `.jj/repo/config.toml` (found upwards, or `-R`)
 * and the user's configuration (`$JJ_CONFIG`, `~/.jjconfig.toml`, `$XDG_CONFIG_HOME/jj/config.toml`
 * and its `conf.d/`). Programs named there run on read-only commands: `ui.pager` on `jj log`,
 * an external diff tool (`ui.diff-formatter` / `ui.diff.tool` naming `merge-tools.<t>.program`, or
 * a command array) on `jj diff`/`show`, a signing backend's program when `jj log` shows
 * signatures.
 * jj is not installed here: this follows its documentation, and reads strictly (any configured
 * program of these kinds counts for every read-only jj command).
 */
import { posix } from 'node:path';
import { StampedCache, type FileProbe } from './file-probe.js';
import { isPlainPager } from './git/code-keys.js';
import { stdoutMayBeTerminal } from './git/run-parts.js';
import { readTomlConfig } from './toml.js';
import type { ProjectContext, RepoCode } from './types.js';

interface JjKey {
  file: string;
  key: string;
  value: string;
}

const cache = new StampedCache<{ keys: JjKey[]; problems: RepoCode[] }>();

/** Keys whose value is (or selects) a program. Strings arrive decoded; arrays and tables as text. */
function programKey(key: string, value: string): boolean {
  if (key === 'ui.pager') {
    if (value === ':builtin') return false;
    return !isPlainPager(
      value
        .replace(/^\[|\]$/g, '')
        .replace(/"\s*,\s*"/g, ' ')
        .replace(/"/g, ''),
    );
  }
  // `:git`, `:color-words`, `:summary`… are built in; anything else names a tool or a command.
  if (key === 'ui.diff-formatter' || key === 'ui.diff.tool' || key === 'ui.diff.format') return !/^:[a-z-]+$/.test(value);
  return /^merge-tools\.[^.]+\.(program|diff-args)$/.test(key) || /^signing\.backends\.[^.]+\.program$/.test(key);
}

function readConfig(probe: FileProbe, file: string, out: { keys: JjKey[]; problems: RepoCode[] }): void {
  // A configuration directory (JJ_CONFIG=dir): every .toml file in it.
  const listing = probe.list(file);
  if (listing !== null) {
    for (const e of listing.sort()) if (e.endsWith('.toml')) readConfig(probe, posix.join(file, e), out);
    return;
  }
  for (const e of readTomlConfig(probe, file, 'jj', out.problems)) {
    const key = e.path.join('.');
    if (programKey(key, e.value)) out.keys.push({ file, key, value: e.value });
  }
}

/** The first of these variables set to a value not known here (null), in order. */
function firstUnknown(variables: Record<string, string | null | undefined>): string | undefined {
  return Object.keys(variables).find((name) => variables[name] === null);
}

export function jjRepoCode(ctx: ProjectContext): RepoCode[] {
  const sub = ctx.parsed.subcommands[0] ?? null;
  if (sub === 'version' || sub === 'help' || sub === null) return [];
  const repoOption = [...ctx.parsed.options].reverse().find((o) => o.name === '-R' || o.name === '--repository');
  if (repoOption && (!repoOption.value || repoOption.value.dynamic))
    return [{ kind: 'unknown', where: 'jj -R', what: 'a repository not known here, whose configuration jj loads' }];
  const start = posix.resolve(ctx.cwd, repoOption?.value?.value ?? '.');
  const home = ctx.lineSets('HOME') ? (ctx.variable('HOME') ?? null) : ctx.home;
  const xdg = ctx.variable('XDG_CONFIG_HOME');
  const jjConfig = ctx.variable('JJ_CONFIG');
  const out: RepoCode[] = [];
  const unknownVariable = firstUnknown({ HOME: home, XDG_CONFIG_HOME: xdg, JJ_CONFIG: jjConfig });
  if (unknownVariable !== undefined) out.push({ kind: 'unknown', where: unknownVariable, what: 'names jj configuration not known here' });
  const found = cache.get(JSON.stringify([start, home, xdg, jjConfig]), (probe) => {
    const acc = { keys: [] as JjKey[], problems: [] as RepoCode[] };
    const files: string[] = [];
    if (jjConfig) files.push(...jjConfig.split(':').filter(Boolean));
    if (home !== null) files.push(posix.join(home, '.jjconfig.toml'), posix.join(home, '.config/jj/config.toml'), posix.join(home, '.config/jj/conf.d'));
    if (xdg) files.push(posix.join(xdg, 'jj/config.toml'), posix.join(xdg, 'jj/conf.d'));
    for (let d = start; ; d = posix.dirname(d)) {
      if (probe.isDir(posix.join(d, '.jj'))) {
        files.push(posix.join(d, '.jj/repo/config.toml'), posix.join(d, '.jj/workspace-config.toml'));
        break;
      }
      if (d === '/') break;
    }
    for (const f of files) readConfig(probe, f, acc);
    return acc;
  });
  out.push(...found.problems);
  const pages = stdoutMayBeTerminal(ctx.cmd) && !ctx.parsed.options.some((o) => o.name === '--no-pager');
  for (const k of found.keys) {
    if (k.key === 'ui.pager' && !pages) continue;
    out.push({ kind: 'key', where: k.file, what: k.key, value: k.value });
  }
  return out;
}
