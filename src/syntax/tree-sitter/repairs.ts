/**
 * Token-level repairs: where tree-sitter-bash cuts the text into tokens differently from bash, the
 * text is parsed again with the offending span masked (same length, so every offset still points
 * into the original), and the masked construct is read again from the original text.
 *
 * The converter always reads node text from the original, never from the masked copy.
 */
import type { Span } from '../ast.js';
import { isArithmetic, skipArithParens, skipCommand } from '../bash-scan.js';

/** A construct read again from the original text instead of tree-sitter's (masked) reading. */
export interface Reread {
  /** End of the construct (its start is the map key). */
  end: number;
  /** `command`: a `$(…)` whose body is `body`; `subshell`: a `(…)` whose body is `body`. */
  kind: 'command' | 'subshell';
  body: Span;
}

export interface Repair {
  /** The span replaced in the text tree-sitter reads. */
  span: Span;
  /** The replacement, as long as the span. */
  mask: string;
  /** The construct that the masked span now stands for, keyed by its start. */
  reread?: { start: number } & Reread;
}

/**
 * A carriage return is a word character for bash (only space, tab and newline separate words, and
 * `\` + CR escapes the CR), but tree-sitter-bash skips it as blank: `TZ=UTC<CR>echo curl …` runs
 * curl for bash, with `TZ` set to `UTC<CR>echo`. tree-sitter reads \x01 as bash reads CR.
 */
export function maskCarriageReturns(text: string): string {
  return text.includes('\r') ? text.replace(/\r/g, '\x01') : text;
}

/**
 * `$'…'` whose end bash and tree-sitter disagree on (`$'a\\'`: bash ends at the third quote,
 * tree-sitter reads `\'` as an escaped quote and swallows what follows): mask its content so
 * tree-sitter ends it where bash does.
 */
export function ansiCRepair(stringStart: number, bashEnd: number): Repair {
  const span = { start: stringStart + 2, end: bashEnd - 1 };
  return { span, mask: 'x'.repeat(span.end - span.start) };
}

/**
 * `((` / `$((` that bash does not read as arithmetic (see isArithmetic): `((a) …)` is a subshell
 * in a subshell, `$((a) …)` the command substitution of `(a) …`. tree-sitter only reports an
 * error there and never reads the commands. The construct is masked to `(:  …)` / `$(:  …)` and
 * its body read again from the original text. `at` is the index of the `((` (after any `$`).
 */
export function dparenRepair(source: string, at: number, dollar: boolean): Repair | null {
  if (isArithmetic(source, at)) return null;
  const start = dollar ? at - 1 : at;
  // `$((`: the parser matched the parentheses from the `$(`; `((`: the outer `(` is a subshell
  // that ends where its command list does.
  const close = dollar ? skipArithParens(source, at, source.length) : skipCommand(source, at + 1, ')');
  if (close < 0) return null;
  const open = dollar ? '$(' : '(';
  const fill = close - start - open.length - 1;
  if (fill < 1) return null;
  return {
    span: { start, end: close + 1 },
    mask: open + ':' + ' '.repeat(fill) + ')',
    reread: { start, end: close + 1, kind: dollar ? 'command' : 'subshell', body: { start: at + 1, end: close } },
  };
}

/** Apply repairs that do not overlap each other or an earlier mask; returns the new text. */
export function applyRepairs(text: string, repairs: Repair[], rereads: Map<number, Reread>, masked: Span[]): string {
  let out = text;
  for (const r of repairs.sort((a, b) => a.span.start - b.span.start)) {
    if (masked.some((m) => m.start < r.span.end && r.span.start < m.end)) continue;
    masked.push(r.span);
    out = out.slice(0, r.span.start) + r.mask + out.slice(r.span.end);
    if (r.reread) rereads.set(r.reread.start, { end: r.reread.end, kind: r.reread.kind, body: r.reread.body });
  }
  return out;
}
