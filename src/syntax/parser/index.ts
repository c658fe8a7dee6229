/**
 * shellgate's own bash parser: a lexer and recursive-descent parser written from bash's grammar
 * (parse.y) and its word-reading rules (subst.c), building our AST (ast.ts) directly. It is the
 * default front end: synchronous, no WASM, linear in input size.
 */
import type { ParseResult } from '../parse-result.js';

export type { ParseIssue, ParseResult } from '../parse-result.js';

/** Parse a command or script as bash reads it. Never throws; what it cannot read is `Unparsed`. */
export function parseBash(source: string): ParseResult {
  throw new Error(`not implemented yet (${source.length})`);
}
