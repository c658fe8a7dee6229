/**
 * shellgate's own bash parser: a lexer and recursive-descent parser written from bash's grammar
 * (parse.y) and its word-reading rules (subst.c), building our AST (ast.ts) directly. It is the
 * default front end: synchronous, no WASM, linear in input size.
 *
 * - scanner.ts: characters, blanks, comments, operators, reserved words, the two early stops;
 * - words.ts: words and every quoting and expansion form, here-document bodies;
 * - commands.ts: the grammar, with error recovery per statement.
 *
 * Backslash-newline is removed first, where bash removes it (continuations.ts), and spans are
 * moved back to the text as written.
 */
import type { Script } from '../ast.js';
import type { ParseIssue, ParseResult } from '../parse-result.js';
import { joinContinuations } from '../continuations.js';
import { mapSpans, movedSpan } from '../spans.js';
import { CommandParser } from './commands.js';

export type { ParseIssue, ParseResult } from '../parse-result.js';

/** Parse a command or script as bash reads it. Never throws; what it cannot read is `Unparsed`. */
export function parseBash(source: string): ParseResult {
  if (!source.includes('\\\n')) return parseText(source);
  const joined = joinContinuations(source);
  const result = parseText(joined.text);
  mapSpans(result.script, joined.toOriginal);
  for (const issue of result.issues) {
    issue.span = movedSpan(issue.span, joined.toOriginal);
  }
  return result;
}

function parseText(text: string): ParseResult {
  const issues: ParseIssue[] = [];
  try {
    const script = CommandParser.parse(text, 0, text.length, issues);
    return { script, issues };
  } catch (e) {
    // The engine's own stack ran out before MAX_DEPTH did (a long chain of substitutions read as
    // separate texts): the whole text is too deep to read, never a crash.
    if (!(e instanceof RangeError)) throw e;
    return tooDeep(text);
  }
}

function tooDeep(text: string): ParseResult {
  const span = { start: 0, end: text.length };
  const script: Script = {
    type: 'Script',
    body: {
      type: 'List',
      items: [{ type: 'Unparsed', reason: 'too-deep', raw: text, inner: [], redirects: [], span }],
      operators: [null],
      redirects: [],
      span,
    },
    span,
  };
  return { script, issues: [{ kind: 'error', span, text: text.slice(0, 80) }] };
}
