/**
 * File access for the project-configuration checks, remembering every path it looked at. Git
 * configuration is consulted for most git commands, so answers are cached; an answer stays valid
 * as long as every path consulted for it — files read, files found missing, directories listed —
 * still stats the same. A warm check costs one stat per consulted path and reads nothing.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync, type Stats } from 'node:fs';

/** Configuration files larger than this are not read: the check gives the strict answer instead. */
export const MAX_CONFIG_BYTES = 1 << 20;

export type ReadResult =
  | { kind: 'text'; text: string }
  | { kind: 'missing' }
  /** It exists but cannot be read (permissions, a directory, too large). */
  | { kind: 'error'; reason: string };

function stampOf(st: Stats | undefined): string {
  if (!st) return '-';
  // ctime moves on every write and chmod (a hook made executable), mtime on content changes.
  return `${st.mode}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

function statQuiet(path: string, link: boolean): Stats | undefined {
  try {
    return (link ? lstatSync : statSync)(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Looks at files and records a stamp for each path, so a cached answer can be revalidated. */
export class FileProbe {
  /** path (prefixed `l:` for lstat) → stamp when it was consulted */
  readonly stamps = new Map<string, string>();

  stat(path: string): Stats | undefined {
    const st = statQuiet(path, false);
    this.stamps.set(path, stampOf(st));
    return st;
  }

  lstat(path: string): Stats | undefined {
    const st = statQuiet(path, true);
    this.stamps.set('l:' + path, stampOf(st));
    return st;
  }

  exists(path: string): boolean {
    return this.stat(path) !== undefined;
  }

  isDir(path: string): boolean {
    return this.stat(path)?.isDirectory() ?? false;
  }

  isFile(path: string): boolean {
    return this.stat(path)?.isFile() ?? false;
  }

  /** A regular file with an execute bit: what git and most tools require before running a hook. */
  isExecutableFile(path: string): boolean {
    const st = this.stat(path);
    return st !== undefined && st.isFile() && (st.mode & 0o111) !== 0;
  }

  read(path: string, maxBytes = MAX_CONFIG_BYTES): ReadResult {
    const st = this.stat(path);
    if (!st) return { kind: 'missing' };
    if (st.isDirectory()) return { kind: 'error', reason: 'is a directory' };
    if (st.size > maxBytes) return { kind: 'error', reason: `larger than ${maxBytes} bytes` };
    try {
      return { kind: 'text', text: readFileSync(path, 'utf8') };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return code === 'ENOENT' ? { kind: 'missing' } : { kind: 'error', reason: code ?? 'unreadable' };
    }
  }

  /** The target of a symbolic link, or null when `path` is not one. */
  readlink(path: string): string | null {
    const st = this.lstat(path);
    if (!st?.isSymbolicLink()) return null;
    try {
      return readlinkSync(path);
    } catch {
      return null;
    }
  }

  /** Entries of a directory (null when it is not one); the directory's stamp covers additions and removals. */
  list(path: string): string[] | null {
    if (!this.isDir(path)) return null;
    try {
      return readdirSync(path);
    } catch {
      return null;
    }
  }
}

function stillValid(stamps: ReadonlyMap<string, string>): boolean {
  for (const [key, stamp] of stamps) {
    const link = key.startsWith('l:');
    if (stampOf(statQuiet(link ? key.slice(2) : key, link)) !== stamp) return false;
  }
  return true;
}

/**
 * Answers computed from files, each kept with the stamps of the files it consulted. A lookup
 * re-stats those paths and recomputes when any changed, appeared or disappeared.
 */
export class StampedCache<T> {
  private readonly entries = new Map<string, { value: T; stamps: ReadonlyMap<string, string> }>();

  constructor(private readonly limit = 512) {}

  get(key: string, compute: (probe: FileProbe) => T): T {
    const hit = this.entries.get(key);
    if (hit && stillValid(hit.stamps)) return hit.value;
    const probe = new FileProbe();
    const value = compute(probe);
    if (this.entries.size >= this.limit) this.entries.clear();
    this.entries.set(key, { value, stamps: probe.stamps });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
