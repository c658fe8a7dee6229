/**
 * tree-sitter word-ish nodes → our Word / WordPart. Every substitution inside a word is kept (it
 * runs), whatever node it hides in: when a node type is not modelled, its substitutions are still
 * collected, so nothing that executes is lost.
 */
import type { TSNode } from './ts-node.js';
import type { Span, Word, WordPart, Script } from '../ast.js';
import { backquotePieces, needsBackquoteReading } from '../backquotes.js';
import { skipAnsiC } from '../bash-scan.js';
import { ansiCRepair, type Repair, type Reread } from './repairs.js';
import { splitUnquoted } from '../unquoted.js';
import { siteParts, SAME } from '../site-parts.js';
import { braceMayHideSubstitutions, readBrace, readText, type Site } from '../word-sites.js';

/** Callback into the command converter (command substitutions contain statements). */
export type ConvertBody = (nodes: TSNode[], span: Span) => Script;

export interface WordContext {
  /** The original text (tree-sitter may have read a masked copy of it, see repairs.ts). */
  source: string;
  convertBody: ConvertBody;
  /**
   * Parse text as a script of its own (backquote bodies, substitutions tree-sitter did not see):
   * spans shifted by `offset`, or mapped by it.
   */
  parseText?: (text: string, offset: number | ((i: number) => number)) => Script;
  /** Report a place where bash's reading is uncertain (`doubt`) or an error. */
  issue?: (span: Span, text: string, kind: 'doubt' | 'error') => void;
  /** Ask for the text to be parsed again with a span masked (see repairs.ts). */
  repair?: (r: Repair) => void;
  /** Constructs read again from the original text, by start offset. */
  rereads?: ReadonlyMap<number, Reread>;
  /**
   * Above 0 while converting the inside of a construct that is read again as a whole (a `${…}`,
   * an arithmetic text, a here-document body): the outer reading covers what is nested, so it is
   * not read again (which would cost the square of the nesting). A substitution body resets it.
   */
  covered?: number;
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
      checkAnsiCEnd(n, ctx);
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
    case 'command_substitution': {
      const reread = ctx.rereads?.get(n.startIndex);
      if (reread && reread.end === n.endIndex && ctx.parseText) {
        return [
          { type: 'CmdSubst', backtick: false, body: ctx.parseText(ctx.source.slice(reread.body.start, reread.body.end), reread.body.start), span: spanOf(n) },
        ];
      }
      if (ctx.parseText && needsBackquoteReading(n.text)) return backquoteParts(n, ctx);
      return [
        {
          type: 'CmdSubst',
          backtick: n.text.startsWith('`'),
          body: ctx.convertBody(childrenOf(n), spanOf(n)),
          span: spanOf(n),
        },
      ];
    }
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
      return [{ type: 'ArithExp', raw: n.text, inner: arithmeticSubstitutions(n, ctx, n.startIndex + 2, n.endIndex - 1), span: spanOf(n) }];
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
  if (n.type === 'ERROR' && n.text.startsWith('${') && ctx.parseText && !ctx.covered) {
    // A `${…}` tree-sitter could not parse (`"${y:1:'$(cmd)'}"`): bash's reading of it.
    const reading = readBrace(ctx.source, n.startIndex, ctx.source.length, inDoubleQuotes(n));
    if (reading.end === n.endIndex) {
      const inner = siteParts(reading.site.kind === 'funsub' ? [reading.site] : reading.site.inner, ctx.source, SAME, ctx.parseText);
      return [{ type: 'ParamExp', name: reading.site.name ?? '', plain: false, inner, raw: n.text, span: spanOf(n) }];
    }
  }
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

/**
 * An unquoted here-document body: expanded like double-quoted text, but tree-sitter-bash sees
 * neither backquotes nor (after `<<-` and a tab) every `$(…)` in it. Read it again with bash's
 * rules (word-sites.ts) and add what tree-sitter missed.
 */
export function heredocParts(n: TSNode, ctx: WordContext): WordPart[] {
  const reads = !!ctx.parseText && !ctx.covered && /[$`]/.test(n.text);
  const parts = reads ? covering(ctx, () => quotedParts(n, ctx)) : quotedParts(n, ctx);
  if (!reads) return parts;
  const reading = readText(ctx.source, n.startIndex, n.endIndex, 'literal');
  reportDoubts(reading.doubts, ctx);
  return [...parts, ...siteParts(missedSites(reading.sites, parts), ctx.source, SAME, ctx.parseText!)];
}

/** Run `f` with nested readings switched off (the caller reads the whole construct). */
function covering<T>(ctx: WordContext, f: () => T): T {
  ctx.covered = (ctx.covered ?? 0) + 1;
  try {
    return f();
  } finally {
    ctx.covered--;
  }
}

function reportDoubts(doubts: Span[], ctx: WordContext): void {
  for (const d of doubts) ctx.issue?.(d, ctx.source.slice(d.start, Math.min(d.end, d.start + 80)), 'doubt');
}

function paramExp(n: TSNode, ctx: WordContext): WordPart {
  const text = n.text;
  const reads = !!ctx.parseText && !ctx.covered && braceMayHideSubstitutions(text);
  const { name, inner } = reads ? covering(ctx, () => paramParts(n, ctx)) : paramParts(n, ctx);
  const plain = text === `$${name}` || text === `\${${name}}`;
  if (reads && !plain) inner.push(...braceReading(n, ctx, inner));
  return { type: 'ParamExp', name, plain, inner, raw: text, span: spanOf(n) };
}

/** tree-sitter's reading of a parameter expansion: its name and the parts of its operands. */
function paramParts(n: TSNode, ctx: WordContext): { name: string; inner: WordPart[] } {
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
  if (!name) {
    // `$1`, `$@`, `$$` come through as text only in some positions.
    const m = /^\$\{?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/.exec(n.text);
    name = m ? m[1] : '';
  }
  return { name, inner };
}

/**
 * tree-sitter-bash reads the operands of `${…}` as plain words or patterns: a backquote, a
 * `<(…)`, a `$(…)` in a `#`/`%`/`/` pattern or between single quotes inside double quotes is
 * data for it, and code for bash (word-sites.ts). Read the expansion again with bash's rules and
 * return what runs that tree-sitter did not see. Where bash would end the expansion elsewhere
 * than tree-sitter, the reading is uncertain: reported as a doubt (ask), never trusted to allow.
 */
function braceReading(n: TSNode, ctx: WordContext, seen: WordPart[]): WordPart[] {
  const reading = readBrace(ctx.source, n.startIndex, ctx.source.length, inDoubleQuotes(n));
  if (reading.end !== n.endIndex) ctx.issue?.(spanOf(n), n.text.slice(0, 80), 'doubt');
  reportDoubts(reading.doubts, ctx);
  const sites = reading.site.kind === 'funsub' ? [reading.site] : reading.site.inner;
  return siteParts(missedSites(sites, seen), ctx.source, SAME, ctx.parseText!);
}

/**
 * The sites of a reading that tree-sitter's parts do not hold, flattened: an expansion or an
 * arithmetic text tree-sitter missed comes without its inner sites, which are listed themselves.
 */
function missedSites(sites: Site[], parts: WordPart[]): Site[] {
  // What tree-sitter holds at each span. A command or process substitution's body was read on its
  // own (a new command context); expansions and arithmetic nested in a read construct were not.
  const known = new Map<string, WordPart['type']>();
  const collect = (ps: WordPart[]) => {
    for (const p of ps) {
      if (p.type === 'CmdSubst' || p.type === 'ProcSubst') known.set(`${p.span.start}:${p.span.end}`, p.type);
      else if (p.type === 'ParamExp' || p.type === 'ArithExp') {
        known.set(`${p.span.start}:${p.span.end}`, p.type);
        collect(p.inner);
      } else if (p.type === 'DoubleQuoted') collect(p.parts);
    }
  };
  collect(parts);
  const out: Site[] = [];
  const visit = (ss: Site[]) => {
    for (const site of ss) {
      const held = known.get(`${site.span.start}:${site.span.end}`);
      if (site.kind === 'parameter' || site.kind === 'arithmetic') {
        if (held === undefined) out.push({ ...site, inner: [] });
        if (held !== 'CmdSubst' && held !== 'ProcSubst') visit(site.inner);
      } else if (site.kind === 'decoded' || held === undefined) out.push(site);
    }
  };
  visit(sites);
  return out;
}

/** Is the node inside double quotes or an unquoted here-document body (nearer than any substitution)? */
function inDoubleQuotes(n: TSNode): boolean {
  for (let p = n.parent; p !== null; p = p.parent) {
    switch (p.type) {
      case 'string':
      case 'translated_string':
      case 'heredoc_body':
        return true;
      case 'command_substitution':
      case 'process_substitution':
      case 'program':
        return false;
    }
  }
  return false;
}

/**
 * `$'…'` ends at the first quote no backslash escapes (`$'a\\'` ends after the second
 * backslash). tree-sitter-bash reads `\'` as an escaped quote and runs on, hiding whatever
 * follows inside the string: ask for the text to be read again with the string masked.
 */
function checkAnsiCEnd(n: TSNode, ctx: WordContext): void {
  const end = skipAnsiC(ctx.source, n.startIndex);
  if (end === n.endIndex) return;
  if (end < 0) ctx.issue?.(spanOf(n), "an unterminated `$'…'`", 'error');
  else ctx.repair?.(ansiCRepair(n.startIndex, end));
}

/**
 * The substitutions of an arithmetic text, s[from, to) of the source: bash expands it as
 * double-quoted text, so quotes inside are literal and `$(( '$(cmd)' ))`, `y['$(cmd)']=1` run cmd
 * (subst.c: expand_arith_string). tree-sitter reads the quoted part as a string: read the text
 * again and add what it missed.
 */
export function arithmeticSubstitutions(n: TSNode, ctx: WordContext, from: number, to: number): WordPart[] {
  const reads = !!ctx.parseText && !ctx.covered && to > from && /['"`\\]/.test(ctx.source.slice(from, to));
  const parts = reads ? covering(ctx, () => collectSubstitutions(n, ctx)) : collectSubstitutions(n, ctx);
  if (!reads) return parts;
  const reading = readText(ctx.source, from, to, 'literal');
  return [...parts, ...siteParts(missedSites(reading.sites, parts), ctx.source, SAME, ctx.parseText!)];
}

/** Every substitution or expansion below a node, in source order. */
export function collectSubstitutions(n: TSNode, ctx: WordContext): WordPart[] {
  const out: WordPart[] = [];
  const visit = (x: TSNode) => {
    for (const c of childrenOf(x)) {
      if (c.type === 'command_substitution' || c.type === 'process_substitution' || c.type === 'simple_expansion' || c.type === 'expansion') {
        out.push(...wordParts(c, ctx, false));
      } else if (c.namedChildCount > 0) visit(c);
    }
  };
  visit(n);
  return out;
}
