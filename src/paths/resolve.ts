/** Path resolution: against the tracked cwd, lexically (`..`), then through symlinks on disk. */
import { existsSync, realpathSync } from 'node:fs';
import { posix } from 'node:path';

/**
 * Absolute, normalised path for `p` written in `cwd`. Tilde expansion already happened in
 * expand/: a `~` still here was quoted and is a literal directory name.
 */
export function resolvePath(p: string, cwd: string): string {
  return posix.resolve(cwd, p);
}

const REALPATH_CACHE_LIMIT = 10_000;
/**
 * Realpaths read during one analysis. The filesystem changes between analyses (a symlink made
 * by the previous command turns `x/shadow` into `/etc/shadow`), so the analyser empties this at
 * the start of each one: a path is read from disk at most once per verdict, never reused across.
 */
const realpathCache = new Map<string, string>();

export function forgetRealpaths(): void {
  realpathCache.clear();
}

/**
 * Follow symlinks through the nearest ancestor that exists (`./link/x` where `link → /etc` is
 * `/etc/x`). Parts that do not exist yet are kept as written.
 */
export function realpathNearest(abs: string): string {
  const cached = realpathCache.get(abs);
  if (cached !== undefined) return cached;
  let existing = abs;
  const tail: string[] = [];
  while (existing !== '/' && !safeExists(existing)) {
    tail.unshift(posix.basename(existing));
    existing = posix.dirname(existing);
  }
  let real = existing;
  try {
    // libc realpath: one call, where Node's JavaScript realpath lstats every component.
    real = realpathSync.native(existing);
  } catch {
    // unreadable: keep the lexical path
  }
  const out = tail.length > 0 ? posix.join(real, ...tail) : real;
  if (realpathCache.size >= REALPATH_CACHE_LIMIT) realpathCache.clear();
  realpathCache.set(abs, out);
  return out;
}

function safeExists(p: string): boolean {
  try {
    return existsSync(p);
  } catch {
    return false;
  }
}

/** The directory part of a glob pattern before its first glob character. */
export function staticPrefix(pattern: string): string {
  const m = /[*?[{]/.exec(pattern);
  if (!m) return pattern;
  const head = pattern.slice(0, m.index);
  const slash = head.lastIndexOf('/');
  return slash <= 0 ? '/' : head.slice(0, slash);
}

export function isInside(path: string, root: string): boolean {
  if (root === '/') return true;
  return path === root || path.startsWith(root.endsWith('/') ? root : root + '/');
}
