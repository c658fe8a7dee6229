/**
 * The three front ends the differential suite compares, each giving shellgate's AST: ours
 * (src/syntax/parser, the default), tree-sitter-bash (the second opinion of consensus mode) and
 * bash-parser (through its adapter).
 */
import { BashParser } from '../../src/syntax/tree-sitter/parser.js';
import { loadBashParser, parseWithBashParser } from '../../src/syntax/bash-parser-adapter.js';
import { parseBash } from '../../src/syntax/parser/index.js';
import type { Script } from '../../src/syntax/ast.js';
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

export { firstUnparsed, isClean } from '../../src/syntax/parse-result.js';
