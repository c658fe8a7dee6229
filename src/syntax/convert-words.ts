/**
 * tree-sitter word-ish nodes → our Word / WordPart. Every substitution inside a word is kept (it
 * runs), whatever node it hides in: when a node type is not modelled, its substitutions are still
 * collected, so nothing that executes is lost.
 */
import type { TSNode } from './ts-node.js';
import type { Span, Word, WordPart, Script } from './ast.js';
import { backquotePieces, needsBackquoteReading } from './backquotes.js';

/** Callback into the command converter (command substitutions contain statements). */
export type ConvertBody = (nodes: TSNode[], span: Span) => Script;

export interface WordContext {
  source: string;
  convertBody: ConvertBody;
  /** Parse text as a script of its own, spans shifted by `offset` (backquote bodies). */
  parseText?: (text: string, offset: number) => Script;
}

export function spanOf(n: TSNode): Span {
  return { start: n.startIndex, end: n.endIndex };
}

/** The node's children, as a list the caller may change. */
export function childrenOf(n: TSNode): TSNode[] {
  return n.children.slice();
}

export function convertWord(n: TSNode, ctx: WordContext): Word {
  return { type: 'Word', parts: wordParts(n, ctx, true), raw: n.text, span: spanOf(n) };
}

/** Build a Word from several sibling nodes written one after another (a heredoc body, say). */
export function wordFromParts(parts: WordPart[], raw: string, span: Span): Word {
  return { type: 'Word', parts, raw, span };
}

function wordParts(n: TSNode, ctx: WordContext, atStart: boolean): WordPart[] {
  switch (n.type) {
    case 'word':
    case 'number':
    case 'variable_name':
    case 'test_operator':
    case 'file_descriptor':
    case 'heredoc_start':
      if (n.namedChildCount > 0) return concatenation(n, ctx, atStart);
      return splitUnquoted(n.text, n.startIndex, atStart);
    case 'concatenation':
      return concatenation(n, ctx, atStart);
    case 'raw_string':
      return [{ type: 'SingleQuoted', value: n.text.slice(1, -1), span: spanOf(n) }];
    case 'ansi_c_string':
      return [{ type: 'AnsiC', raw: n.text, span: spanOf(n) }];
    case 'string':
      return [{ type: 'DoubleQuoted', parts: quotedParts(n, ctx), span: spanOf(n) }];
    case 'translated_string': {
      const inner = n.namedChild(0);
      return inner ? wordParts(inner, ctx, false) : [];
    }
    case 'simple_expansion':
    case 'expansion':
      return [paramExp(n, ctx)];
    case 'command_substitution':
      if (ctx.parseText && needsBackquoteReading(n.text)) return backquoteParts(n, ctx);
      return [
        {
          type: 'CmdSubst',
          backtick: n.text.startsWith('`'),
          body: ctx.convertBody(childrenOf(n), spanOf(n)),
          span: spanOf(n),
        },
      ];
    case 'process_substitution':
      return [
        {
          type: 'ProcSubst',
          direction: n.text.startsWith('>') ? '>' : '<',
          body: ctx.convertBody(childrenOf(n), spanOf(n)),
          span: spanOf(n),
        },
      ];
    case 'arithmetic_expansion':
      return [{ type: 'ArithExp', raw: n.text, inner: collectSubstitutions(n, ctx), span: spanOf(n) }];
    case 'brace_expression':
      return [{ type: 'Brace', raw: n.text, span: spanOf(n) }];
    case 'extglob_pattern':
    case 'regex':
      return [{ type: 'Glob', raw: n.text, span: spanOf(n) }];
    default:
      // Not a modelled word node (test expressions, arrays…): keep its text as data but make it
      // dynamic if anything inside could run or expand.
      return opaque(n, ctx);
  }
}

/** Backquotes read as bash reads them (see backquotes.ts). */
function backquoteParts(n: TSNode, ctx: WordContext): WordPart[] {
  const pieces = backquotePieces(n.text, n.startIndex);
  if (!pieces) return [{ type: 'CmdSubst', backtick: true, body: ctx.convertBody(childrenOf(n), spanOf(n)), span: spanOf(n) }];
  return pieces.map((p): WordPart =>
    p.kind === 'text'
      ? { type: 'Literal', raw: p.text, span: p.span }
      : { type: 'CmdSubst', backtick: true, body: ctx.parseText!(p.text, p.span.start + 1), span: p.span },
  );
}

function opaque(n: TSNode, ctx: WordContext): WordPart[] {
  const inner = collectSubstitutions(n, ctx);
  if (inner.length === 0 && n.namedChildCount === 0) return splitUnquoted(n.text, n.startIndex, false);
  return [{ type: 'ArithExp', raw: n.text, inner, span: spanOf(n) }];
}

/** Parts of a concatenation, with adjacent unquoted pieces merged so `a{b,c}` is one brace. */
function concatenation(n: TSNode, ctx: WordContext, atStart: boolean): WordPart[] {
  const out: WordPart[] = [];
  let pendingText = '';
  let pendingStart = -1;
  let first = atStart;
  const flush = () => {
    if (pendingStart >= 0) {
      out.push(...splitUnquoted(pendingText, pendingStart, first && out.length === 0));
      pendingText = '';
      pendingStart = -1;
    }
  };
  let cursor = n.startIndex;
  for (const c of childrenOf(n)) {
    const unquoted = c.type === 'word' && c.namedChildCount === 0;
    // Text tree-sitter left between children (rare) is unquoted literal text too.
    const gap = c.startIndex > cursor ? ctx.source.slice(cursor, c.startIndex) : '';
    if (gap) {
      if (pendingStart < 0) pendingStart = cursor;
      pendingText += gap;
    }
    if (unquoted || !c.isNamed) {
      if (pendingStart < 0) pendingStart = c.startIndex;
      pendingText += c.text;
    } else {
      flush();
      out.push(...wordParts(c, ctx, first && out.length === 0));
    }
    cursor = c.endIndex;
    if (out.length > 0) first = false;
  }
  if (cursor < n.endIndex) {
    if (pendingStart < 0) pendingStart = cursor;
    pendingText += ctx.source.slice(cursor, n.endIndex);
  }
  flush();
  return out;
}

/** Inside double quotes (or an unquoted heredoc body): literal text and expansions. */
export function quotedParts(n: TSNode, ctx: WordContext): WordPart[] {
  const out: WordPart[] = [];
  const inner = n.type === 'string' ? { start: n.startIndex + 1, end: n.endIndex - 1 } : spanOf(n);
  let cursor = inner.start;
  const text = (from: number, to: number) => {
    if (to > from) out.push({ type: 'Literal', raw: ctx.source.slice(from, to), span: { start: from, end: to } });
  };
  for (const c of childrenOf(n)) {
    if (!c.isNamed || c.type === 'string_content' || c.type === 'heredoc_content') continue;
    if (c.startIndex < cursor) continue;
    text(cursor, c.startIndex);
    out.push(...wordParts(c, ctx, false));
    cursor = c.endIndex;
  }
  text(cursor, Math.max(cursor, inner.end));
  return out;
}

function paramExp(n: TSNode, ctx: WordContext): WordPart {
  let name = '';
  const inner: WordPart[] = [];
  for (const c of childrenOf(n)) {
    if (!c.isNamed) continue;
    if (!name && (c.type === 'variable_name' || c.type === 'special_variable_name')) name = c.text;
    else if (!name && c.type === 'subscript') {
      name = c.childForFieldName('name')?.text ?? c.text;
      inner.push(...collectSubstitutions(c, ctx));
    } else inner.push(...wordParts(c, ctx, false));
  }
  const text = n.text;
  if (!name) {
    // `$1`, `$@`, `$$` come through as text only in some positions.
    const m = /^\$\{?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/.exec(text);
    name = m ? m[1] : '';
  }
  const plain = text === `$${name}` || text === `\${${name}}`;
  return { type: 'ParamExp', name, plain, inner, raw: text, span: spanOf(n) };
}

/** Every substitution or expansion below a node, in source order. */
export function collectSubstitutions(n: TSNode, ctx: WordContext): WordPart[] {
  const out: WordPart[] = [];
  const visit = (x: TSNode) => {
    for (const c of childrenOf(x)) {
      if (
        c.type === 'command_substitution' ||
        c.type === 'process_substitution' ||
        c.type === 'simple_expansion' ||
        c.type === 'expansion'
      ) {
        out.push(...wordParts(c, ctx, false));
      } else if (c.namedChildCount > 0) visit(c);
    }
  };
  visit(n);
  return out;
}

/**
 * Split unquoted literal text into Literal, Glob, Brace and Tilde parts. Backslash-escaped
 * characters stay literal; the backslashes are removed later, in expand/.
 */
export function splitUnquoted(raw: string, offset: number, atStart: boolean): WordPart[] {
  const out: WordPart[] = [];
  let lit = '';
  let litStart = 0;
  const flushLit = (i: number) => {
    if (lit) out.push({ type: 'Literal', raw: lit, span: { start: offset + litStart, end: offset + i } });
    lit = '';
  };
  let i = 0;
  if (atStart && raw.startsWith('~')) {
    let j = 1;
    while (j < raw.length && /[A-Za-z0-9._-]/.test(raw[j])) j++;
    if (j === raw.length || raw[j] === '/' || raw[j] === ':') {
      out.push({ type: 'Tilde', user: raw.slice(1, j), span: { start: offset, end: offset + j } });
      i = j;
    }
  }
  litStart = i;
  while (i < raw.length) {
    const ch = raw[i];
    if (ch === '\\' && i + 1 < raw.length) {
      if (!lit) litStart = i;
      lit += raw.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (ch === '*' || ch === '?' || ch === '[') {
      const end = ch === '[' ? bracketEnd(raw, i) : i + 1;
      if (end > i) {
        flushLit(i);
        out.push({ type: 'Glob', raw: raw.slice(i, end), span: { start: offset + i, end: offset + end } });
        i = end;
        litStart = i;
        continue;
      }
    }
    if (ch === '{') {
      const end = braceEnd(raw, i);
      if (end > i) {
        flushLit(i);
        out.push({ type: 'Brace', raw: raw.slice(i, end), span: { start: offset + i, end: offset + end } });
        i = end;
        litStart = i;
        continue;
      }
    }
    if (!lit) litStart = i;
    lit += ch;
    i++;
  }
  flushLit(i);
  return out;
}

function bracketEnd(raw: string, i: number): number {
  let j = i + 1;
  if (raw[j] === '!' || raw[j] === '^') j++;
  if (raw[j] === ']') j++;
  for (; j < raw.length; j++) {
    if (raw[j] === '\\') j++;
    else if (raw[j] === ']') return j + 1;
  }
  return i; // no closing bracket: a literal '['
}

/** End of a brace expression starting at i, or i when it is not one (`{}`, `{a}`, `${`). */
function braceEnd(raw: string, i: number): number {
  let depth = 0;
  let comma = false;
  for (let j = i; j < raw.length; j++) {
    const ch = raw[j];
    if (ch === '\\') {
      j++;
      continue;
    }
    if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) {
        const body = raw.slice(i + 1, j);
        if (comma || /^(-?\d+\.\.-?\d+|[A-Za-z]\.\.[A-Za-z])(\.\.-?\d+)?$/.test(body)) return j + 1;
        return i;
      }
    } else if (ch === ',' && depth === 1) comma = true;
  }
  return i;
}
