/**
 * Where the walker is in the text: the script being walked (the command line, or a nested script
 * such as `sh -c STRING`) and how its spans map back onto the command line the user sees.
 */
import type { Span } from '../syntax/ast.js';

/** Where spans of a nested script land in the original text. */
export interface SourceFrame {
  source: string;
  /** Map a span in `source` to the original command text. */
  map: (s: Span) => Span;
  scriptDepth: number;
}

/** The map of the top-level command line: its spans are already the user's. */
export const identity = (s: Span): Span => s;

export function sourceText(frame: SourceFrame, span: Span): string {
  return frame.source.slice(span.start, span.end);
}
