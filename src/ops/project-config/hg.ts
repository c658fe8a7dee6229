/**
 * Mercurial: every command, `hg status` and `hg log` included, loads the `[extensions]` of the
 * repository's `.hg/hgrc` (Python modules, or any file by path), runs `[hooks]` named after it
 * (`pre-status`, `post-log`…), honours an `[alias]` that shadows it (`status = !cmd`), and pages
 * through `[pager] pager`. Files: the repository's `.hg/hgrc` (found upwards, `-R`, `--cwd`,
 * the source of a shared repository), `~/.hgrc`, `$XDG_CONFIG_HOME/hg/hgrc`, the system files,
 * `HGRCPATH`, `%include`d files and `--config`. (Mercurial is not installed here, so this follows
 * hgrc(5) and the documented hook names; nothing here was run against a real hg.)
 */
import { posix } from 'node:path';
import { StampedCache, type FileProbe } from './file-probe.js';
import { isPlainPager } from './git/code-keys.js';
import { stdoutMayBeTerminal } from './git/run-parts.js';
import type { ProjectContext, RepoCode } from './types.js';

interface HgItem {
  file: string;
  section: string;
  key: string;
  value: string;
}

interface HgFacts {
  items: HgItem[];
  problems: RepoCode[];
}

const cache = new StampedCache<HgFacts>();

/** Extensions that ship with Mercurial: loading one by name runs no repository code. */
// Laid out by hand: one group of related names a line.
// prettier-ignore
const BUNDLED_EXTENSIONS = new Set([
  'absorb', 'acl', 'amend', 'automv', 'beautifygraph', 'blackbox', 'bookflow', 'bugzilla', 'censor', 'children', 'churn',
  'clonebundles', 'closehead', 'color', 'commitextras', 'convert', 'eol', 'extdiff', 'factotum', 'fastannotate', 'fastexport',
  'fetch', 'fix', 'fsmonitor', 'git', 'githelp', 'gpg', 'graphlog', 'hgk', 'highlight', 'histedit', 'infinitepush', 'journal',
  'keyword', 'largefiles', 'lfs', 'logtoprocess', 'mq', 'narrow', 'notify', 'pager', 'patchbomb', 'phabricator', 'progress',
  'purge', 'rebase', 'record', 'releasenotes', 'relink', 'remotefilelog', 'remotenames', 'schemes', 'share', 'show', 'sparse',
  'split', 'sqlitestore', 'strip', 'transplant', 'uncommit', 'win32mbcs', 'win32text', 'zeroconf',
]);

/** Spellings of the read-only commands → the name hooks use. */
const CANONICAL: Record<string, string> = {
  blame: 'annotate',
  history: 'log',
  id: 'identify',
  in: 'incoming',
  out: 'outgoing',
  showconfig: 'config',
  st: 'status',
  sum: 'summary',
};
/** Commands that talk to another repository. */
const REMOTE = new Set(['incoming', 'outgoing', 'identify', 'summary']);
/** Hooks fired by events rather than by a command name; the ones a read-only command can fire. */
// Laid out by hand: one group of related names a line.
// prettier-ignore
const EVENT_HOOKS = new Set([
  'changegroup', 'commit', 'incoming', 'outgoing', 'prechangegroup', 'precommit', 'prelistkeys', 'preoutgoing', 'prepushkey',
  'pretag', 'pretxnopen', 'pretxnclose', 'pretxncommit', 'pretxnchangegroup', 'pretxnclose-bookmark', 'pretxnclose-phase',
  'preupdate', 'tag', 'txnabort', 'txnclose', 'txnclose-bookmark', 'txnclose-phase', 'update', 'listkeys', 'pushkey',
]);
const REMOTE_EVENT_HOOKS = new Set(['prelistkeys', 'listkeys', 'preoutgoing', 'outgoing']);

/**
 * A `[hooks]` entry that may run for this command: `pre-`, `post-` or `fail-` the command, an
 * event hook a command talking to another repository fires, or any name that is not an event hook.
 */
function hookRuns(event: string, command: string): boolean {
  const m = /^(pre|post|fail)-(.+)$/.exec(event);
  if (m) return m[2] === command;
  if (!EVENT_HOOKS.has(event)) return true;
  return REMOTE.has(command) && REMOTE_EVENT_HOOKS.has(event);
}

/** hgrc syntax: `[section]`, `key = value`, indented continuation lines, `%include`, `%unset`. */
export function parseHgrc(text: string): {
  items: { section: string; key: string; value: string }[];
  includes: string[];
  unsets: { section: string; key: string }[];
} {
  const items: { section: string; key: string; value: string }[] = [];
  const includes: string[] = [];
  const unsets: { section: string; key: string }[] = [];
  let section = '';
  let last: { value: string } | null = null;
  for (const raw of text.split(/\r?\n/)) {
    if (last && /^[ \t]+\S/.test(raw)) {
      last.value += '\n' + raw.trim();
      continue;
    }
    last = null;
    const line = raw.trimEnd();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[([^[]+)\]/.exec(line);
    if (header) {
      section = header[1].trim();
      continue;
    }
    const inc = /^%include\s+(.+)$/.exec(line);
    if (inc) {
      includes.push(inc[1].trim());
      continue;
    }
    const unset = /^%unset\s+(\S+)/.exec(line);
    if (unset) {
      unsets.push({ section, key: unset[1] });
      continue;
    }
    const kv = /^([^=\s][^=]*?)\s*=\s*(.*)$/.exec(line);
    if (kv) {
      const item = { section, key: kv[1], value: kv[2].trim() };
      items.push(item);
      last = item;
    }
  }
  return { items, includes, unsets };
}

function readHgrc(probe: FileProbe, file: string, facts: HgFacts, home: string | null, depth: number): void {
  const r = probe.read(file);
  if (r.kind === 'missing') return;
  if (r.kind === 'error') {
    if (r.reason !== 'is a directory')
      facts.problems.push({ kind: 'unknown', where: file, what: `Mercurial configuration that could not be read (${r.reason})` });
    return;
  }
  const parsed = parseHgrc(r.text);
  for (const it of parsed.items) facts.items.push({ file, ...it });
  for (const inc of parsed.includes) {
    if (depth >= 8) {
      facts.problems.push({ kind: 'unknown', where: file, what: '%include nested deeper than shellgate follows' });
      continue;
    }
    if (/\$|^~[^/]/.test(inc) || (inc.startsWith('~') && home === null)) {
      facts.problems.push({ kind: 'unknown', where: file, what: `%include ${inc} names a file not known here` });
      continue;
    }
    const expanded = inc.startsWith('~') ? home + inc.slice(1) : inc;
    readHgrc(probe, posix.resolve(posix.dirname(file), expanded), facts, home, depth + 1);
  }
}

/** The repository root: `.hg` found upwards from `start`. */
function findRoot(probe: FileProbe, start: string): string | null {
  for (let d = start; ; d = posix.dirname(d)) {
    if (probe.isDir(posix.join(d, '.hg'))) return d;
    if (d === '/') return null;
  }
}

function configFiles(
  probe: FileProbe,
  root: string | null,
  home: string | null,
  xdg: string | undefined,
  hgrcPath: string | undefined,
  skipRepo: boolean,
): string[] {
  const files: string[] = [];
  const addDirOrFile = (p: string) => {
    const entries = probe.list(p);
    if (entries) for (const e of entries.sort()) if (e.endsWith('.rc')) files.push(posix.join(p, e));
    if (!entries) files.push(p);
  };
  for (const p of ['/etc/mercurial/hgrc', '/etc/mercurial/hgrc.d', '/usr/local/etc/mercurial/hgrc', '/usr/local/etc/mercurial/hgrc.d']) addDirOrFile(p);
  if (hgrcPath) for (const p of hgrcPath.split(':')) if (p) addDirOrFile(p);
  if (home !== null) files.push(posix.join(home, '.hgrc'), posix.join(home, '.config/hg/hgrc'));
  if (xdg) files.push(posix.join(xdg, 'hg/hgrc'));
  if (root !== null && !skipRepo) {
    const hg = posix.join(root, '.hg');
    const shared = probe.read(posix.join(hg, 'sharedpath'), 4096);
    if (shared.kind === 'text') files.push(posix.join(posix.resolve(hg, shared.text.trim()), 'hgrc'));
    files.push(posix.join(hg, 'hgrc'), posix.join(hg, 'hgrc-not-shared'));
  }
  return files;
}

export function hgRepoCode(ctx: ProjectContext): RepoCode[] {
  const { parsed } = ctx;
  const word = parsed.subcommands[0] ?? null;
  if (word === 'version' || word === null) return [];
  const command = CANONICAL[word] ?? word;
  const out: RepoCode[] = [];
  const optionValue = (...names: string[]): string | null | undefined => {
    const o = [...parsed.options].reverse().find((x) => names.includes(x.name));
    if (!o) return undefined;
    return !o.value || o.value.dynamic ? null : o.value.value;
  };
  const cwdOption = optionValue('--cwd');
  const repoOption = optionValue('-R', '--repository');
  if (cwdOption === null || repoOption === null)
    return [{ kind: 'unknown', where: 'hg --cwd / -R', what: 'a repository not known here, whose configuration hg loads' }];
  const start = posix.resolve(ctx.cwd, cwdOption ?? '.');
  const home = ctx.lineSets('HOME') ? (ctx.variable('HOME') ?? null) : ctx.home;
  if (home === null) out.push({ kind: 'unknown', where: 'HOME', what: 'set to a directory not known here, whose .hgrc hg loads' });
  const xdg = ctx.variable('XDG_CONFIG_HOME');
  const hgrcPath = ctx.variable('HGRCPATH');
  if (xdg === null || hgrcPath === null)
    out.push({ kind: 'unknown', where: xdg === null ? 'XDG_CONFIG_HOME' : 'HGRCPATH', what: 'names configuration not known here' });
  const skipRepo = ctx.variable('HGRCSKIPREPO') !== undefined;
  const cliConfig: string[] = [];
  for (const o of parsed.options) {
    if (o.name !== '--config') continue;
    if (!o.value || o.value.dynamic) out.push({ kind: 'unknown', where: 'the command line', what: 'hg --config with a value not known here' });
    else cliConfig.push(o.value.value);
  }
  const facts = cache.get(JSON.stringify([start, repoOption, home, xdg, hgrcPath, skipRepo]), (probe) => {
    const f: HgFacts = { items: [], problems: [] };
    const root = repoOption !== undefined ? posix.resolve(start, repoOption) : findRoot(probe, start);
    for (const file of configFiles(probe, root, home, xdg ?? undefined, hgrcPath ?? undefined, skipRepo)) readHgrc(probe, file, f, home, 0);
    return f;
  });
  out.push(...facts.problems);
  const items: HgItem[] = [...facts.items];
  for (const c of cliConfig) {
    const m = /^([^.=]+)\.([^=]+)=(.*)$/s.exec(c);
    if (m) items.push({ file: 'the command line (--config)', section: m[1], key: m[2], value: m[3] });
  }
  const pages = stdoutMayBeTerminal(ctx.cmd) && optionValue('--pager') !== 'never';
  const logToProcess = items.some((i) => i.section === 'extensions' && /^(hgext\.)?logtoprocess$/.test(i.key) && !i.value.startsWith('!'));
  for (const it of items) {
    const add = () => out.push({ kind: 'key', where: it.file, what: `[${it.section}] ${it.key}`, value: it.value });
    switch (it.section) {
      case 'extensions': {
        const name = it.key.replace(/^hgext\./, '');
        if (it.value.startsWith('!')) break;
        if (it.value === '' && BUNDLED_EXTENSIONS.has(name)) break;
        add();
        break;
      }
      case 'hooks': {
        if (hookRuns(it.key.split('.')[0], command)) add();
        break;
      }
      case 'alias':
        if (it.key === word || it.key === command) add();
        break;
      case 'pager':
        if (it.key === 'pager' && pages && !isPlainPager(it.value)) add();
        break;
      case 'ui':
        if ((it.key === 'ssh' || it.key === 'remotecmd') && REMOTE.has(command)) add();
        break;
      case 'logtoprocess':
        if (logToProcess) add();
        break;
      case 'fsmonitor':
        if (it.key === 'watchman_exe') add();
        break;
      default:
        break;
    }
  }
  return out;
}
