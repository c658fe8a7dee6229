/**
 * What both dialect checks share (dash-reading.ts, zsh-reading.ts): every node of bash's tree,
 * substitution bodies and heredocs included, in source order (parse-result.ts firstNode), until a
 * check names a construct the other shell may read to do more.
 */
import type { Script, Span } from './ast.js';
import { firstNode } from './parse-result.js';

/** A construct the other shell reads otherwise, as a finding names it, with where it is. */
export interface DialectDifference {
  what: string;
  span: Span;
}

/** A node as the checks see it: its kind, its span, and its fields. */
export type ScannedNode = { type?: string; span?: Span } & Record<string, unknown>;

/** The first node of `script` for which `differs` names a construct, or null. */
export function firstDifference(script: Script, text: string, differs: (node: ScannedNode, text: string) => string | null): DialectDifference | null {
  return firstNode(script, (o) => {
    const node = o as ScannedNode;
    if (typeof node.type !== 'string' || !node.span) return null;
    const what = differs(node, text);
    return what === null ? null : { what, span: node.span };
  });
}
