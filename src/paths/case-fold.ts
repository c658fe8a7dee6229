/**
 * Does a directory live on a case-insensitive file system (macOS and Windows defaults)? There
 * `.ENV` is `.env` and `.git/HOOKS/x` is a hook, so sensitive and exec-config names must match
 * without case. Detected by reading only: an entry of the directory (or, when it has none with a
 * letter, the directory's own name) is looked up with its case flipped; the same inode under both
 * spellings means the names fold.
 */
import { lstatSync, opendirSync, type Dir, type Stats } from 'node:fs';
import { posix } from 'node:path';

/** true: names fold; false: they do not; null: nothing on disk to tell. */
export type CaseDetector = (dir: string) => boolean | null;

const known = new Map<string, boolean | null>();
const KNOWN_LIMIT = 256;
/** Entries of a directory looked at for a name with a letter. */
const ENTRIES_TRIED = 64;

export const detectCaseInsensitive: CaseDetector = (dir) => {
  const cached = known.get(dir);
  if (cached !== undefined) return cached;
  const answer = detect(dir);
  if (known.size >= KNOWN_LIMIT) known.clear();
  known.set(dir, answer);
  return answer;
};

/**
 * The answer the classifier uses: where the detector cannot tell (nothing on disk), names are
 * matched without case — a stricter match costs only odd-cased names, a looser one misses `.ENV`.
 */
export function foldsCase(dir: string, detector: CaseDetector): boolean {
  return detector(dir) ?? true;
}

function detect(dir: string): boolean | null {
  // The directory may not exist yet: its nearest existing ancestor is where it would be made.
  for (let at = dir; ; at = posix.dirname(at)) {
    const st = stat(at);
    if (st?.isDirectory()) {
      const inside = fromEntry(at);
      if (inside !== null) return inside;
      const own = flippedSame(at, st);
      if (own !== null) return own;
    }
    if (at === '/') return null;
  }
}

/**
 * Look up one entry of `dir` whose name has a letter, with its case flipped. Entries are read a
 * few at a time, not the whole listing: a home or /tmp may hold thousands, and one answers.
 */
function fromEntry(dir: string): boolean | null {
  let d: Dir;
  try {
    d = opendirSync(dir, { bufferSize: 16 });
  } catch {
    return null;
  }
  try {
    let tried = 0;
    for (let e = d.readSync(); e !== null; e = d.readSync()) {
      const name = e.name;
      if (!/[a-z]/i.test(name) || flip(name) === name) continue;
      if (++tried > ENTRIES_TRIED) break;
      const path = dir === '/' ? '/' + name : dir + '/' + name;
      const st = stat(path);
      if (st !== null) return flippedSame(path, st);
    }
    return null;
  } catch {
    return null;
  } finally {
    d.closeSync();
  }
}

/** Is `path` with its last name's case flipped the same file? null when the name has no letter. */
function flippedSame(path: string, st: Stats): boolean | null {
  const name = posix.basename(path);
  if (!/[a-z]/i.test(name)) return null;
  const other = stat(posix.join(posix.dirname(path), flip(name)));
  return other !== null && other.ino === st.ino && other.dev === st.dev;
}

function flip(name: string): string {
  let out = '';
  for (const ch of name) out += ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
  return out;
}

function stat(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}
