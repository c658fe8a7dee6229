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
