/**
 * Do the names under a directory stay whole when split? `find . | xargs cat` splits what find
 * prints at blanks: a directory named `a ` holding `etc/passwd` gives the word `/etc/passwd`.
 * Whether such a name exists is a fact of the disk, read when the command is judged: a bounded
 * walk of the tree (links are not followed, as find and git do not), looking for a name that holds
 * one of the characters the split cuts at (and, for `$(…)`, the glob characters bash expands in
 * the pieces). A missing directory holds no names; a tree larger than the walk looks at, or one it
 * cannot read, is not known to be safe.
 */
import { readdirSync } from 'node:fs';

/** What a split cuts at: blanks and newlines (xargs, `$(…)`), newlines only (`xargs -d '\n'`); `glob`: the pieces are also globbed. */
export type NameSplit = 'blank' | 'newline' | 'blank-glob';

const CUTS: Record<NameSplit, RegExp> = {
  blank: /[ \t\n]/,
  newline: /\n/,
  'blank-glob': /[ \t\n*?[\\]/,
};

/** Entries of a tree looked at before giving up (a checkout with its dependencies installed is larger). */
export const NAME_SCAN_LIMIT = 20000;

/** True when no name under `dir` holds a character `split` cuts at; false when one does, or when that cannot be known. */
export function namesStayWhole(dir: string, split: NameSplit): boolean {
  const cut = CUTS[split];
  const queue: string[] = [dir];
  let seen = 0;
  for (let q = 0; q < queue.length; q++) {
    let entries;
    try {
      entries = readdirSync(queue[q], { withFileTypes: true });
    } catch (e) {
      // A missing starting point prints no names; any other directory it cannot read is unknown.
      if (q === 0 && (e as NodeJS.ErrnoException).code === 'ENOENT') return true;
      return false;
    }
    for (const entry of entries) {
      if (++seen > NAME_SCAN_LIMIT || cut.test(entry.name)) return false;
      if (entry.isDirectory()) queue.push(queue[q] + '/' + entry.name);
    }
  }
  return true;
}
