/**
 * What is under a directory of the workspace, read from the disk when the command is judged: one
 * bounded walk of the tree (links are listed, not followed, as find and git do), cached per
 * analysis by the classifier (paths/classify.ts). Several questions are answered from it:
 *
 * - Do the names stay whole when split? `find . | xargs cat` splits what find prints at blanks: a
 *   directory named `a ` holding `etc/passwd` gives the word `/etc/passwd` (`namesStayWhole`).
 * - What does a recursive read reach? `grep -rn KEY .` prints the lines of every file below, `.env`
 *   included; `grep -R`, `rg -L`, `find -L` also go where a link leads (`homelink -> ~`). The
 *   entries are listed here; which are secrets, and where links lead, is the classifier's question.
 *
 * A missing directory holds no names; a tree larger than the walk looks at, or one it cannot read,
 * is not known (null), and nothing may be assumed about it.
 */
import { readdirSync, type Dirent } from 'node:fs';

/** What a split cuts at: blanks and newlines (xargs, `$(…)`), newlines only (`xargs -d '\n'`); `glob`: the pieces are also globbed. */
export type NameSplit = 'blank' | 'newline' | 'blank-glob';

const CUTS: Record<NameSplit, RegExp> = {
  blank: /[ \t\n]/,
  newline: /\n/,
  'blank-glob': /[ \t\n*?[\\]/,
};

/** Entries of a tree looked at before giving up (a checkout with its dependencies installed is larger). */
export const NAME_SCAN_LIMIT = 20000;

/** One entry below the scanned directory. */
export interface TreeEntry {
  /** Absolute path: the scanned directory (as given) joined with the names below it. */
  path: string;
  name: string;
  /** A symbolic link is `link` (never followed by the walk), whatever it points to. */
  kind: 'dir' | 'file' | 'link' | 'other';
  /** Some name on the way from the scanned directory down to it starts with `.` (rg skips those). */
  hidden: boolean;
}

/** Every entry below `dir` (not `dir` itself), in breadth-first order; null when the tree cannot be known. */
export function scanTree(dir: string): TreeEntry[] | null {
  const out: TreeEntry[] = [];
  const queue: { path: string; hidden: boolean }[] = [{ path: dir, hidden: false }];
  for (let q = 0; q < queue.length; q++) {
    let entries;
    try {
      entries = readdirSync(queue[q].path, { withFileTypes: true });
    } catch (e) {
      // A missing starting point holds no names; any other directory it cannot read is unknown.
      if (q === 0 && (e as NodeJS.ErrnoException).code === 'ENOENT') return out;
      return null;
    }
    for (const entry of entries) {
      if (out.length >= NAME_SCAN_LIMIT) return null;
      const path = (queue[q].path === '/' ? '' : queue[q].path) + '/' + entry.name;
      const hidden = queue[q].hidden || entry.name.startsWith('.');
      const kind = kindOf(entry);
      out.push({ path, name: entry.name, kind, hidden });
      if (kind === 'dir') queue.push({ path, hidden });
    }
  }
  return out;
}

function kindOf(entry: Dirent): TreeEntry['kind'] {
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isDirectory()) return 'dir';
  return entry.isFile() ? 'file' : 'other';
}

/** True when no name in `entries` holds a character `split` cuts at; false when one does, or when the tree is not known. */
export function namesStayWhole(entries: readonly TreeEntry[] | null, split: NameSplit): boolean {
  if (entries === null) return false;
  const cut = CUTS[split];
  return !entries.some((e) => cut.test(e.name));
}

/** The names directly in `dir` (one readdir); a missing directory has none; null when it cannot be read. */
export function namesIn(dir: string): string[] | null {
  try {
    return readdirSync(dir);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? [] : null;
  }
}
