/**
 * What bash runs while it expands a piece of text: command substitutions (`$(…)`, backquotes,
 * bash 5.3's `${ cmd; }`), process substitutions, arithmetic (whose substitutions run) and
 * parameter expansions (whose operands hold more of the same). Read with bash's rules for the
 * place the text is in; tree-sitter-bash reads several of these places as plain words:
 *
 * - `${x:-`cmd`}`, `${x#<(cmd)}`, `${x/a/$(cmd)}`: every operand of `${…}` is expanded when the
 *   expansion is (bash manual, Shell Parameter Expansion), backquotes and `<(…)` included.
 * - Inside double quotes (and unquoted here-documents) the word of `${x:-w}`, `${x:=w}`,
 *   `${x:+w}` (and `-`, `=`, `+`) is expanded as double-quoted text: single quotes are literal,
 *   so `"${x:-'$(cmd)'}"` runs cmd (subst.c: parameter_brace_expand_rhs). `$'…'` there is decoded
 *   when the command is read and the result expanded (parse.y, extended_quote), so
 *   `"${x:-$'\x24(cmd)'}"` runs cmd too.
 * - `${x:?w}` expands w as unquoted text even inside double quotes (parameter_brace_expand_error),
 *   so `<(cmd)` runs there; pattern operands (`#`, `%`, `/`, `^`, `,`) keep their quotes
 *   (getpattern) and run process substitutions as well.
 * - Arithmetic text (`${x:1:w}`, subscripts, `$((…))`) is expanded as double-quoted text.
 *
 * Where a reading depends on a value shellgate does not know (whether x is set), every operand
 * is read: the strictest reading assumes it is expanded.
 */
import type { Span } from './ast.js';
import { decodeAnsiC } from './ansi-c.js';
import {
  isArithmetic,
  isFunsub,
  skipAnsiC,
  skipArithParens,
  skipBackquote,
  skipBrace,
  skipBracket,
  skipCommand,
  skipDouble,
  skipSingle,
  type ScanOptions,
} from './bash-scan.js';

/**
 * How quotes read in the text:
 * - `unquoted`: a word, a pattern operand, `${x:?w}`: quotes quote, `<(…)` runs;
 * - `double`: inside "…": single quotes are literal;
 * - `literal`: a here-document body or arithmetic text: quotes of either kind are literal, and
 *   `$'…'` is read both decoded and as it stands;
 * - `operand-in-double`: the word of `${x:-w}` (`:=`, `:+`, `-`, `=`, `+`) inside double quotes or
 *   a here-document: quotes are literal and `$'…'` is decoded, then expanded.
 */
export type ReadMode = 'unquoted' | 'double' | 'literal' | 'operand-in-double';

export type SiteKind = 'command' | 'backquote' | 'funsub' | 'process-in' | 'process-out' | 'arithmetic' | 'parameter' | 'decoded';

export interface Site {
  kind: SiteKind;
  /** The whole construct in the text read. */
  span: Span;
  /** Its inner text: the command text, the expression, the operand. */
  body: Span;
  /** `parameter`, `arithmetic`, `decoded`: what runs inside. */
  inner: Site[];
  /** `parameter`: the parameter's name. */
  name?: string;
  /** `decoded`: the decoded text of a `$'…'`; the spans of `inner` point into it. */
  text?: string;
}

export interface Reading {
  sites: Site[];
  /** Places where a construct does not close inside the text read: the reading is uncertain. */
  doubts: Span[];
}

/** Does the text of a `${…}` hold anything tree-sitter may have read as a plain word? */
export function braceMayHideSubstitutions(text: string): boolean {
  if (!text.startsWith('${')) return false;
  return isFunsub(text, 0) || !text.endsWith('}') || /[`'$<>]/.test(text.slice(2));
}

/** Every site in s[from, to) read in `mode`. */
export function readText(s: string, from: number, to: number, mode: ReadMode): Reading {
  const r: Reading = { sites: [], doubts: [] };
  readSites(s, from, to, mode, r.sites, r.doubts, { memo: new Map() });
  return r;
}

/**
 * The `${…}` at i (its `$`): where bash ends it and what runs inside. `inDouble`: the expansion
 * is inside double quotes or an unquoted here-document.
 */
export function readBrace(s: string, i: number, to: number, inDouble: boolean): { end: number; site: Site; doubts: Span[] } {
  const doubts: Span[] = [];
  const site = braceSite(s, i, to, inDouble, doubts, { memo: new Map() });
  return { end: site.span.end, site, doubts };
}

function braceSite(s: string, i: number, to: number, inDouble: boolean, doubts: Span[], o: ScanOptions): Site {
  if (isFunsub(s, i)) {
    // bash 5.2 rejects `${ cmd; }` when it expands it (nothing runs); bash 5.3 runs cmd in the
    // current shell. The strictest reading walks cmd (like a `$(…)`: what it changes in the shell
    // is not carried over to later commands).
    const close = skipCommand(s, i + 2, '}', to, o);
    const stop = close < 0 ? to : close;
    if (close < 0) doubts.push({ start: i, end: to });
    return { kind: 'funsub', span: { start: i, end: Math.min(to, stop + 1) }, body: { start: i + (s[i + 2] === '|' ? 3 : 2), end: stop }, inner: [] };
  }
  let end = skipBrace(s, i, to, o);
  if (end < 0) {
    doubts.push({ start: i, end: to });
    end = to;
  }
  const close = s[end - 1] === '}' ? end - 1 : end;
  const inner: Site[] = [];
  let j = i + 2;
  if ((s[j] === '#' || s[j] === '!') && j + 1 < close) j++;
  const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/.exec(s.slice(j, Math.min(close, j + 256)))?.[0] ?? '';
  j += name.length;
  if (s[j] === '[') {
    // A subscript is arithmetic (or, for an associative array, a word): its substitutions run.
    const k = subscriptEnd(s, j, close, o);
    readSites(s, j + 1, k, 'literal', inner, doubts, o);
    j = Math.min(close, k + 1);
  }
  let mode: ReadMode;
  const op = s[j];
  if (j >= close) mode = 'unquoted';
  else if (op === ':' && !'-=?+'.includes(s[j + 1]))
    mode = 'literal'; // ${x:offset:length}
  else if (op === '?' || (op === ':' && s[j + 1] === '?')) mode = 'unquoted';
  else if ('-=+'.includes(op) || op === ':') mode = inDouble ? 'operand-in-double' : 'unquoted';
  else mode = 'unquoted'; // # ## % %% / // ^ ^^ , ,, @ and anything bash rejects
  readSites(s, j, close, mode, inner, doubts, o);
  return { kind: 'parameter', span: { start: i, end }, body: { start: j, end: close }, inner, name };
}

/** The `]` closing a subscript opened at j (quotes and substitutions skipped), or `limit`. */
function subscriptEnd(s: string, j: number, limit: number, o: ScanOptions): number {
  let depth = 0;
  for (let k = j; k < limit; k++) {
    const c = s[k];
    if (c === '\\') k++;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return k;
    else if (c === "'") {
      const e = skipSingle(s, k, limit);
      if (e < 0) return limit;
      k = e - 1;
    } else if (c === '"') {
      const e = skipDouble(s, k, limit, o);
      if (e < 0) return limit;
      k = e - 1;
    } else if (c === '$' && (s[k + 1] === '(' || s[k + 1] === '{')) {
      const e = s[k + 1] === '(' ? skipCommand(s, k + 2, ')', limit, o) : skipBrace(s, k, limit, o);
      if (e < 0) return limit;
      k = s[k + 1] === '(' ? e : e - 1;
    }
  }
  return limit;
}

function readSites(s: string, from: number, to: number, mode: ReadMode, out: Site[], doubts: Span[], o: ScanOptions): void {
  let j = from;
  const unclosed = (at: number) => {
    doubts.push({ start: at, end: to });
    return to;
  };
  while (j < to) {
    const c = s[j];
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (c === "'" && mode === 'unquoted') {
      const k = skipSingle(s, j, to);
      j = k < 0 ? unclosed(j) : k;
      continue;
    }
    if (c === '"' && mode === 'unquoted') {
      const k = skipDouble(s, j, to, o);
      if (k < 0) {
        readSites(s, j + 1, to, 'double', out, doubts, o);
        j = unclosed(j);
      } else {
        readSites(s, j + 1, k - 1, 'double', out, doubts, o);
        j = k;
      }
      continue;
    }
    if (c === '`') {
      const k = skipBackquote(s, j, to, o);
      if (k < 0) {
        j = unclosed(j);
        continue;
      }
      out.push({ kind: 'backquote', span: { start: j, end: k }, body: { start: j + 1, end: k - 1 }, inner: [] });
      j = k;
      continue;
    }
    if ((c === '<' || c === '>') && s[j + 1] === '(' && mode === 'unquoted') {
      const close = skipCommand(s, j + 2, ')', to, o);
      if (close < 0) {
        j = unclosed(j);
        continue;
      }
      out.push({ kind: c === '<' ? 'process-in' : 'process-out', span: { start: j, end: close + 1 }, body: { start: j + 2, end: close }, inner: [] });
      j = close + 1;
      continue;
    }
    if (c !== '$') {
      j++;
      continue;
    }
    j = readDollarSite(s, j, to, mode, out, doubts, o, unclosed);
  }
}

/** A `$` at j: the site it opens, if any, goes to out; returns where reading goes on. */
function readDollarSite(
  s: string,
  j: number,
  to: number,
  mode: ReadMode,
  out: Site[],
  doubts: Span[],
  o: ScanOptions,
  unclosed: (at: number) => number,
): number {
  const next = s[j + 1];
  if (next === '(') {
    const arith = s[j + 2] === '(';
    const close = arith ? skipArithParens(s, j + 1, to, o) : skipCommand(s, j + 2, ')', to, o);
    if (close < 0) return unclosed(j);
    const span = { start: j, end: close + 1 };
    if (arith && isArithmetic(s, j + 1, to, o)) {
      const inner: Site[] = [];
      readSites(s, j + 3, close - 1, 'literal', inner, doubts, o);
      out.push({ kind: 'arithmetic', span, body: { start: j + 3, end: close - 1 }, inner });
    } else out.push({ kind: 'command', span, body: { start: j + 2, end: close }, inner: [] });
    return close + 1;
  }
  if (next === '{') {
    const site = braceSite(s, j, to, mode !== 'unquoted', doubts, o);
    out.push(site);
    return Math.max(j + 2, site.span.end);
  }
  if (next === '[') {
    const e = skipBracket(s, j + 1, to, o);
    if (e < 0) return unclosed(j);
    const inner: Site[] = [];
    readSites(s, j + 2, e - 1, 'literal', inner, doubts, o);
    out.push({ kind: 'arithmetic', span: { start: j, end: e }, body: { start: j + 2, end: e - 1 }, inner });
    return e;
  }
  if (next === "'" && mode === 'unquoted') {
    const k = skipAnsiC(s, j, to);
    return k < 0 ? unclosed(j) : k;
  }
  if (next === "'" && (mode === 'operand-in-double' || mode === 'literal')) {
    // Inside `${…}` and arithmetic, bash ≥ 4.3 decodes it while reading the command and expands
    // the result, where quotes are literal (`(( x = $'\x60cmd\x60' ))` runs cmd); older
    // versions (or `shopt -u extquote`) leave it as literal text that is expanded as it stands.
    // Both readings: the decoded text here, the literal text by reading on. (In a here-document
    // body it stays literal: reading the decoded text there too only ever adds.)
    const k = skipAnsiC(s, j, to);
    if (k > 0) {
      const text = decodeAnsiC(s.slice(j, k));
      if (text !== s.slice(j + 2, k - 1)) {
        const inner: Site[] = [];
        readSites(text, 0, text.length, mode, inner, [], { memo: new Map() });
        if (inner.length > 0) out.push({ kind: 'decoded', span: { start: j, end: k }, body: { start: j + 2, end: k - 1 }, inner, text });
      }
    }
    return j + 1;
  }
  if (next === '"' && mode === 'unquoted') {
    const k = skipDouble(s, j + 1, to, o);
    if (k < 0) return unclosed(j);
    readSites(s, j + 2, k - 1, 'double', out, doubts, o);
    return k;
  }
  return j + 1;
}
