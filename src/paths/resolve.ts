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
const PATH_MAX = 4096;

/**
 * Realpaths read from disk, kept for at most `ttlMs`. The filesystem changes between analyses (a
 * symlink made by the previous command turns `x/shadow` into `/etc/shadow`), so what was read is
 * forgotten when an analysis starts after the window: with 0, every analysis reads afresh.
 */
export class RealpathCache {
  private readonly map = new Map<string, string>();
  private since = -Infinity;

  constructor(private readonly ttlMs = 0) {}

  /** Called when an analysis starts. */
  startAnalysis(now = performance.now()): void {
    if (now - this.since <= this.ttlMs) return;
    this.map.clear();
    this.since = now;
  }

  /**
   * Follow symlinks through the nearest ancestor that exists (`./link/x` where `link → /etc` is
   * `/etc/x`). Parts that do not exist yet are kept as written.
   */
  realpathNearest(abs: string): string {
    // Walk up to the nearest ancestor that exists (or was resolved already, so sibling paths
    // share the work), resolve it, then put the missing parts back.
    const missing: string[] = [];
    let at = abs;
    let base = this.map.get(at);
    while (base === undefined) {
      // Longer than PATH_MAX, it cannot exist: no system call needed to know.
      if (at === '/' || (at.length <= PATH_MAX && safeExists(at))) {
        try {
          // libc realpath: one call, where Node's JavaScript realpath lstats every component.
          base = realpathSync.native(at);
        } catch {
          base = at; // unreadable: keep the lexical path
        }
        this.remember(at, base);
        break;
      }
      missing.push(posix.basename(at));
      at = posix.dirname(at);
      base = this.map.get(at);
    }
    if (missing.length === 0) return base;
    // Short chains of missing directories are remembered too (`./build/a`, `./build/b` share
    // `./build`); a long one only as a whole, so a path of many parts stays linear.
    if (missing.length <= 8) {
      for (let i = missing.length - 1; i > 0; i--) {
        base = posix.join(base, missing[i]);
        at = at === '/' ? '/' + missing[i] : at + '/' + missing[i];
        this.remember(at, base);
      }
      base = posix.join(base, missing[0]);
    } else base = posix.normalize(base + '/' + missing.reverse().join('/'));
    this.remember(abs, base);
    return base;
  }

  private remember(path: string, real: string): void {
    if (this.map.size >= REALPATH_CACHE_LIMIT) this.map.clear();
    this.map.set(path, real);
  }
}

/** One resolution, read now (no cache). */
export function realpathNearest(abs: string): string {
  return new RealpathCache().realpathNearest(abs);
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
