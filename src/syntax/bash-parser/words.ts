/**
 * Words: bash-parser's `text` has had quotes removed (and not reliably: `x#y` comes back as `x`),
 * so each word is re-scanned from its source slice into parts: Literal, SingleQuoted,
 * DoubleQuoted, AnsiC, ParamExp, CmdSubst, ProcSubst, ArithExp (and Glob/Brace/Tilde via
 * shellgate's own splitUnquoted). The body of a `$(…)` or backquote substitution is parsed with
 * bash-parser again (its own nested tree carries no locations).
 */
import type { Script, Span, Word, WordPart } from '../ast.js';
import { splitUnquoted } from '../unquoted.js';
import type { ConvertContext } from './context.js';
import { local, makeFrame, spanOf, type Frame } from './frame.js';
import { ansiEnd, arithEnd, backtickEnd, braceEnd, dqEnd, parenEnd } from './scan-ends.js';
import { ParseFailure, type BPNode } from './tree.js';

/** A word node of bash-parser, re-scanned from its source slice. */
export function word(ctx: ConvertContext, f: Frame, n: BPNode): Word {
  const loc = local(f, n);
  if (!loc) throw new ParseFailure('word without location');
  return {
    type: 'Word',
    parts: scanUnquoted(ctx, f, loc.start, loc.end, true),
    raw: f.text.slice(loc.start, loc.end),
    span: spanOf(f, loc.start, loc.end),
  };
}

/** `export A=~/x`: bash expands a tilde after the `=` of an assignment-like argument. */
export function declarationWord(ctx: ConvertContext, f: Frame, n: BPNode): Word {
  const w = word(ctx, f, n);
  const m = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.exec(w.raw);
  if (!m) return w;
  const loc = local(f, n)!;
  const at = loc.start + m[0].length;
  const parts: WordPart[] = [{ type: 'Literal', raw: m[0], span: spanOf(f, loc.start, at) }, ...scanUnquoted(ctx, f, at, loc.end, true)];
  return { ...w, parts };
}

/** Parts of unquoted text in [a, b) of the frame. */
export function scanUnquoted(ctx: ConvertContext, f: Frame, a: number, b: number, atStart: boolean): WordPart[] {
  const t = f.text;
  const out: WordPart[] = [];
  let runStart = -1;
  const flush = (i: number) => {
    if (runStart >= 0 && i > runStart) out.push(...unquotedRun(f, runStart, i, atStart && out.length === 0 && runStart === a));
    runStart = -1;
  };
  let i = a;
  while (i < b) {
    const c = t[i];
    if (c === '\\') {
      if (runStart < 0) runStart = i;
      i = Math.min(i + 2, b);
      continue;
    }
    if (c === "'") {
      flush(i);
      const j = t.indexOf("'", i + 1);
      const end = j < 0 || j >= b ? b : j + 1;
      out.push({ type: 'SingleQuoted', value: t.slice(i + 1, Math.max(i + 1, end - 1)), span: spanOf(f, i, end) });
      i = end;
      continue;
    }
    if (c === '"') {
      flush(i);
      const end = Math.min(dqEnd(t, i, b), b);
      out.push({ type: 'DoubleQuoted', parts: scanDouble(ctx, f, i + 1, Math.max(i + 1, end - 1), false), span: spanOf(f, i, end) });
      i = end;
      continue;
    }
    if (c === '$' && t[i + 1] === "'") {
      flush(i);
      const end = Math.min(ansiEnd(t, i + 1, b), b);
      out.push({ type: 'AnsiC', raw: t.slice(i, end), span: spanOf(f, i, end) });
      i = end;
      continue;
    }
    if (c === '$' && t[i + 1] === '"') {
      flush(i);
      const end = Math.min(dqEnd(t, i + 1, b), b);
      out.push({ type: 'DoubleQuoted', parts: scanDouble(ctx, f, i + 2, Math.max(i + 2, end - 1), false), span: spanOf(f, i + 1, end) });
      i = end;
      continue;
    }
    if ((c === '<' || c === '>') && t[i + 1] === '(') {
      flush(i);
      const end = Math.min(parenEnd(t, i + 1, b), b);
      out.push({
        type: 'ProcSubst',
        direction: c,
        body: nested(ctx, f, i + 2, Math.max(i + 2, end - 1), spanOf(f, i, end)),
        span: spanOf(f, i, end),
      });
      i = end;
      continue;
    }
    const exp = c === '$' || c === '`' ? expansion(ctx, f, i, b, false) : null;
    if (exp) {
      flush(i);
      out.push(exp.part);
      i = exp.end;
      continue;
    }
    if (runStart < 0) runStart = i;
    i++;
  }
  flush(b);
  return out;
}

function unquotedRun(f: Frame, a: number, b: number, atStart: boolean): WordPart[] {
  const parts = splitUnquoted(f.text.slice(a, b), 0, atStart);
  // Spans: splitUnquoted counts from 0; place them in the source.
  return parts.map((p) => ({ ...p, span: spanOf(f, a + p.span.start, a + p.span.end) }));
}

/** Inside double quotes (or an unquoted heredoc body, where `"` is literal). */
export function scanDouble(ctx: ConvertContext, f: Frame, a: number, b: number, heredoc: boolean): WordPart[] {
  const t = f.text;
  const out: WordPart[] = [];
  let litStart = a;
  const flush = (i: number) => {
    if (i > litStart) out.push({ type: 'Literal', raw: t.slice(litStart, i), span: spanOf(f, litStart, i) });
  };
  let i = a;
  while (i < b) {
    const c = t[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    const exp = c === '$' || c === '`' ? expansion(ctx, f, i, b, !heredoc) : null;
    if (exp) {
      flush(i);
      out.push(exp.part);
      i = exp.end;
      litStart = i;
      continue;
    }
    i++;
  }
  flush(Math.min(i, b));
  return out;
}

/** `$…` or a backquote at i: the part and the index after it, or null for a literal `$`. */
function expansion(ctx: ConvertContext, f: Frame, i: number, b: number, inDq: boolean): { part: WordPart; end: number } | null {
  const t = f.text;
  if (t[i] === '`') {
    const end = Math.min(backtickEnd(t, i, b), b);
    return {
      part: { type: 'CmdSubst', backtick: true, body: backtickBody(ctx, f, i + 1, Math.max(i + 1, end - 1), inDq, spanOf(f, i, end)), span: spanOf(f, i, end) },
      end,
    };
  }
  const n = t[i + 1];
  if (n === '(') {
    if (t[i + 2] === '(') {
      const end = arithEnd(t, i, b);
      if (end > 0) {
        const span = spanOf(f, i, end);
        return { part: { type: 'ArithExp', raw: t.slice(i, end), inner: scanUnquoted(ctx, f, i + 3, end - 2, false).filter(isExpansion), span }, end };
      }
    }
    const end = Math.min(parenEnd(t, i + 1, b), b);
    const span = spanOf(f, i, end);
    return { part: { type: 'CmdSubst', backtick: false, body: nested(ctx, f, i + 2, Math.max(i + 2, end - 1), span), span }, end };
  }
  if (n === '{') {
    const end = Math.min(braceEnd(t, i, b), b);
    const raw = t.slice(i, end);
    const content = raw.slice(2, raw.endsWith('}') ? -1 : undefined);
    const m = /^[#!]([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])/.exec(content) ?? /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/.exec(content);
    const name = m ? m[1] : '';
    const restAt = i + 2 + (m ? m[0].length : 0);
    const inner = scanUnquoted(ctx, f, restAt, Math.max(restAt, end - 1), false);
    return {
      part: { type: 'ParamExp', name, plain: raw === `\${${name}}`, inner, raw, span: spanOf(f, i, end) },
      end,
    };
  }
  const m = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-])/.exec(t.slice(i + 1, Math.min(b, i + 200)));
  if (!m) return null;
  const end = i + 1 + m[0].length;
  return { part: { type: 'ParamExp', name: m[0], plain: true, inner: [], raw: t.slice(i, end), span: spanOf(f, i, end) }, end };
}

/** A `$(…)` or `<(…)` body: parsed by bash-parser on its own. */
function nested(ctx: ConvertContext, f: Frame, a: number, b: number, span: Span): Script {
  const text = f.text.slice(a, b);
  return ctx.parseFrame(
    makeFrame(text, (i) => f.g(a + i)),
    span,
  );
}

/** A backquote body: `\$`, `` \` ``, `\\` (and `\"` inside double quotes) lose the backslash. */
function backtickBody(ctx: ConvertContext, f: Frame, a: number, b: number, inDq: boolean, span: Span): Script {
  const t = f.text;
  let text = '';
  const map: number[] = [];
  for (let i = a; i < b; i++) {
    if (t[i] === '\\' && i + 1 < b && (t[i + 1] === '$' || t[i + 1] === '`' || t[i + 1] === '\\' || (inDq && t[i + 1] === '"'))) i++;
    text += t[i];
    map.push(i);
  }
  map.push(b);
  return ctx.parseFrame(
    makeFrame(text, (i) => f.g(map[Math.min(i, map.length - 1)])),
    span,
  );
}

/** Parts that substitute or expand: all that is kept of an arithmetic or subscript text. */
export function isExpansion(p: WordPart): boolean {
  return p.type === 'CmdSubst' || p.type === 'ProcSubst' || p.type === 'ParamExp' || p.type === 'ArithExp';
}
