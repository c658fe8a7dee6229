/**
 * What the kernel opens for a path a command names, given the disk and what the command line made
 * before it (links and directories not on disk yet). Lexical resolution is only right when no
 * symlink is involved: `link/../x` is the parent of the link's target, and `ln -s ~ h; rm -rf h/`
 * deletes home although `h` does not exist while the line is analysed.
 *
 * When the analyser cannot know whether a line-made link exists when the command runs (made in a
 * branch, in the background, in a pipeline stage), it returns both readings and the caller keeps
 * every one: the strictest decides. A reading that would need a guess — a loop of links, a link
 * whose target is only known at run time, a `..` after a glob — is `dynamic`.
 */
import { posix } from 'node:path';
import picomatch from 'picomatch';
import { DOTDOT, lexicalPath, MAX_SYMLINKS, type RealpathCache } from './resolve.js';

/** A link or directory made earlier on the command line, at a resolved path. */
export interface MadeEntry {
  /** Where it is: an absolute path resolved through the symlinks on disk. */
  path: string;
  /**
   * `symlink`: a symbolic link (`ln -s`, `cp -s`, a link copied or moved); `hardlink`: a second
   * name for a file (`ln`, `cp -l`, `link`); `mirror`: a directory whose files are links to the
   * files of another (`cp -rs`, `cp -al`); `dir`: a directory (`mkdir`).
   */
  kind: 'symlink' | 'hardlink' | 'mirror' | 'dir';
  /**
   * symlink: the link text (relative to the link's directory, as the kernel reads it);
   * hardlink, mirror: the absolute path of the original. Null: known only at run time.
   */
  target: string | null;
  /** Surely there when the reader runs; otherwise the reader is analysed with and without it. */
  certain: boolean;
}

/** The entries a command can meet. */
export interface MadeView {
  /** Base names of every entry, to skip lookups on paths that cannot meet one. */
  readonly names: ReadonlySet<string>;
  readonly entries: readonly MadeEntry[];
}

export interface PathReading {
  /** The path the operation reaches; absent when it cannot be known (`dynamic` says why). */
  path?: string;
  dynamic?: string;
}

export interface ReadingOptions {
  realpaths: RealpathCache;
  made: MadeView | null;
  /** The word is a glob pattern (unquoted `*`, `?`, `[`). */
  glob: boolean;
  /**
   * The last component is followed when it is a symlink (open, stat). False for operations on
   * the name itself — `rm h` removes the link — unless the word ends with `/`, which makes the
   * kernel resolve it (`rm -rf h/` empties what `h` points to).
   */
  followLast: boolean;
  /** Removing a name: a hard link's or mirror's original is not reached through it. */
  removesName: boolean;
}

/** More readings than this: the path is treated as unknown. */
const MAX_READINGS = 8;
/** Longer than PATH_MAX with a `..`: the kernel refuses the path; what a tool that walks it in parts does is not modelled. */
const PATH_MAX = 4096;

interface State {
  prefix: string;
  /** `prefix` is already resolved through the disk (a realpath). */
  resolved: boolean;
  /** Components still to walk, last first. */
  todo: string[];
  hops: number;
  afterGlob: boolean;
  /** A line-made link was followed: the lexical path is not what the kernel reaches. */
  followed: boolean;
}

export function pathReadings(value: string, cwd: string, o: ReadingOptions): PathReading[] {
  const lexical = lexicalPath(cwd, value);
  const dots = DOTDOT.test(value);
  const made = o.made !== null && o.made.entries.length > 0 ? o.made : null;
  if (!dots && (made === null || !mayMeet(value, cwd, made, o.glob))) {
    // No `..` and nothing made on the line on the way: the lexical path names what the kernel
    // opens; classification follows the links on disk. A loop there is no answer at all.
    const probe = o.followLast || /\/$/.test(value) ? lexical : posix.dirname(lexical);
    if (!o.glob && o.realpaths.physical(probe) === null) return [{ dynamic: 'more than 40 symbolic links (a loop)' }];
    return [{ path: lexical }];
  }
  if (dots && value.length > PATH_MAX) return [{ dynamic: 'a path longer than PATH_MAX with `..` in it' }];
  const full = value.startsWith('/') ? value : cwd + '/' + value;
  const followLast = o.followLast || /\/\.?$/.test(value);
  const out: PathReading[] = [];
  const pending: State[] = [{ prefix: '/', resolved: true, todo: full.split('/').reverse(), hops: 0, afterGlob: false, followed: false }];
  while (pending.length > 0) {
    if (out.length + pending.length > MAX_READINGS) return [...out, { dynamic: 'too many readings of links made on this line' }];
    const reading = walk(pending.pop()!, pending, out, o, made, followLast);
    if (reading.path === undefined) out.push({ dynamic: reading.dynamic });
    else out.push({ path: reading.followed ? reading.path : lexicalIfSame(reading.path, lexical, o) });
  }
  return out;
}

/** Could a component of the path be an entry made on the line? */
function mayMeet(value: string, cwd: string, made: MadeView, glob: boolean): boolean {
  for (const part of (value.startsWith('/') ? value : cwd + '/' + value).split('/')) {
    if (made.names.has(part)) return true;
    if (glob && /[*?[]/.test(part)) return true;
  }
  return false;
}

/** The lexical spelling when it reaches the same place: rules and messages speak of what was written. */
function lexicalIfSame(path: string, lexical: string, o: ReadingOptions): string {
  if (path === lexical) return lexical;
  if (o.glob) return path;
  return o.realpaths.physical(path) === o.realpaths.physical(lexical) ? lexical : path;
}

function walk(
  s: State,
  pending: State[],
  out: PathReading[],
  o: ReadingOptions,
  made: MadeView | null,
  followLast: boolean,
): PathReading & { followed?: boolean } {
  const resolvedPrefix = (): string | null => {
    if (s.resolved) return s.prefix;
    const p = o.realpaths.physical(s.prefix);
    if (p === null) return null;
    s.prefix = p;
    s.resolved = true;
    return p;
  };
  for (let part = s.todo.pop(); part !== undefined; part = s.todo.pop()) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      // What a glob component matches decides which directory `..` leaves (a match may be a link).
      if (s.afterGlob) return { dynamic: '`..` after a glob pattern' };
      if (resolvedPrefix() === null) return { dynamic: 'more than 40 symbolic links (a loop)' };
      s.prefix = posix.dirname(s.prefix);
      continue;
    }
    const glob = o.glob && /[*?[]/.test(part);
    if (made !== null && !s.afterGlob && (glob || made.names.has(part))) {
      const dir = resolvedPrefix();
      if (dir === null) return { dynamic: 'more than 40 symbolic links (a loop)' };
      const match = glob ? picomatch(part, { dot: part.startsWith('.') }) : null;
      let replaced = false;
      for (const e of made.entries) {
        if (e.kind === 'dir' || posix.dirname(e.path) !== dir) continue;
        const name = posix.basename(e.path);
        if (glob ? !match!(name) : name !== part) continue;
        if (!reaches(e, isLast(s.todo), followLast, o.removesName)) continue;
        const unknown = unknownLinkReason(s.hops + 1, e);
        if (unknown !== null) {
          if (e.certain && !glob) return { dynamic: unknown };
          out.push({ dynamic: unknown });
          continue;
        }
        const target = e.target!;
        const relative = e.kind === 'symlink' && !target.startsWith('/');
        const through: State = {
          prefix: relative ? dir : '/',
          resolved: true,
          todo: [...s.todo, ...target.split('/').reverse()],
          hops: s.hops + 1,
          afterGlob: false,
          followed: true,
        };
        // A glob also matches what else is there; an entry that may not be there leaves the disk's reading too.
        if (e.certain && !glob) {
          Object.assign(s, through);
          replaced = true;
          break;
        }
        pending.push(through);
      }
      if (replaced) continue;
    }
    s.prefix = s.prefix === '/' ? '/' + part : s.prefix + '/' + part;
    s.resolved = false;
    if (glob) s.afterGlob = true;
  }
  return { path: s.prefix, followed: s.followed };
}

/** Only empty or `.` components are left (`h/` and `h/.` end at `h`). */
/** Why following a link made earlier on the line leads nowhere known; null when it can be followed. */
function unknownLinkReason(hops: number, e: MadeEntry): string | null {
  if (hops > MAX_SYMLINKS) return 'more than 40 symbolic links (a loop)';
  if (e.target === null) return 'a link made earlier on this line whose target is only known at run time';
  return null;
}

function isLast(todo: string[]): boolean {
  for (let i = todo.length - 1; i >= 0; i--) if (todo[i] !== '' && todo[i] !== '.') return false;
  return true;
}

/** Does the walk go through this entry at this component? */
function reaches(e: MadeEntry, last: boolean, followLast: boolean, removesName: boolean): boolean {
  if (e.kind === 'mirror') return !last && !removesName; // the mirror directory itself is a real one
  if (e.kind === 'hardlink') return !removesName;
  return !last || followLast;
}
