/**
 * The `exec-config` path class: files that a later command loads and that make it run code the
 * user did not see when approving it. Writing one plants that code, so an edit mode that approves
 * workspace edits must not approve these (`.git/config` sets `core.fsmonitor`, which the next
 * allowed `git status` runs). One list, used by every layer: the shell verdict, the gate's
 * auto-edit for shell writes and file tools, and auto mode's accept-edits step.
 *
 * Left out on purpose, because what loads them asks anyway or runs nothing: `Makefile`,
 * `package.json` scripts, `setup.py`, `conftest.py` (running them is the approved command itself,
 * and `make`/`npm run`/`pytest` ask); `.gitmodules` (git refuses command-valued `update` from it,
 * and fetching submodules asks for the network); `.editorconfig`, `.nvmrc`, `.python-version`,
 * `.tool-versions` (they select or format, they run nothing); shell rc files and `.vscode/`
 * settings are `sensitive` already.
 */
import picomatch from 'picomatch';
import { readdirSync } from 'node:fs';

/** Patterns (`~` for the home directory), each with why. */
export const EXEC_CONFIG: readonly { pattern: string; why: string }[] = [
  { pattern: '**/.git', why: 'a `.git` file with `gitdir:` points git at another repository and its config' },
  {
    pattern: '**/.git/**',
    why: 'repository config (core.fsmonitor, core.pager, aliases, diff and filter drivers), hooks and info/attributes: `git status` and `git diff` run what they name',
  },
  { pattern: '**/.gitattributes', why: 'names the filter, diff (textconv) and merge drivers git runs on checkout and diff' },
  { pattern: '~/.gitconfig', why: 'global git config: the same commands as .git/config, for every repository' },
  { pattern: '~/.config/git/**', why: 'global git config and attributes (XDG location)' },
  { pattern: '**/.hg/hgrc', why: 'Mercurial hooks and extensions run on `hg status`' },
  { pattern: '~/.hgrc', why: 'global Mercurial hooks and extensions' },
  { pattern: '**/.husky/**', why: 'git hooks when core.hooksPath points there (husky): run by commit, push, checkout' },
  { pattern: '**/.pre-commit-config.yaml', why: 'commands the pre-commit hook runs on `git commit`' },
  { pattern: '**/.cargo/config', why: 'cargo runner, rustc-wrapper and aliases for every cargo command below it' },
  { pattern: '**/.cargo/config.toml', why: 'cargo runner, rustc-wrapper and aliases for every cargo command below it' },
  { pattern: '**/.npmrc', why: 'npm and pnpm config: script-shell, node-options and git are run by later npm commands' },
  { pattern: '**/.yarnrc', why: 'yarn 1 config: yarn-path replaces yarn itself with a file the repository names' },
  { pattern: '**/.yarnrc.yml', why: 'yarn berry config: yarnPath replaces yarn itself with a file the repository names' },
  { pattern: '**/bunfig.toml', why: 'bun preload scripts run before `bun run` and `bun test`' },
  { pattern: '**/.bunfig.toml', why: 'bun preload scripts run before `bun run` and `bun test`' },
  { pattern: '**/.envrc', why: 'direnv evaluates it as shell code on entering the directory' },
  { pattern: '**/.lesskey', why: 'less reads its #env section: LESSOPEN names a command run on every file less shows (also through git and man)' },
  { pattern: '~/.config/lesskey', why: 'less key and environment file (XDG location)' },
  { pattern: '**/pip.conf', why: 'index-url and find-links choose where a later `pip install` takes its code from' },
  { pattern: '**/.terraformrc', why: 'provider_installation and dev_overrides choose the provider binaries terraform runs' },
  { pattern: '**/terraform.rc', why: 'provider_installation and dev_overrides choose the provider binaries terraform runs' },
];

/**
 * A name every exec-config path contains (the first literal part of each pattern): a cheap test
 * before the full patterns, which run for every path.
 */
export const EXEC_CONFIG_HINT = new RegExp(
  [...new Set(EXEC_CONFIG.map((e) => e.pattern.split('/').find((seg) => seg !== '' && seg !== '~' && !/[*?[{]/.test(seg))!))]
    .map((seg) => seg.replace(/[.+^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
  'i',
);

/** Concrete paths per pattern, for deciding whether a glob may match one (`{ws}`: a workspace root). */
export const EXEC_CONFIG_EXAMPLES = [
  '{ws}/.git',
  '{ws}/.git/config',
  '{ws}/.git/hooks/pre-commit',
  '{ws}/.gitattributes',
  '~/.gitconfig',
  '{ws}/.husky/pre-commit',
  '{ws}/.cargo/config.toml',
  '{ws}/.npmrc',
  '{ws}/.yarnrc.yml',
  '{ws}/.envrc',
  '{ws}/.lesskey',
  '{ws}/pip.conf',
  '{ws}/.terraformrc',
];

/** The patterns that can match below any directory (`**\/…`), for names inside a copied tree. */
const anywhere = picomatch(
  EXEC_CONFIG.filter((e) => e.pattern.startsWith('**/')).map((e) => e.pattern),
  { dot: true },
);

/** Entries of a tree looked at before giving up. */
const SCAN_LIMIT = 5000;

/**
 * Paths (relative to `dir`) of exec-config files and directories in the tree at `dir`, without
 * following symlinks (a recursive copy copies them as links). Null when the tree is larger than
 * what is looked at: what a copy of it brings cannot be known. An unreadable or missing `dir`
 * brings nothing (the copy fails).
 */
export function execConfigBelow(dir: string): string[] | null {
  const found: string[] = [];
  const queue: string[] = [''];
  let seen = 0;
  while (queue.length > 0) {
    const rel = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(rel === '' ? dir : dir + '/' + rel, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > SCAN_LIMIT) return null;
      const path = rel === '' ? e.name : rel + '/' + e.name;
      if (anywhere(path)) found.push(path);
      else if (e.isDirectory()) queue.push(path);
    }
  }
  return found;
}
