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

/**
 * Visit every object of the tree in source order (substitution bodies, heredocs and fields without
 * a `type` included; spans skipped). `visit` answers `skip` to leave that object's fields out,
 * `stop` to end the walk.
 */
export function visitNodes(root: Node, visit: (o: Record<string, unknown>) => 'skip' | 'stop' | void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object') continue;
    if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
      continue;
    }
    const o = x as Record<string, unknown>;
    const next = visit(o);
    if (next === 'stop') return;
    if (next !== 'skip') for (const k in o) if (k !== 'span') stack.push(o[k]);
  }
}

/** The first non-null answer of `test` over every object of the tree in source order (visitNodes), or null. */
export function firstNode<T>(root: Node, test: (o: Record<string, unknown>) => T | null): T | null {
  let found: T | null = null;
  visitNodes(root, (o) => {
    found = test(o);
    return found === null ? undefined : 'stop';
  });
  return found;
}

/** The first Unparsed node anywhere in the tree (substitution bodies included), or null. */
export function firstUnparsed(root: Node): Unparsed | null {
  return firstNode(root, (o) => (o.type === 'Unparsed' ? (o as unknown as Unparsed) : null));
}

/** A clean parse: no issue reported and no Unparsed node anywhere. */
export function isClean(r: ParseResult): boolean {
  return r.issues.length === 0 && firstUnparsed(r.script) === null;
}
