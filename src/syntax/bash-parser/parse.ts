/**
 * The adapter's entry: prepare the input, parse it with bash-parser and convert the tree.
 */
import type { Script, Span } from '../ast.js';
import { emptyList, list } from './commands.js';
import type { AdapterRepair, ConvertContext } from './context.js';
import { makeFrame, type Frame } from './frame.js';
import { loadedBashParser, type BashParserFn } from './load.js';
import { prepareInput } from './prepare-input.js';
import { ParseFailure, type BPNode } from './tree.js';

/**
 * Parse with bash-parser and convert to shellgate's AST. Null when bash-parser cannot parse the
 * text (it rejects some valid bash: `|&`, `<<<`, `$'…'`, arrays, `function f {`, `2>&1 >f`, …).
 * `repairs`, when given, receives the adapter's corrections that this parse needed.
 */
export function parseWithBashParser(source: string, repairs?: Set<AdapterRepair>): Script | null {
  const bp = loadedBashParser();
  if (!bp) throw new Error('bash-parser is not loaded: await loadBashParser() before parseWithBashParser()');
  const { text, heredocs, ampRedirects } = prepareInput(source);
  const ctx: ConvertContext = {
    source,
    heredocs: new Map(heredocs.map((h) => [h.opStart, h])),
    ampRedirects,
    repairs: new Set<AdapterRepair>(),
    parseFrame: (frame, span) => parseFrame(ctx, bp, frame, span),
  };
  const span = { start: 0, end: source.length };
  try {
    const script = ctx.parseFrame(
      makeFrame(text, (i) => i),
      span,
    );
    if (repairs) for (const r of ctx.repairs) repairs.add(r);
    return script;
  } catch (e) {
    if (e instanceof ParseFailure) return null;
    throw e;
  }
}

/** Parse `frame.text` with bash-parser and convert it. */
function parseFrame(ctx: ConvertContext, bp: BashParserFn, frame: Frame, span: Span): Script {
  if (frame.text.trim() === '') return { type: 'Script', body: emptyList(span), span };
  let ast: BPNode;
  try {
    ast = bp(frame.text, { mode: 'bash', insertLOC: true });
  } catch {
    throw new ParseFailure();
  }
  return { type: 'Script', body: list(ctx, frame, ast.commands ?? [], span), span };
}
