/**
 * bash's reading of a command where tree-sitter-bash reads the text otherwise, as a rewrite of the
 * text that tree-sitter then parses the way bash would. The analyser lists the commands of this
 * reading and keeps whatever the text as written finds that is stricter (never the most
 * convenient reading).
 *
 * - Backslash-newline: bash removes it before it reads a token, even where it splits `$\⏎(`
 *   (continuations.ts knows where it does and does not).
 * - `coproc [NAME] COMMAND`: tree-sitter-bash has no coproc; it reads `coproc` as a program and a
 *   compound body as a parse error. With the keyword (and its NAME) blanked out, the body parses
 *   as the command bash runs, at the same offsets.
 */
import { joinContinuations } from '../continuations.js';

export interface Reading {
  text: string;
  /** Map an offset in `text` back to the original command. */
  toOriginal: (i: number) => number;
}

/** The text rewritten to bash's reading, or null when tree-sitter already reads it as bash does. */
export function bashReading(command: string): Reading | null {
  let reading: Reading = { text: command, toOriginal: (i) => i };
  if (command.includes('\\\n')) reading = joinContinuations(command);
  if (reading.text.includes('coproc')) reading = { text: blankCoproc(reading.text), toOriginal: reading.toOriginal };
  return reading.text === command ? null : reading;
}

/** `coproc` in command position, and a NAME right after it when a `{` or `(` body follows. */
const COPROC = /(^|[\s;&|(){}`])coproc(\s+[A-Za-z_][A-Za-z0-9_]*(?=\s*[{(]))?(?=\s)/g;

function blankCoproc(text: string): string {
  return text.replace(COPROC, (m, lead: string) => lead + ' '.repeat(m.length - lead.length));
}
