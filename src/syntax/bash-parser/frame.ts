/**
 * Frames: a text bash-parser parsed, with its offset mapping back to the original source, and
 * the position helpers that turn bash-parser's locations into spans of that source.
 *
 * Two mappings are involved: bash-parser counts code points where our spans count UTF-16 code
 * units (`cp`), and the text it parsed may differ from the source (a substitution body is a
 * slice of it; a backquote body has escapes removed), which `g` undoes.
 */
import type { Span } from '../ast.js';
import type { BPNode } from './tree.js';

export interface Frame {
  /** The text as given to bash-parser (heredoc bodies blanked, backquote escapes removed). */
  text: string;
  /** Code-point index → code-unit index in `text`; null when they are the same. */
  cp: number[] | null;
  /** Code-unit index in `text` → code-unit index in the original source. */
  g: (i: number) => number;
}

function codePointMap(text: string): number[] | null {
  if (!/[\uD800-\uDFFF]/.test(text)) return null;
  const map: number[] = [];
  let i = 0;
  for (const ch of text) {
    map.push(i);
    i += ch.length;
  }
  map.push(i);
  return map;
}

export function makeFrame(text: string, g: (i: number) => number): Frame {
  return { text, cp: codePointMap(text), g };
}

/** Code-unit offset in frame.text of a bash-parser code-point index. */
function cu(f: Frame, cp: number): number {
  if (!f.cp) return cp;
  return f.cp[Math.max(0, Math.min(cp, f.cp.length - 1))];
}

/** Local [start, end) of a node (bash-parser's end is inclusive). */
export function local(f: Frame, n: BPNode | undefined): { start: number; end: number } | null {
  if (!n?.loc?.start || !n.loc.end) return null;
  const start = Math.min(cu(f, n.loc.start.char), f.text.length);
  // A word ending in `$name` at the very end of the text ends one past it in bash-parser.
  const end = Math.min(cu(f, n.loc.end.char + 1), f.text.length);
  return { start, end: Math.max(start, end) };
}

/** Span in the original source of the frame-local range [start, end). */
export function spanOf(f: Frame, start: number, end: number): Span {
  const s = f.g(start);
  const e = end > start ? f.g(end - 1) + 1 : s;
  return { start: s, end: Math.max(s, e) };
}

/** A node's span in the source, or `fallback` when bash-parser gave it no location. */
export function nodeSpan(f: Frame, n: BPNode | undefined, fallback: Span): Span {
  const l = local(f, n);
  return l ? spanOf(f, l.start, l.end) : fallback;
}
