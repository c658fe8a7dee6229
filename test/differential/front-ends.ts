/**
 * The three front ends the differential suite compares, each giving shellgate's AST: ours
 * (src/syntax/parser, the default), tree-sitter-bash (the second opinion of consensus mode) and
 * bash-parser (through its adapter).
 */
import { BashParser } from '../../src/syntax/tree-sitter/parser.js';
import { loadBashParser, parseWithBashParser } from '../../src/syntax/bash-parser-adapter.js';
import { parseBash } from '../../src/syntax/parser/index.js';
import type { Node, Script, Unparsed } from '../../src/syntax/ast.js';
import type { ParseResult } from '../../src/syntax/parse-result.js';

export interface FrontEnds {
  ours(source: string): ParseResult;
  treeSitter(source: string): ParseResult;
  /** Null when bash-parser cannot parse the text. */
  bashParser(source: string): Script | null;
}

export async function loadFrontEnds(): Promise<FrontEnds> {
  const ts = await BashParser.create();
  await loadBashParser();
  return {
    ours: parseBash,
    treeSitter: (s) => ts.parse(s),
    bashParser: (s) => parseWithBashParser(s),
  };
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
