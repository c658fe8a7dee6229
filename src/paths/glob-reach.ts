/**
 * Where a glob can reach besides what its text suggests. bash ≤ 5.1 (and 5.2 with `globskipdots`
 * off) lets a pattern that starts with a dot match `.` and `..`: `chmod -R 777 .*` also changes
 * the parent directory. Each segment that may match `..` gives another reading of the pattern with
 * that segment as `..`; the caller classifies every reading and keeps them all.
 */
import picomatch from 'picomatch';
import { posix } from 'node:path';

const GLOB_CHARS = /[*?[]/;
/** At most this many segments are considered (a pattern has few; cost stays linear). */
const MAX_SEGMENTS = 4;

const matchers = new Map<string, boolean>();

/** Can this glob segment match the name `..`? */
function mayMatchParent(segment: string): boolean {
  if (!segment.startsWith('.') && !segment.startsWith('[')) return false;
  let r = matchers.get(segment);
  if (r === undefined) {
    try {
      r = picomatch(segment, { dot: true })('..');
    } catch {
      r = true; // a pattern picomatch cannot read may match anything
    }
    if (matchers.size > 1000) matchers.clear();
    matchers.set(segment, r);
  }
  return r;
}

/** Readings of an absolute glob pattern with a segment that may match `..` taken as `..`. */
export function parentReadings(pattern: string): string[] {
  if (!pattern.includes('.')) return [];
  const segments = pattern.split('/');
  const out: string[] = [];
  let seen = 0;
  for (let i = 0; i < segments.length && seen < MAX_SEGMENTS; i++) {
    if (!GLOB_CHARS.test(segments[i]) || !mayMatchParent(segments[i])) continue;
    seen++;
    const reading = [...segments.slice(0, i), '..', ...segments.slice(i + 1)].join('/');
    out.push(posix.normalize(reading) || '/');
  }
  return out;
}

/** An entry of a directory as a glob meets it: its name, and whether it is a symbolic link. */
export interface GlobEntry {
  name: string;
  link: boolean;
}

/** At most this many directories are listed for one glob (each segment multiplies them). */
const MAX_LISTED = 64;

/**
 * Links a glob can meet on its way down: `cat *\/config` with a link `homelink -> ~/.ssh` reads
 * `~/.ssh/config`, which the pattern's text does not say. From the fixed directory `bound`, each
 * wildcard segment is matched against the names there (`list`); a link it matches is where the
 * rest of the pattern goes on. Returns the pattern from each link's target on (the caller resolves
 * the target and classifies it), or null when a directory cannot be listed or the pattern has a
 * `**` (every link below may be met: the caller cannot know more from this walk).
 */
export function linkReadings(pattern: string, bound: string, list: (dir: string) => GlobEntry[] | null, dot: boolean): { link: string; rest: string }[] | null {
  const rest = pattern.slice(bound === '/' ? 1 : bound.length + 1).split('/');
  if (rest.includes('**')) return null;
  const out: { link: string; rest: string }[] = [];
  let dirs = [bound === '/' ? '' : bound];
  for (let i = 0; i < rest.length && dirs.length > 0; i++) {
    const segment = rest[i];
    const next: string[] = [];
    if (!GLOB_CHARS.test(segment)) {
      for (const d of dirs) next.push(d + '/' + segment);
      dirs = next;
      continue;
    }
    let match: (name: string) => boolean;
    try {
      match = picomatch(segment, { dot, nocase: true });
    } catch {
      return null;
    }
    for (const d of dirs) {
      const entries = list(d || '/');
      if (entries === null) return null;
      for (const e of entries) {
        if (!match(e.name)) continue;
        if (e.link) out.push({ link: d + '/' + e.name, rest: rest.slice(i + 1).join('/') });
        else next.push(d + '/' + e.name);
      }
    }
    if (next.length > MAX_LISTED) return null;
    dirs = next;
  }
  return out;
}

/** A link below a glob's fixed directory, as the name scan lists it (paths/name-scan.ts). */
export interface LinkBelow {
  path: string;
  name: string;
  /** Some name from the glob's directory down to it starts with `.`. */
  hidden: boolean;
}

/**
 * Links a glob the walk above cannot follow segment by segment may meet: one with `**`, or one
 * whose directories are too many to list. bash's `**` does not descend through a link to a
 * directory (since 4.3), but the segment after it does (`**\/*\/config` reaches `keys/config` with
 * `keys -> ~/.ssh`), a `**` that does not start the pattern sometimes does (bash 5.2: `d/**\/config`
 * matched `d/keys2/config`), and the last segment matches a link's own name. So every link below
 * the fixed directory may be met; the pattern's last segment may go on below its target, or match
 * the link itself. Hidden names are met only when the glob matches dot names.
 */
export function linksBelowReadings(pattern: string, links: readonly LinkBelow[], dot: boolean): { link: string; rest: string }[] {
  const last = pattern.slice(pattern.lastIndexOf('/') + 1);
  let matchLast: (name: string) => boolean;
  try {
    matchLast = last === '**' ? () => true : picomatch(last, { dot: true, nocase: true });
  } catch {
    matchLast = () => true;
  }
  const out: { link: string; rest: string }[] = [];
  for (const l of links) {
    if (l.hidden && !dot) continue;
    if (matchLast(l.name)) out.push({ link: l.path, rest: '' });
    out.push({ link: l.path, rest: last === '**' ? '**' : `**/${last}` });
  }
  return out;
}
