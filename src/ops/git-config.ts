/**
 * Can a "read-only" git command run a program because of configuration? core.fsmonitor runs on
 * `git status`, diff drivers and textconv on `git diff`/`git log -p`, filters on status, a pager
 * on anything paginated. We read the repository's config (found by walking up from the cwd, as
 * git does) plus the global and system files, and look for such keys.
 */
import { readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';

export type ConfigRisk =
  /** No repository, or its configuration names no program. */
  | 'clean'
  /** A key that runs a program is set. */
  | 'runs-programs'
  /** The configuration could not be read or includes other files. */
  | 'unknown';

/** Keys that make status/diff/log/show run a program. */
const RISKY_KEY = /^\s*(fsmonitor|textconv|external|command|clean|smudge|process|pager|usebuiltinfsmonitor\s*=\s*false)\s*=\s*(.*)$/i;
/** Pagers that only page. */
const SAFE_PAGER = /^\s*"?(less|more|cat|most|delta|diff-so-fancy|bat)( +-[-A-Za-z0-9=]+)*"?\s*$/;

interface CacheEntry {
  stamp: string;
  risk: ConfigRisk;
}
const cache = new Map<string, CacheEntry>();

function mtime(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The git directory git would use from `cwd`, or null when there is none. */
export function findGitDir(cwd: string): string | null | 'unknown' {
  for (let d = cwd; ; d = posix.dirname(d)) {
    const dotgit = posix.join(d, '.git');
    if (isDir(dotgit)) return dotgit;
    if (mtime(dotgit) !== null) {
      // A `.git` file (worktree, submodule): `gitdir: PATH`.
      try {
        const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotgit, 'utf8'));
        return m ? posix.resolve(d, m[1].trim()) : 'unknown';
      } catch {
        return 'unknown';
      }
    }
    if (d === '/') return null;
  }
}

function fileRisk(path: string): ConfigRisk {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'clean' : 'unknown';
  }
  for (const line of text.split('\n')) {
    if (/^\s*\[\s*include(if)?\b/i.test(line)) return 'unknown';
    const m = RISKY_KEY.exec(line);
    if (!m) continue;
    if (m[1].toLowerCase() === 'pager' && SAFE_PAGER.test(m[2])) continue;
    return 'runs-programs';
  }
  return 'clean';
}

export function gitConfigRisk(cwd: string, home: string): ConfigRisk {
  const gitDir = findGitDir(cwd);
  if (gitDir === 'unknown') return 'unknown';
  const files = [gitDir ? posix.join(gitDir, 'config') : null, posix.join(home, '.gitconfig'), posix.join(home, '.config/git/config'), '/etc/gitconfig'].filter(
    (f): f is string => f !== null,
  );
  const stamp = files.map((f) => `${f}:${mtime(f)}`).join('|');
  const cached = cache.get(stamp);
  if (cached) return cached.risk;
  let risk: ConfigRisk = 'clean';
  for (const f of files) {
    const r = fileRisk(f);
    if (r !== 'clean') {
      risk = r;
      break;
    }
  }
  if (cache.size > 1000) cache.clear();
  cache.set(stamp, { stamp, risk });
  return risk;
}
