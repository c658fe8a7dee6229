/**
 * Proves a Perl one-liner only reads and prints by matching it, whole, against a closed grammar.
 * Perl cannot be parsed without running it (whether `/` after a name is a division or a regex
 * depends on what the name was declared as at run time: `time /1;system 1;#/`), so there is no
 * general prover: only the forms below, in which every `/` sits where perl's lexer can only read it
 * one way, are proven; anything else is not.
 *
 *   program   := statement (';' statement)* ';'?     (no ';' needed after a block)
 *   statement := 'print' args? modifier? | 'printf' args modifier? | 'next' modifier? | 'local $/'
 *              | 'chomp' | number
 *              | 'my'? scalar '=' expr modifier?
 *              | scalar ('=' | '+=' | '-=' | '*=' | '.=') expr modifier? | scalar '++' modifier?
 *              | 's/RE/REPLACEMENT/[gimsx]*' | ('tr' | 'y') '/CHARS/CHARS/[cds]*'
 *              | ('BEGIN' | 'END') '{' program '}'
 *   modifier  := ('if' | 'unless') cond
 *   cond      := atom (('and' | 'or' | '&&' | '||') atom)*
 *   atom      := match | '!' match | term ('=~' | '!~') match | term (== != < > <= >= eq ne lt gt le ge) term
 *   match     := 'm'? '/RE/[gimsx]*'
 *   args      := expr (',' expr)*       expr := term (('+' | '-' | '*' | '/' | '%' | '.') term)*
 *   term      := scalar ('->{' name '}' | '->[' digits ']')* | '$F[' -?digits ']' | number | '…' | "…"
 *              | '(' expr ')' | function '(@F)' | 'decode_json(<STDIN>)'
 *   scalar    := '$' name | '$_' | '$.' | '$&' | '$1'…'$9'
 *
 * Regexes and double-quoted strings are checked against a strict whitelist of characters, so that no
 * interpolation of code (`@{[ … ]}`, `${\ … }`, `$h{…}`), no code block (`(?{ … })`) and no `e` flag
 * can appear. `print $x /2/` (where perl takes `$x` for a filehandle and `/2/` for a pattern) is
 * refused: after `print` and a variable and a space, an operator must be followed by a space.
 * A `function` is one of List::Util's that a `-MList::Util=…` loaded (`print sum(@F)`);
 * `decode_json` needs `-MJSON::PP`.
 */
import { notProven, ProofBuilder, type Proof } from './proof.js';

/**
 * Modules a one-liner may load with `-M` (core modules that run no code of the workspace), with the
 * functions the grammar may call on `@F`.
 */
export const PERL_MODULES: Readonly<Record<string, readonly string[]>> = {
  strict: [],
  warnings: [],
  utf8: [],
  feature: [],
  'List::Util': ['sum', 'sum0', 'max', 'min', 'maxstr', 'minstr'],
  'Scalar::Util': [],
  'JSON::PP': ['decode_json'],
  'Data::Dumper': [],
  'MIME::Base64': [],
  'Digest::MD5': [],
};

/** Proves `code` (the modules loaded by `-M` are already checked against PERL_MODULES). */
export function provePerl(code: string, modules: readonly string[] = []): Proof {
  // A line that starts with `=` may open POD, which perl skips as a comment.
  if (/\n\s*=/.test(code)) return notProven('a line that starts with `=` (POD)');
  const p = new Grammar(code, new Set(modules.flatMap((m) => PERL_MODULES[m] ?? [])));
  return p.program() && p.end() ? new ProofBuilder().done() : notProven('the Perl code is not one of the forms proven (print, match, substitute, sum)');
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
/** A scalar variable; the character after it must not make it an element, a package name or a call. */
const SCALAR = /^\$(?:[A-Za-z_][A-Za-z0-9_]*|[1-9]|\.|&)(?![A-Za-z0-9_[{:'(])/;
const NUMBER = /^[0-9]+(?:\.[0-9]+)?(?![A-Za-z0-9_.])/;
const FIELD = /^\$F\[-?[0-9]+\]/;
const SINGLE_QUOTED = /^'(?:[^'\\]|\\[\\'])*'/;
/** Plain characters of a double-quoted string or a replacement: no `@ $ \ { } [ ] " ' \``. */
const PLAIN = String.raw`A-Za-z0-9 \t,.:;=+*%#!?<>|&^~()/_-`;
const INTERPOLATED = String.raw`\$(?:[A-Za-z_][A-Za-z0-9_]*|[1-9]|\.|&)(?![A-Za-z0-9_:'])`;
const DOUBLE_QUOTED = new RegExp(String.raw`^"(?:[${PLAIN}]|\\[nt\\"$@]|${INTERPOLATED})*"`);
/** A replacement of s///: a double-quoted string without its quotes, `/` escaped. */
const REPLACEMENT = new RegExp(String.raw`^(?:[${PLAIN.replace('/', '')}]|\\[nt\\/$@1-9]|${INTERPOLATED})*$`);
/**
 * A regex: literal characters, escapes of classes and punctuation, backreferences, groups (of the
 * `(?…)` forms only `(?:` and lookarounds), quantifiers, classes; `$` only as an anchor. No `@`,
 * `$name`, `(?{`, `\N{…}`, `\p{…}`.
 */
const REGEX = new RegExp(
  String.raw`^(?:[A-Za-z0-9 \t,;:=!%#&~<>'"_.^*+?|\[\]-]|\((?!\?)|\(\?(?:[:=!]|<[=!])|\)|\{[0-9]+(?:,[0-9]*)?\}|\$(?=$|[)|])|\\[dDwWsSbBAzZntr1-9\\/.^$*+?()[\]{}|\- #'"])*$`,
);
const TRANSLITERATION = /^(?:[A-Za-z0-9 _.,:;-]|\\[nt\\/-])*$/;

class Grammar {
  private i = 0;
  constructor(
    private readonly code: string,
    private readonly functions: ReadonlySet<string>,
  ) {}

  end(): boolean {
    this.space();
    return this.i === this.code.length;
  }

  program(): boolean {
    if (!this.statement()) return false;
    for (;;) {
      const at = this.i;
      // A block (`BEGIN { … }`) ends its statement without a `;`.
      if (!this.token(';') && this.code[at - 1] !== '}') return true;
      this.space();
      if (this.i === this.code.length || this.code[this.i] === '}') return true;
      if (!this.statement()) {
        this.i = at;
        return false;
      }
    }
  }

  private statement(): boolean {
    this.space();
    if (this.word('BEGIN') || this.word('END')) return this.token('{') && this.program() && this.token('}');
    if (this.substitution() || this.transliteration()) return true;
    if (this.word('printf')) return this.args() && this.modifier();
    if (this.word('print')) {
      const at = this.i;
      if (!this.args()) this.i = at; // `print` alone prints `$_`
      return this.modifier();
    }
    if (this.word('next')) return this.modifier();
    if (this.word('chomp') || this.match(NUMBER)) return true;
    // `local $/`: read the whole input as one record.
    if (this.word('local')) return this.token('$/') && !/^[A-Za-z0-9_]/.test(this.code.slice(this.i));
    if (this.word('my')) {
      this.space();
      return this.match(SCALAR) && this.assign() && this.expr() && this.modifier();
    }
    if (this.match(SCALAR)) {
      if (this.token('++')) return this.modifier();
      return (this.token('+=') || this.token('-=') || this.token('*=') || this.token('.=') || this.assign()) && this.expr() && this.modifier();
    }
    return false;
  }

  /** `=` alone (not `==`, `=~`). */
  private assign(): boolean {
    this.space();
    if (this.code[this.i] === '=' && !'=~'.includes(this.code[this.i + 1] ?? '')) return ++this.i > 0;
    return false;
  }

  private modifier(): boolean {
    if (!(this.word('if') || this.word('unless'))) return true;
    if (!this.atom()) return false;
    while (this.word('and') || this.word('or') || this.token('&&') || this.token('||')) if (!this.atom()) return false;
    return true;
  }

  private atom(): boolean {
    this.space();
    if (this.token('!')) return this.pattern();
    if (this.pattern()) return true;
    if (!this.term()) return false;
    if (this.token('=~') || this.token('!~')) return this.pattern();
    for (const op of ['==', '!=', '<=', '>=', '<', '>']) if (this.token(op)) return this.term();
    for (const op of ['eq', 'ne', 'lt', 'gt', 'le', 'ge']) if (this.word(op)) return this.term();
    return false;
  }

  /** `print`'s and `printf`'s arguments: a variable then a space is where perl may see a filehandle. */
  private args(): boolean {
    this.space();
    const start = this.i;
    if (!this.term()) return false;
    const handle = SCALAR.test(this.code.slice(start)) && /^\s/.test(this.code[this.i] ?? '');
    if (!this.operations(handle)) return false;
    while (this.token(',')) if (!this.expr()) return false;
    return true;
  }

  private expr(): boolean {
    return this.term() && this.operations(false);
  }

  /** `(op term)*`; after a possible filehandle, each operator must be followed by a space. */
  private operations(afterHandle: boolean): boolean {
    for (;;) {
      const at = this.i;
      this.space();
      const op = this.code[this.i];
      if (op === undefined || !'+-*/%.'.includes(op) || '=~'.includes(this.code[this.i + 1] ?? '') || (op === '+' && this.code[this.i + 1] === '+')) {
        this.i = at;
        return true;
      }
      if (afterHandle && !/^\s/.test(this.code[this.i + 1] ?? '')) return false;
      this.i++;
      if (!this.term()) return false;
    }
  }

  private term(): boolean {
    this.space();
    if (this.token('(')) return this.expr() && this.token(')');
    const call = /^([a-z0-9_]+)\((?:@F|<STDIN>)\)/.exec(this.code.slice(this.i));
    if (call !== null && this.functions.has(call[1]) && call[0].includes('<') === (call[1] === 'decode_json')) return this.match(/^[a-z0-9_]+\([^)]*\)/);
    if (this.match(SCALAR)) return this.match(/^(?:->(?:\{[A-Za-z_][A-Za-z0-9_]*\}|\[[0-9]+\]))*(?![[{])/) && !this.code.startsWith('->', this.i);
    return this.match(FIELD) || this.match(NUMBER) || this.match(SINGLE_QUOTED) || this.match(DOUBLE_QUOTED);
  }

  /** `/RE/flags` or `m/RE/flags`: the regex ends at the first unescaped `/`, as perl finds it. */
  private pattern(): boolean {
    this.space();
    const at = this.i;
    if (this.code.startsWith('m/', this.i)) this.i++;
    if (this.code[this.i] !== '/') return false;
    const re = this.delimited();
    if (re === null || !REGEX.test(re) || !this.flags('gimsx')) {
      this.i = at;
      return false;
    }
    return true;
  }

  private substitution(): boolean {
    const at = this.i;
    if (!this.code.startsWith('s/', this.i)) return false;
    this.i++;
    const re = this.delimited();
    this.i--;
    const replacement = re === null ? null : this.delimited();
    if (re !== null && replacement !== null && REGEX.test(re) && REPLACEMENT.test(replacement) && this.flags('gimsx')) return true;
    this.i = at;
    return false;
  }

  private transliteration(): boolean {
    const at = this.i;
    const m = /^(?:tr|y)\//.exec(this.code.slice(this.i));
    if (m === null) return false;
    this.i += m[0].length - 1;
    const from = this.delimited();
    this.i--;
    const to = from === null ? null : this.delimited();
    if (from !== null && to !== null && TRANSLITERATION.test(from) && TRANSLITERATION.test(to) && this.flags('cds')) return true;
    this.i = at;
    return false;
  }

  /** At a `/`: the text up to the next unescaped `/`, leaving the position after it; null when there is none. */
  private delimited(): string | null {
    const start = ++this.i;
    for (; this.i < this.code.length; this.i++) {
      if (this.code[this.i] === '\\') this.i++;
      else if (this.code[this.i] === '/') return this.code.slice(start, this.i++);
    }
    return null;
  }

  /** Flags among `allowed`, then no letter or digit (`/x/e`, `s/a/b/ee` stop here). */
  private flags(allowed: string): boolean {
    while (this.i < this.code.length && allowed.includes(this.code[this.i])) this.i++;
    return !/[A-Za-z0-9_]/.test(this.code[this.i] ?? '');
  }

  private space(): void {
    while (this.i < this.code.length && ' \t\n'.includes(this.code[this.i])) this.i++;
  }

  private token(t: string): boolean {
    this.space();
    if (!this.code.startsWith(t, this.i)) return false;
    this.i += t.length;
    return true;
  }

  /** A keyword: the word and no more letters after it. */
  private word(w: string): boolean {
    this.space();
    const m = NAME.exec(this.code.slice(this.i));
    if (m === null || m[0] !== w) return false;
    this.i += w.length;
    return true;
  }

  private match(re: RegExp): boolean {
    const m = re.exec(this.code.slice(this.i));
    if (m === null) return false;
    this.i += m[0].length;
    return true;
  }
}
