/**
 * Redirects, with two repairs of bash-parser's reading: a digit word before a redirect that bash
 * does not take as its fd, and `&>`/`&>>` (the `&` was blanked by the input preparation). A
 * heredoc is rebuilt from what the input preparation recorded, since bash-parser keeps only its
 * `<<` token.
 */
import type { Redirect, SimpleCommand, Word } from '../ast.js';
import { splitUnquoted } from '../unquoted.js';
import type { ConvertContext } from './context.js';
import { local, makeFrame, spanOf, type Frame } from './frame.js';
import { ParseFailure, type BPNode } from './tree.js';
import { scanDouble, word } from './words.js';

/** `owner` is the simple command a digit word that is no fd belongs to (null on compound commands). */
export function redirect(ctx: ConvertContext, f: Frame, n: BPNode, owner: SimpleCommand | null): Redirect | null {
  if (n.type === 'dless' || n.type === 'dlessdash' || n.type === 'io_number') return heredoc(ctx, f, n);
  if (n.type !== 'Redirect') throw new ParseFailure(`unexpected bash-parser node ${n.type}`);
  const opNode = typeof n.op === 'object' ? n.op : undefined;
  let op = opNode?.text ?? '>';
  const opLoc = local(f, opNode);
  let fd: number | null = null;
  let loc = local(f, n);
  if (n.numberIo) {
    const numLoc = local(f, n.numberIo);
    if (numLoc && opLoc && numLoc.end !== opLoc.start) {
      // bash-parser takes any all-digit word before a redirect as its fd (`nc host 4444 > f`);
      // bash only when it touches the operator. Here it is an ordinary word.
      if (owner) owner.words.push(word(ctx, f, n.numberIo));
      ctx.repairs.add('io-number-word');
      if (loc) loc = { start: opLoc.start, end: loc.end };
    } else if (n.numberIo.text !== undefined && /^\d+$/.test(n.numberIo.text)) fd = Number(n.numberIo.text);
  }
  let span = loc ? spanOf(f, loc.start, loc.end) : { start: 0, end: ctx.source.length };
  if (opLoc && fd === null && ctx.ampRedirects.has(f.g(opLoc.start))) {
    op = '&' + op;
    span = { start: span.start - 1, end: span.end };
    ctx.repairs.add('amp-redirect');
  }
  const target = n.file ? word(ctx, f, n.file) : { type: 'Word' as const, parts: [], raw: '', span: { start: span.end, end: span.end } };
  return { type: 'Redirect', op, fd, target, heredoc: null, span };
}

/** bash-parser keeps only the `<<` token of a heredoc; the rest comes from the pre-pass. */
function heredoc(ctx: ConvertContext, f: Frame, n: BPNode): Redirect | null {
  const loc = local(f, n);
  if (!loc) throw new ParseFailure('heredoc without location');
  let fd: number | null = null;
  let opAt = f.g(loc.start);
  if (n.type === 'io_number') {
    fd = Number(n.text);
    opAt = f.g(loc.end - 1) + 1;
  }
  const h = ctx.heredocs.get(opAt);
  if (!h) throw new ParseFailure('heredoc not found by the pre-pass');
  ctx.repairs.add('heredoc');
  const srcFrame = makeFrame(ctx.source, (i) => i);
  const delimRaw = ctx.source.slice(h.delimStart, h.delimEnd);
  const target: Word = {
    type: 'Word',
    // As shellgate's own converter does: the delimiter is kept as written.
    parts: splitUnquoted(delimRaw, h.delimStart, false),
    raw: delimRaw,
    span: { start: h.delimStart, end: h.delimEnd },
  };
  const bodyText = ctx.source.slice(h.bodyStart, h.bodyEnd);
  const bodySpan = { start: h.bodyStart, end: h.bodyEnd };
  const body: Word = h.quoted
    ? { type: 'Word', parts: [{ type: 'SingleQuoted', value: bodyText, span: bodySpan }], raw: bodyText, span: bodySpan }
    : { type: 'Word', parts: scanDouble(ctx, srcFrame, h.bodyStart, h.bodyEnd, true), raw: bodyText, span: bodySpan };
  const start = fd === null ? opAt : f.g(loc.start);
  return {
    type: 'Redirect',
    op: h.op,
    fd,
    target,
    heredoc: { quoted: h.quoted, body },
    span: { start, end: h.delimEnd },
  };
}
