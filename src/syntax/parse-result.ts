/** What every front end returns: our AST and the places it could not read as bash does. */
import type { Node, Script, Span, Unparsed } from './ast.js';

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

/** The first Unparsed node anywhere in the tree (substitution bodies included), or null. */
export function firstUnparsed(root: Node): Unparsed | null {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object') continue;
    if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
      continue;
    }
    const o = x as Record<string, unknown>;
    if (o.type === 'Unparsed') return o as unknown as Unparsed;
    for (const k in o) if (k !== 'span') stack.push(o[k]);
  }
  return null;
}

/** A clean parse: no issue reported and no Unparsed node anywhere. */
export function isClean(r: ParseResult): boolean {
  return r.issues.length === 0 && firstUnparsed(r.script) === null;
}
