/** Path resolution: against the tracked cwd, then through symlinks on disk as the kernel does. */
import { lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { posix } from 'node:path';

/** Lexical resolution lives in expand/ (the walker needs it before this layer): one definition. */
export { resolvePath } from '../expand/paths.js';

/**
 * `posix.resolve(cwd, value)` for an absolute `cwd`, without its normalising pass where nothing
 * needs normalising (most words): a plain absolute value is itself, a plain relative one joins.
 */
export function lexicalPath(cwd: string, value: string): string {
  if (value.charCodeAt(0) === 47) return plain(value) ? value : posix.resolve(cwd, value);
  // A relative value joins as is when it has no `.`/`..`/empty component and no trailing slash.
  const simple = value !== '' && value.charCodeAt(0) !== 46 && value.charCodeAt(value.length - 1) !== 47 && !value.includes('//') && !value.includes('/.');
  if (simple && plain(cwd)) return cwd === '/' ? '/' + value : cwd + '/' + value;
  return posix.resolve(cwd, value);
}

const REALPATH_CACHE_LIMIT = 10_000;
const PATH_MAX = 4096;
const NAME_MAX = 255;
/** Symbolic links the kernel follows while resolving one path before it fails with ELOOP (Linux). */
export const MAX_SYMLINKS = 40;

/** A `..` component. */
export const DOTDOT = /(?:^|\/)\.\.(?:\/|$)/;

interface Budget {
  hops: number;
}

/**
 * Realpaths read from disk, kept for at most `ttlMs`. The filesystem changes between analyses (a
 * symlink made by the previous command turns `x/shadow` into `/etc/shadow`), so what was read is
 * forgotten when an analysis starts after the window: with 0, every analysis reads afresh.
 */
export class RealpathCache {
  /** Lexical absolute path (no `..`) → where the kernel lands; null: a symlink loop. */
  private readonly map = new Map<string, string | null>();
  /** Paths in `map` that do not exist (nothing below them can be a symlink). */
  private readonly absent = new Set<string>();
  /**
   * For a path resolved before, the nearest ancestor (or itself) that existed then. Kept across
   * analyses, but only as a guess of where to look: what it says is read again (see `nearest`).
   */
  private readonly lastFound = new Map<string, string>();
  private since = -Infinity;

  constructor(private readonly ttlMs = 0) {}

  /** Called when an analysis starts. */
  startAnalysis(now = performance.now()): void {
    if (now - this.since <= this.ttlMs) return;
    // (clear() makes a new table even for an empty map)
    if (this.map.size > 0) this.map.clear();
    if (this.absent.size > 0) this.absent.clear();
    this.since = now;
  }

  /**
   * Follow symlinks through the nearest ancestor that exists (`./link/x` where `link → /etc` is
   * `/etc/x`). Parts that do not exist yet are kept as written; a loop keeps the path as written.
   */
  realpathNearest(abs: string): string {
    return this.physical(abs) ?? abs;
  }

  /** Does `abs` (absolute, normalised) exist, as far as this cache has read the disk? */
  exists(abs: string): boolean {
    return this.physical(abs) !== null && !this.absent.has(abs);
  }

  /**
   * Where the kernel lands for the absolute path `abs`: every symlink on disk followed — a
   * dangling one too (`echo x > link` creates the file the link names) — and each `..` applied
   * to the directory the path before it really is (`link/..` is the parent of the link's
   * target, not the link's directory). Parts that do not exist are kept as written from there on.
   * Null when resolving takes more than 40 symlinks (a loop): the kernel fails with ELOOP, and
   * no answer here would be more than a guess.
   */
  physical(abs: string): string | null {
    return this.resolve(abs, { hops: 0 });
  }

  private resolve(abs: string, budget: Budget): string | null {
    // Keys are normalised paths without `..`: a hit needs neither check.
    const hit = this.map.get(abs);
    if (hit !== undefined) return hit;
    if (!DOTDOT.test(abs)) return this.nearest(plain(abs) ? abs : posix.normalize(abs), budget);
    // Component by component: a `..` cancels what the prefix before it resolves to.
    let prefix = '/';
    let resolved = true;
    for (const part of abs.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (!resolved) {
          const p = this.nearest(prefix, budget);
          if (p === null) return null;
          prefix = p;
          resolved = true;
        }
        prefix = posix.dirname(prefix);
        continue;
      }
      prefix = prefix === '/' ? '/' + part : prefix + '/' + part;
      resolved = false;
    }
    return resolved ? prefix : this.nearest(prefix, budget);
  }

  /** `abs` is normalised (no `.`, `..` or `//`). */
  private nearest(abs: string, budget: Budget): string | null {
    // Walk up to the nearest ancestor that exists (or was resolved already, so sibling paths
    // share the work), resolve it, then put the missing parts back. Each step costs one lstat,
    // which also says whether a missing name is a symlink the kernel would follow; a name below a
    // directory already found missing costs nothing (nothing can exist there).
    let missing: string[] = [];
    let at = abs;
    let base = this.map.get(at);
    let existing = base !== undefined && !this.absent.has(at);
    /** The first missing name (the last pushed) may be a symlink: one that points nowhere or into a loop. */
    let maybeLink = false;
    /** The nearest existing ancestor (or `abs`), when this call read the disk to find it. */
    let read: string | null = null;
    const guess = base === undefined ? this.lastFound.get(abs) : undefined;
    if (guess !== undefined) {
      // Where the path stopped existing last time: read that place first. It holds when the
      // ancestor resolves now and its child on the way is still missing (and no link); the
      // walk below is what reads the disk otherwise. Either way every fact is read now.
      const found = this.fromGuess(abs, guess);
      if (found === null) this.lastFound.delete(abs);
      else {
        at = read = guess;
        base = found.base;
        missing = found.missing;
        existing = true;
      }
    }
    while (base === undefined) {
      if (at === '/') {
        base = '/';
        this.remember(at, base);
        existing = true;
        read = at;
        break;
      }
      const slash = at.lastIndexOf('/');
      const parent = slash === 0 ? '/' : at.slice(0, slash);
      const name = at.slice(slash + 1);
      // Longer than PATH_MAX, it cannot exist: no system call needed to know.
      const st = this.absent.has(parent) || at.length > PATH_MAX ? undefined : safeLstat(at);
      if (st !== undefined) {
        const known = st.isSymbolicLink() ? undefined : this.map.get(parent);
        if (known !== undefined && known !== null && !this.absent.has(parent)) {
          // A name that is no symlink, in a directory already resolved: no realpath needed.
          base = known === '/' ? '/' + name : known + '/' + name;
          this.remember(at, base);
          existing = true;
          read = at;
          break;
        }
        try {
          // libc realpath: one call, where Node's JavaScript realpath lstats every component.
          base = realpathSync.native(at);
          read = at;
        } catch {
          // A symlink that points nowhere (or into a loop): missing, but the kernel follows it.
          if (st.isSymbolicLink()) {
            missing.push(name);
            maybeLink = true;
            at = parent;
            base = this.map.get(at);
            existing = base !== undefined && !this.absent.has(at);
            continue;
          }
          base = at; // unreadable: keep the lexical path
        }
        this.remember(at, base);
        existing = true;
        break;
      }
      missing.push(name);
      maybeLink = false;
      at = parent;
      base = this.map.get(at);
      existing = base !== undefined && !this.absent.has(at);
    }
    if (base === null) return null;
    if (read !== null) this.rememberFound(abs, read);
    if (missing.length === 0) return base;
    // The first missing name may still be a symlink: one that points nowhere (dangling) or into
    // a loop fails to resolve, yet the kernel follows it. (Below a missing directory there is none.)
    const first = missing[missing.length - 1];
    const target = existing && maybeLink && first.length <= NAME_MAX ? readLink(base === '/' ? '/' + first : base + '/' + first) : null;
    if (target !== null) return this.throughLink(abs, base, target, missing, budget);
    return this.putBack(abs, at, base, missing);
  }

  /** `abs` where its first missing name (below `base`) is a symlink to `target` the kernel follows. */
  private throughLink(abs: string, base: string, target: string, missing: string[], budget: Budget): string | null {
    const fresh = budget.hops === 0;
    let result: string | null = null;
    if (++budget.hops <= MAX_SYMLINKS) {
      const rest = missing.length > 1 ? '/' + missing.slice(0, -1).reverse().join('/') : '';
      result = this.resolve((target.startsWith('/') ? target : base + '/' + target) + rest, budget);
    }
    // A result reached with links already counted by the caller depends on that count.
    if (fresh) this.remember(abs, result);
    return result;
  }

  /**
   * `abs` put back together below its nearest existing ancestor `at` (which resolved to `base`);
   * `missing` holds the names in between, last first. Short chains of missing directories are
   * remembered too (`./build/a`, `./build/b` share `./build`); a long one only as a whole, so a
   * path of many parts stays linear.
   */
  private putBack(abs: string, at: string, base: string, missing: string[]): string {
    if (missing.length <= 8) {
      for (let i = missing.length - 1; i > 0; i--) {
        base = posix.join(base, missing[i]);
        at = at === '/' ? '/' + missing[i] : at + '/' + missing[i];
        this.remember(at, base);
        this.absent.add(at);
      }
      base = posix.join(base, missing[0]);
    } else base = posix.normalize(base + '/' + missing.reverse().join('/'));
    this.remember(abs, base);
    this.absent.add(abs);
    return base;
  }

  /**
   * `guess` is `abs` or an ancestor that existed when `abs` was last resolved. When it resolves
   * now and, short of `abs`, its child on the way is missing (lstat: not even a dangling link),
   * the nearest existing ancestor is known with one or two reads; else null (walk instead).
   */
  private fromGuess(abs: string, guess: string): { base: string; missing: string[] } | null {
    if (abs.length > PATH_MAX) return null;
    let base = this.map.get(guess);
    if (base === null || (base !== undefined && this.absent.has(guess))) return null;
    if (base === undefined) {
      if (guess === '/') base = '/';
      else {
        try {
          base = realpathSync.native(guess);
        } catch {
          return null;
        }
      }
      this.remember(guess, base);
    }
    if (guess === abs) return { base, missing: [] };
    const rest = abs.slice(guess === '/' ? 1 : guess.length + 1).split('/');
    const child = guess === '/' ? '/' + rest[0] : guess + '/' + rest[0];
    if (safeLstat(child) !== undefined) return null;
    return { base, missing: rest.reverse() };
  }

  private rememberFound(abs: string, found: string): void {
    if (this.lastFound.size >= REALPATH_CACHE_LIMIT) this.lastFound.clear();
    this.lastFound.set(abs, found);
  }

  private remember(path: string, real: string | null): void {
    if (this.map.size >= REALPATH_CACHE_LIMIT) {
      this.map.clear();
      this.absent.clear();
    }
    this.map.set(path, real);
  }
}

/** One resolution, read now (no cache). */
export function realpathNearest(abs: string): string {
  return new RealpathCache().realpathNearest(abs);
}

/** Already normalised: no empty, `.` or `..` component and no trailing slash. */
export function plain(abs: string): boolean {
  return abs.charCodeAt(0) === 47 && !abs.includes('//') && !abs.includes('/.') && (abs.length === 1 || abs.charCodeAt(abs.length - 1) !== 47);
}

/** What lstat says of `p`; undefined when there is nothing there (or it cannot be looked at). */
function safeLstat(p: string): Stats | undefined {
  try {
    return lstatSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The text of the symlink at `p`, or null when `p` is not a symlink (or cannot be read). */
function readLink(p: string): string | null {
  try {
    // lstat first: it answers "no such file" without an exception, which is the common case.
    return lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ? readlinkSync(p) : null;
  } catch {
    return null;
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
  // `root` then a slash (without building `root + '/'`: this runs for every path and system dir).
  return path === root || (path.startsWith(root) && (root.charCodeAt(root.length - 1) === 47 || path.charCodeAt(root.length) === 47));
}
