/**
 * Words, read as bash's lexer reads them (parse.y: read_token_word, parse_matched_pair,
 * parse_comsub; subst.c for what runs inside `${…}`): unquoted text, `'…'`, `"…"`, `$'…'`,
 * `$"…"`, `$x`, `${…}`, `$(…)`, `$((…))`, `$[…]`, backquotes, `<(…)` `>(…)`, extglob patterns,
 * and here-document bodies. Command substitutions are parsed by the grammar itself as they are
 * met (commands.ts), so nesting costs no second scan.
 */
import type { DoubleQuoted, Script, Span, Word, WordPart } from '../ast.js';
import { isArithmetic, isFunsub, skipAnsiC, skipArithParens, skipBackquote, skipBracket } from '../bash-scan.js';
import { readBrace, readText } from '../word-sites.js';
import { siteParts, SAME, type ParseText } from '../site-parts.js';
import { unescapeBackquoteBody } from '../backquotes.js';
import { splitUnquoted } from '../unquoted.js';
import {
  AT,
  BACKQUOTE,
  BACKSLASH,
  BANG,
  DOLLAR,
  DQUOTE,
  GT,
  isMeta,
  isNameChar,
  isNameStart,
  LBRACE,
  LBRACKET,
  LPAREN,
  LT,
  MINUS,
  PIPE,
  PLUS,
  QMARK,
  RPAREN,
  Scanner,
  SPACE,
  SQUOTE,
  STAR,
  TAB,
  HASH,
  TILDE,
} from './scanner.js';

/** How a word reads its metacharacters: `regex` is the right side of `=~` in `[[ ]]`. */
export type WordMode = 'normal' | 'regex';

/** The empty list every node without parts of a kind shares (nothing changes an AST once built). */
export const NONE: never[] = Object.freeze([]) as never[];

export abstract class WordReader extends Scanner {
  /** Parse a command list from the reader up to its closing `)` or `}` (left at the reader). */
  protected abstract substitutionBody(close: ')' | '}'): Script;
  /** Parse another text (a backquote body, decoded text) as a script, its spans moved into ours. */
  protected abstract parseText: ParseText;
  /** A reader over s[from, to) of the same source, sharing issues and depth. */
  protected abstract subReader(from: number, to: number): WordReader;

  /** The word at the reader, or null when a metacharacter (or the end) is here. */
  readWord(mode: WordMode = 'normal'): Word | null {
    const s = this.s;
    const start = this.i;
    const parts: WordPart[] = [];
    let run = -1; // start of pending unquoted text
    let plain = true; // the pending text has nothing splitUnquoted would cut (glob, brace, tilde)
    let parens = 0; // regex mode: unquoted parentheses are part of the word
    while (this.i < this.n) {
      const c = s.charCodeAt(this.i);
      if (isMeta(c)) {
        const next = this.code(this.i + 1);
        if ((c === LT || c === GT) && next === LPAREN) {
          if (run >= 0) run = this.flushRun(parts, run, start, plain);
          parts.push(this.processSubstitution());
          continue;
        }
        if (mode === 'regex' && (c === LPAREN || (c === RPAREN && parens > 0) || c === PIPE || ((c === SPACE || c === TAB) && parens > 0))) {
          if (c === LPAREN) parens++;
          else if (c === RPAREN) parens--;
          if (run < 0) run = this.i;
          this.i++;
          continue;
        }
        break;
      }
      let part: WordPart | null = null;
      switch (c) {
        case BACKSLASH:
          if (run < 0) {
            run = this.i;
            plain = true;
          }
          this.i = Math.min(this.n, this.i + 2);
          continue;
        case SQUOTE:
        case DQUOTE:
        case BACKQUOTE:
          if (run >= 0) run = this.flushRun(parts, run, start, plain);
          if (c === SQUOTE) part = this.singleQuoted();
          else if (c === DQUOTE) part = this.doubleQuoted(this.i);
          else part = this.backquote();
          break;
        case DOLLAR:
          if (this.expansionFollows(false)) {
            if (run >= 0) run = this.flushRun(parts, run, start, plain);
            part = this.dollar(false);
          }
          break;
        case QMARK:
        case STAR:
        case PLUS:
        case AT:
        case BANG:
          if (this.code(this.i + 1) === LPAREN) {
            if (run >= 0) run = this.flushRun(parts, run, start, plain);
            part = this.extglob();
          }
          break;
      }
      if (part !== null) {
        parts.push(part);
        continue;
      }
      if (run < 0) {
        run = this.i;
        plain = true;
      }
      if (c === STAR || c === QMARK || c === LBRACKET || c === LBRACE || c === TILDE) plain = false;
      this.i++;
    }
    if (run >= 0) this.flushRun(parts, run, start, plain);
    if (this.i === start) return null;
    const only = parts.length === 1 ? parts[0] : null;
    if (only !== null && only.type === 'Literal' && only.span.start === start) {
      // The common word, one plain literal: it shares its text and span (a 1 MB command is
      // hundreds of thousands of words, and allocation is most of its parse).
      return { type: 'Word', parts, raw: only.raw, span: only.span };
    }
    return { type: 'Word', parts, raw: s.slice(start, this.i), span: { start, end: this.i } };
  }

  /**
   * An extglob pattern (`?(…)`, `*(…)`, `+(…)`, `@(…)`, `!(…)`) at the reader, read whole as bash
   * does when extglob may be on (the strictest reading: with it off, bash rejects the line and runs
   * nothing).
   */
  private extglob(): WordPart {
    const at = this.i;
    const close = skipArithParens(this.s, at + 1, this.n);
    if (close < 0) this.fail('an unclosed extglob pattern');
    this.i = close + 1;
    return { type: 'Glob', raw: this.s.slice(at, close + 1), span: { start: at, end: close + 1 } };
  }

  /** Unquoted text s[run, reader) as parts; returns -1 (no pending text). */
  private flushRun(parts: WordPart[], run: number, wordStart: number, plain: boolean): number {
    if (plain) parts.push({ type: 'Literal', raw: this.s.slice(run, this.i), span: { start: run, end: this.i } });
    else for (const p of splitUnquoted(this.s.slice(run, this.i), run, run === wordStart)) parts.push(p);
    return -1;
  }

  /** Does the `$` at the reader start an expansion (else it is a literal `$`)? */
  protected expansionFollows(inDouble: boolean): boolean {
    const c = this.code(this.i + 1);
    if (c === LPAREN || c === LBRACE || c === LBRACKET || isNameChar(c)) return true;
    if (c === SQUOTE || c === DQUOTE) return !inDouble;
    // Special parameters: $@ $* $# $? $- $$ $!
    return c === AT || c === STAR || c === HASH || c === QMARK || c === MINUS || c === DOLLAR || c === BANG;
  }

  private singleQuoted(): WordPart {
    const start = this.i;
    let close = this.s.indexOf("'", start + 1);
    if (close < 0 || close >= this.n) close = this.unterminated('a single quote', start);
    this.i = Math.min(this.n, close + 1);
    return { type: 'SingleQuoted', value: this.s.slice(start + 1, close), span: { start, end: this.i } };
  }

  /**
   * A quote bash never sees closed: bash rejects the text and runs nothing. The plausible reading
   * that matters is the one with the quote closed at the end (what the author meant, and what an
   * agent retries): the word runs to the end of the text, and the error is reported. Returns
   * where the text ends.
   */
  private unterminated(what: string, at: number): number {
    this.issue('error', { start: at, end: Math.min(this.n, at + 80) }, `${what} is never closed: ${this.s.slice(at, at + 60)}`);
    return this.n;
  }

  /** `"…"` opened at the reader; `spanStart` is where the part begins (the `$` of `$"…"`). */
  private doubleQuoted(spanStart: number): DoubleQuoted {
    this.i++;
    const parts = this.quotedParts(false);
    if (this.code() === DQUOTE) this.i++;
    else this.unterminated('a double quote', spanStart);
    return { type: 'DoubleQuoted', parts, span: { start: spanStart, end: this.i } };
  }

  /**
   * Text read as inside double quotes, up to the closing `"` (left at the reader) or, for a
   * here-document body, to the end of the reader: literal text (backslashes kept; expand/
   * removes them) and the expansions that run.
   */
  quotedParts(heredoc: boolean): WordPart[] {
    const s = this.s;
    const parts: WordPart[] = [];
    let lit = this.i;
    const flush = () => {
      if (this.i > lit) parts.push({ type: 'Literal', raw: s.slice(lit, this.i), span: { start: lit, end: this.i } });
    };
    while (this.i < this.n) {
      const c = s.charCodeAt(this.i);
      if (c === DQUOTE && !heredoc) break;
      if (c === BACKSLASH) {
        this.i = Math.min(this.n, this.i + 2);
        continue;
      }
      if ((c === DOLLAR && this.expansionFollows(true)) || c === BACKQUOTE) {
        flush();
        parts.push(c === DOLLAR ? this.dollar(true) : this.backquote());
        lit = this.i;
        continue;
      }
      this.i++;
    }
    flush();
    return parts;
  }

  /** An expansion at the `$` at the reader. */
  private dollar(inDouble: boolean): WordPart {
    const s = this.s;
    const start = this.i;
    const c = this.code(start + 1);
    if (c === LPAREN) {
      if (this.code(start + 2) === LPAREN && isArithmetic(s, start + 1, this.n)) {
        const close = skipArithParens(s, start + 2, this.n);
        this.i = close + 2;
        return { type: 'ArithExp', raw: s.slice(start, this.i), inner: this.sitesIn(start + 3, close), span: { start, end: this.i } };
      }
      this.i = start + 2;
      const body = this.substitutionBody(')');
      this.i++;
      return { type: 'CmdSubst', backtick: false, body, span: { start, end: this.i } };
    }
    if (c === LBRACE) {
      if (isFunsub(s, start)) {
        // bash 5.3's `${ cmd; }` / `${| cmd; }`: cmd runs in the current shell.
        this.i = start + (this.code(start + 2) === PIPE ? 3 : 2);
        const body = this.substitutionBody('}');
        this.i++;
        return { type: 'CmdSubst', backtick: false, body, span: { start, end: this.i } };
      }
      return this.braceExpansion(inDouble);
    }
    if (c === LBRACKET) {
      const end = skipBracket(s, start + 1, this.n);
      if (end < 0) this.fail('an unclosed `$[`', start);
      this.i = end;
      return { type: 'ArithExp', raw: s.slice(start, end), inner: this.sitesIn(start + 2, end - 1), span: { start, end } };
    }
    if (c === SQUOTE) {
      const end = skipAnsiC(s, start, this.n);
      if (end < 0) this.fail("an unterminated `$'`", start);
      this.i = end;
      return { type: 'AnsiC', raw: s.slice(start, end), span: { start, end } };
    }
    if (c === DQUOTE) {
      this.i = start + 1;
      return this.doubleQuoted(start + 1);
    }
    let end = start + 2;
    if (isNameStart(c)) while (end < this.n && isNameChar(s.charCodeAt(end))) end++;
    this.i = end;
    const raw = s.slice(start, end);
    return { type: 'ParamExp', name: raw.slice(1), plain: true, inner: NONE, raw, span: { start, end } };
  }

  /** `${…}`: where bash ends it and what runs in its operands (word-sites.ts holds the rules). */
  private braceExpansion(inDouble: boolean): WordPart {
    const start = this.i;
    const reading = readBrace(this.s, start, this.n, inDouble);
    if (reading.doubts.length > 0 || this.s.charCodeAt(reading.end - 1) !== 125) this.fail('an unclosed `${`', start);
    const raw = this.s.slice(start, reading.end);
    const name = reading.site.name ?? '';
    this.i = reading.end;
    const inner = siteParts(reading.site.inner, this.s, SAME, this.parseText);
    return { type: 'ParamExp', name, plain: raw === `\${${name}}`, inner, raw, span: { start, end: reading.end } };
  }

  /** What runs in arithmetic text s[from, to): bash expands it as double-quoted text. */
  protected sitesIn(from: number, to: number): WordPart[] {
    if (to <= from) return [];
    // Most arithmetic holds nothing that runs: skip the reading then.
    let any = false;
    for (let j = from; j < to && !any; j++) {
      const c = this.s.charCodeAt(j);
      any = c === DOLLAR || c === BACKQUOTE || c === LT || c === GT;
    }
    return any ? siteParts(readText(this.s, from, to, 'literal').sites, this.s, SAME, this.parseText) : [];
  }

  /**
   * A backquote substitution: bash ends it at the next unescaped backquote and, inside, drops
   * the backslash before `$`, `` ` `` and `\`; the result is parsed as a script of its own.
   */
  private backquote(): WordPart {
    const start = this.i;
    let end = skipBackquote(this.s, start, this.n);
    const closed = end >= 0;
    if (!closed) end = this.unterminated('a backquote', start);
    this.i = end;
    const body = this.parseText(unescapeBackquoteBody(this.s.slice(start + 1, closed ? end - 1 : end)), start + 1);
    return { type: 'CmdSubst', backtick: true, body, span: { start, end } };
  }

  private processSubstitution(): WordPart {
    const start = this.i;
    const direction = this.s[start] === '<' ? '<' : '>';
    this.i = start + 2;
    const body = this.substitutionBody(')');
    this.i++;
    return { type: 'ProcSubst', direction, body, span: { start, end: this.i } };
  }

  /**
   * The bodies of the pending here-documents, read after the newline token just consumed (bash
   * reads them line by line: each ends at a line equal to its delimiter, after leading tabs for
   * `<<-`; at the end of the text, bash warns and takes what there is).
   */
  protected readHeredocBodies(): void {
    const pending = this.heredocs;
    this.heredocs = [];
    const s = this.s;
    for (const h of pending) {
      const start = this.i;
      let j = start;
      let bodyEnd = this.n;
      let next = this.n;
      while (j < this.n) {
        let nl = s.indexOf('\n', j);
        if (nl < 0 || nl > this.n) nl = this.n;
        let k = j;
        if (h.stripTabs) while (k < nl && s.charCodeAt(k) === TAB) k++;
        if (nl - k === h.delimiter.length && s.startsWith(h.delimiter, k)) {
          bodyEnd = j;
          next = Math.min(this.n, nl + 1);
          break;
        }
        if (this.inSubstitution > 0 && s.charCodeAt(k + h.delimiter.length) === RPAREN && s.startsWith(h.delimiter, k)) {
          // `$(cat <<EOF⏎…⏎EOF)`: bash ends the body at the delimiter and the `)` closes the
          // substitution (it warns, and runs it).
          bodyEnd = j;
          next = k + h.delimiter.length;
          break;
        }
        j = nl + 1;
      }
      const span: Span = { start, end: bodyEnd };
      const text = s.slice(start, bodyEnd);
      const parts: WordPart[] = h.quoted ? [{ type: 'SingleQuoted', value: text, span }] : this.subReader(start, bodyEnd).quotedParts(true);
      h.redirect.heredoc = { quoted: h.quoted, body: { type: 'Word', parts, raw: text, span } };
      this.i = next;
    }
  }
}

/** The delimiter bash compares body lines with: the word with its quotes removed. */
export function heredocDelimiter(raw: string): string {
  let out = '';
  for (let j = 0; j < raw.length; j++) {
    const c = raw[j];
    if (c === '\\') out += raw[++j] ?? '';
    else if (c === "'" || c === '"') {
      const close = raw.indexOf(c, j + 1);
      const stop = close < 0 ? raw.length : close;
      out += raw.slice(j + 1, stop);
      j = stop;
    } else if (c === '$' && (raw[j + 1] === "'" || raw[j + 1] === '"')) continue;
    else out += c;
  }
  return out;
}
