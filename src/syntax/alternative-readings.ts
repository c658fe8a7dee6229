/**
 * Other ways bash may read a command than the tree shellgate's parser built. Each reading is a
 * rewrite of the text that the parser does read the way bash would; the analyser checks every
 * reading and keeps the strictest verdict (never the most convenient one).
 *
 * - Backslash-newline: bash removes it before it tokenises, even where it splits `$\⏎(`.
 * - `coproc [NAME] COMMAND`: tree-sitter-bash has no coproc; it reads `coproc` as a program and a
 *   compound body as a parse error. With the keyword (and its NAME) blanked out, the body parses
 *   as the command bash runs, at the same offsets.
 */
export interface Reading {
  text: string;
  /** Map an offset in `text` back to the original command. */
  toOriginal: (i: number) => number;
}

export function alternativeReadings(command: string): Reading[] {
  const out: Reading[] = [];
  if (command.includes('\\\n')) out.push(joinContinuations(command));
  if (command.includes('coproc')) {
    const blanked = blankCoproc(command);
    if (blanked !== command) out.push({ text: blanked, toOriginal: (i) => i });
  }
  return out;
}

/** Remove every backslash-newline; map offsets in the result back to the original. */
export function joinContinuations(text: string): Reading {
  const removedAt: number[] = []; // positions in the joined text where a pair was removed
  let out = '';
  let last = 0;
  for (let i = text.indexOf('\\\n'); i >= 0; i = text.indexOf('\\\n', i + 2)) {
    out += text.slice(last, i);
    removedAt.push(out.length);
    last = i + 2;
  }
  out += text.slice(last);
  return {
    text: out,
    toOriginal: (j) => {
      let k = 0;
      while (k < removedAt.length && removedAt[k] <= j) k++;
      return j + 2 * k;
    },
  };
}

/** `coproc` in command position, and a NAME right after it when a `{` or `(` body follows. */
const COPROC = /(^|[\s;&|(){}`])coproc(\s+[A-Za-z_][A-Za-z0-9_]*(?=\s*[{(]))?(?=\s)/g;

function blankCoproc(text: string): string {
  return text.replace(COPROC, (m, lead: string) => lead + ' '.repeat(m.length - lead.length));
}
