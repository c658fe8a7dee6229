/**
 * The character level of the parser: where the reader stands in the text, bash's character
 * classes, blanks and comments, operators, and the two ways a parse stops early (a syntax error,
 * nesting too deep). Everything above it (words.ts, commands.ts) reads through this class.
 *
 * Offsets are UTF-16 code units of the source, like every span in the AST. Backslash-newline
 * pairs are already gone (index.ts joins them first, where bash removes them).
 */
import type { Span } from '../ast.js';
import type { ParseIssue } from '../parse-result.js';
import type { Redirect } from '../ast.js';

/** Past this nesting of commands and substitutions the parse stops (fail closed, not a stack overflow). */
export const MAX_DEPTH = 200;
/** Issues reported per parse at most (the verdict asks after the first). */
const MAX_ISSUES = 20;

/**
 * bash rejects the text here (its `syntax error near unexpected token`, an unclosed quote…).
 * Not an Error: it is caught by the parser itself, and a stack trace per recovery costs more
 * than the parse.
 */
export class SyntaxFailure {
  constructor(
    readonly at: number,
    readonly what: string,
  ) {}
}

/** Nested deeper than MAX_DEPTH. */
export class TooDeep {}

/** A here-document whose body is read after the next newline token. */
export interface PendingHeredoc {
  redirect: Redirect;
  delimiter: string;
  stripTabs: boolean;
  quoted: boolean;
}

// Character codes, named.
export const TAB = 9;
export const NL = 10;
export const SPACE = 32;
export const BANG = 33;
export const DQUOTE = 34;
export const HASH = 35;
export const DOLLAR = 36;
export const AMP = 38;
export const SQUOTE = 39;
export const LPAREN = 40;
export const RPAREN = 41;
export const STAR = 42;
export const PLUS = 43;
export const MINUS = 45;
export const SEMI = 59;
export const LT = 60;
export const EQ = 61;
export const GT = 62;
export const QMARK = 63;
export const AT = 64;
export const LBRACKET = 91;
export const BACKSLASH = 92;
export const RBRACKET = 93;
export const BACKQUOTE = 96;
export const LBRACE = 123;
export const PIPE = 124;
export const RBRACE = 125;
export const TILDE = 126;

/** bash's metacharacters end a word: blank, newline, `| & ; ( ) < >`. */
export function isMeta(c: number): boolean {
  return c === SPACE || c === TAB || c === NL || c === PIPE || c === AMP || c === SEMI || c === LPAREN || c === RPAREN || c === LT || c === GT;
}

export function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

export function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57);
}

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export class Scanner {
  /** Where the reader stands. */
  i: number;
  /** Here-documents waiting for the next newline token. */
  heredocs: PendingHeredoc[] = [];
  /** Nesting of compound commands and substitutions. */
  depth: number;
  /** Inside `$(…)` or `${ …; }`: a here-document there may end at `DELIM)` (bash 5.2 takes it). */
  inSubstitution = 0;

  constructor(
    readonly s: string,
    from: number,
    /** The end of the text this reader may read (a here-document body or a `${…}` operand ends early). */
    readonly n: number,
    readonly issues: ParseIssue[],
    depth: number,
  ) {
    this.i = from;
    this.depth = depth;
  }

  code(at = this.i): number {
    return at < this.n ? this.s.charCodeAt(at) : -1;
  }

  atEnd(): boolean {
    return this.i >= this.n;
  }

  fail(what: string, at = this.i): never {
    throw new SyntaxFailure(at, what);
  }

  issue(kind: ParseIssue['kind'], span: Span, text: string): void {
    if (this.issues.length < MAX_ISSUES) this.issues.push({ kind, span, text: text.slice(0, 80) });
  }

  /** Read one level deeper: MAX_DEPTH bounds every kind of nesting, commands and substitutions alike. */
  nested<T>(read: () => T): T {
    if (++this.depth > MAX_DEPTH) {
      this.depth--;
      throw new TooDeep();
    }
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  /** Spaces and tabs. */
  skipBlanks(): void {
    let c = this.code();
    while (c === SPACE || c === TAB) c = this.code(++this.i);
  }

  /** Blanks, then a comment if one starts here (up to, not over, its newline). */
  skipBlanksAndComment(): void {
    this.skipBlanks();
    if (this.code() === HASH) {
      const nl = this.s.indexOf('\n', this.i);
      this.i = nl < 0 || nl > this.n ? this.n : nl;
    }
  }

  /**
   * Is the text at the reader the reserved word `word`, standing alone (followed by a
   * metacharacter or the end)? Reserved words count only where the grammar looks for them.
   */
  isWord(word: string): boolean {
    const end = this.i + word.length;
    if (end > this.n || !this.s.startsWith(word, this.i)) return false;
    const c = this.code(end);
    return c === -1 || isMeta(c);
  }

  /** The reserved word at the reader, or null. Allocates nothing: it runs before every command. */
  reservedAt(): string | null {
    const candidates = RESERVED_BY_FIRST.get(this.code());
    if (candidates === undefined) return null;
    for (const w of candidates) if (this.isWord(w)) return w;
    return null;
  }

  /**
   * The list or pipeline operator at the reader, or null: `;;&` `;;` `;&` `;` `&&` `&` `||`
   * `|&` `|` `(` `)` `\n`. `&>` and `&>>` are redirects, not `&`.
   */
  operatorAt(): string | null {
    const c = this.code();
    const d = this.code(this.i + 1);
    switch (c) {
      case SEMI:
        if (d === SEMI) return this.code(this.i + 2) === AMP ? ';;&' : ';;';
        return d === AMP ? ';&' : ';';
      case AMP:
        if (d === AMP) return '&&';
        return d === GT ? null : '&';
      case PIPE:
        if (d === PIPE) return '||';
        return d === AMP ? '|&' : '|';
      case LPAREN:
        return '(';
      case RPAREN:
        return ')';
      case NL:
        return '\n';
      default:
        return null;
    }
  }
}

// `]]` too: outside `[[` bash refuses it as a command word (`syntax error near unexpected token`).
const RESERVED = [
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'function',
  'time',
  '{',
  '}',
  '!',
  '[[',
  ']]',
  'coproc',
];
/** Reserved words by their first character's code. */
const RESERVED_BY_FIRST = new Map<number, string[]>();
for (const w of RESERVED) {
  const list = RESERVED_BY_FIRST.get(w.charCodeAt(0)) ?? [];
  list.push(w);
  RESERVED_BY_FIRST.set(w.charCodeAt(0), list);
}
