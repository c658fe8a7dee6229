/**
 * The walk both dialect checks share (dash-reading.ts, zsh-reading.ts): every node of bash's tree,
 * substitution bodies and heredocs included, in source order, until a check names a construct
 * the other shell may read to do more.
 */
import type { Script, Span } from './ast.js';

/** A construct the other shell reads otherwise, as a finding names it, with where it is. */
export interface DialectDifference {
  what: string;
  span: Span;
}

/** A node as the checks see it: its kind, its span, and its fields. */
export type ScannedNode = { type?: string; span?: Span } & Record<string, unknown>;

/** The first node of `script` for which `differs` names a construct, or null. */
export function firstDifference(script: Script, text: string, differs: (node: ScannedNode, text: string) => string | null): DialectDifference | null {
  const stack: unknown[] = [script];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object') continue;
    if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
      continue;
    }
    const node = x as ScannedNode;
    if (typeof node.type === 'string' && node.span) {
      const what = differs(node, text);
      if (what !== null) return { what, span: node.span };
    }
    for (const k in node) if (k !== 'span') stack.push(node[k]);
  }
  return null;
}
