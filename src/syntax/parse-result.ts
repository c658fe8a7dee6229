/** What every front end returns: our AST and the places it could not read as bash does. */
import type { Script, Span } from './ast.js';

export interface ParseIssue {
  /**
   * `error`: the parser could not parse this region; `missing`: a token it had to invent;
   * `doubt`: it parsed, but bash may read the region otherwise.
   */
  kind: 'error' | 'missing' | 'doubt';
  span: Span;
  /** The token that was missing, or the text that did not parse (cut to 80 characters). */
  text: string;
}

export interface ParseResult {
  script: Script;
  issues: ParseIssue[];
}
