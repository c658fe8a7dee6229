/**
 * Backslash-newline, removed where bash removes it. bash drops the pair before it reads a token,
 * inside double quotes, backquotes, `$(…)` and unquoted here-document bodies too (so
 * `"$\⏎(cmd)"` is `"$(cmd)"`), but not inside single quotes or `$'…'`, in a comment, in a
 * here-document whose delimiter is quoted, or after a backslash that is itself escaped.
 */
import { skipCommand } from './bash-scan.js';

export interface Joined {
  text: string;
  /** Offset in the joined text → offset in the original. */
  toOriginal: (i: number) => number;
}

export function joinContinuations(text: string): Joined {
  const joins: number[] = [];
  skipCommand(text, 0, null, text.length, { joins });
  joins.sort((a, b) => a - b);
  const removedAt: number[] = []; // positions in the joined text where a pair was removed
  let out = '';
  let last = 0;
  for (const i of joins) {
    if (i < last) continue;
    out += text.slice(last, i);
    removedAt.push(out.length);
    last = i + 2;
  }
  out += text.slice(last);
  return {
    text: out,
    toOriginal: (j) => {
      // pairs removed at or before j (binary search: spans of a long script are many)
      let lo = 0;
      let hi = removedAt.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (removedAt[mid] <= j) lo = mid + 1;
        else hi = mid;
      }
      return j + 2 * lo;
    },
  };
}
