/**
 * bash's grammar (parse.y), by recursive descent: lists and their operators, pipelines with `!`
 * and `time`, simple commands (assignments, words, redirects in any order), and every compound
 * command: `( )`, `{ }`, if, while/until, for/select (both list forms and C style), case,
 * `[[ ]]`, `(( ))`, functions (both syntaxes) and coproc. Reserved words count only where the
 * grammar looks for them (a command's first word, `in` after `for NAME` and `case WORD`), as in
 * bash. Lists are loops, not recursion: a 75,000-stage pipeline costs no stack.
 */
import type { Assignment, Command, CaseItem, IfClause, List, ListOp, Redirect, Script, SimpleCommand, Span, Word, WordPart } from '../ast.js';
import type { ParseIssue } from '../parse-result.js';
import { isArithmetic, skipArithParens, skipBracket } from '../bash-scan.js';
import { readText } from '../word-sites.js';
import { siteParts, SAME, type ParseText } from '../site-parts.js';
import { mapSpans, movedSpan } from '../spans.js';
import {
  AMP,
  EQ,
  GT,
  isDigit,
  isMeta,
  isNameChar,
  isNameStart,
  LBRACE,
  LBRACKET,
  LPAREN,
  LT,
  NL,
  PIPE,
  PLUS,
  RBRACE,
  RPAREN,
  SEMI,
  SyntaxFailure,
  TooDeep,
} from './scanner.js';
import { heredocDelimiter, NONE, WordReader } from './words.js';

/** What ends a list: reserved words, `)` and the case terminators (`;;` for all three). */
type Stops = ReadonlySet<string>;
const NO_STOPS: Stops = new Set();
const PAREN: Stops = new Set([')']);
const BRACE: Stops = new Set(['}']);
/** The `}` closing bash 5.3's `${ cmd; }` ends it wherever it stands in a command position, even glued to text (`"${ cmd; }"`). */
const FUNSUB: Stops = new Set(['}', '}…']);
const THEN: Stops = new Set(['then']);
const ELSE: Stops = new Set(['elif', 'else', 'fi']);
const FI: Stops = new Set(['fi']);
const DO: Stops = new Set(['do']);
const DONE: Stops = new Set(['done']);
const CASE_ITEM: Stops = new Set([';;', 'esac']);

/** Builtins whose `NAME=(…)` arguments bash parses as array assignments. */
const DECLARATIONS = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);
/** Reserved words that open a compound command. */
const COMPOUND = new Set(['if', 'while', 'until', 'for', 'select', 'case', '{', '[[']);
/** Syntax errors recovered from in one text before the rest is given up as one `Unparsed` node. */
const MAX_RECOVERIES = 50;
/** Binary string operators of `[[ ]]`. */
const TEST_BINARY = new Set(['=', '==', '!=', '=~', '<', '>']);
/** Arithmetic and file comparisons of `[[ ]]`: kept as words (the walker reads `-eq` & co.). */
const ARITH_TEST = /^-(eq|ne|lt|le|gt|ge|nt|ot|ef)$/;
/** Unary tests of `[[ ]]` (bash's test_unop). */
const UNARY_TEST = /^-[abcdefghkprstuwxGLNORSovnz]$/;

export class CommandParser extends WordReader {
  /** Syntax errors recovered from so far. */
  private recoveries = 0;

  static parse(s: string, from: number, to: number, issues: ParseIssue[], depth = 0): Script {
    return new CommandParser(s, from, to, issues, depth).script();
  }

  protected subReader(from: number, to: number): CommandParser {
    return new CommandParser(this.s, from, to, this.issues, this.depth);
  }

  protected parseText: ParseText = (text, offset) => {
    if (typeof offset === 'number' && this.s.startsWith(text, offset) && offset + text.length <= this.n) {
      // Text of our own source: parse it in place, spans need no moving.
      return this.nested(() => this.subReader(offset, offset + text.length).script());
    }
    const issues: ParseIssue[] = [];
    const script = this.nested(() => new CommandParser(text, 0, text.length, issues, this.depth).script());
    const limit = this.s.length;
    const f = typeof offset === 'number' ? (i: number) => Math.min(limit, i + offset) : (i: number) => Math.min(limit, offset(i));
    mapSpans(script, f);
    for (const is of issues) this.issue(is.kind, movedSpan(is.span, f), is.text);
    return script;
  };

  /**
   * The whole text. A syntax error is recovered from in the list it occurs in (listInto); past
   * MAX_RECOVERIES errors, or nested too deep, the rest of the text is one `Unparsed` node.
   */
  script(): Script {
    const start = this.i;
    const items: Command[] = [];
    const operators: (ListOp | null)[] = [];
    try {
      this.listInto(items, operators, NO_STOPS);
    } catch (e) {
      if (!(e instanceof SyntaxFailure) && !(e instanceof TooDeep)) throw e;
      const from = Math.min(this.n, Math.max(start, items.length > 0 ? items[items.length - 1].span.end : start));
      this.issue(
        'error',
        { start: from, end: Math.min(this.n, from + 80) },
        e instanceof SyntaxFailure ? `${e.what}: ${this.s.slice(from, from + 60)}` : `nested too deep: ${this.s.slice(from, from + 60)}`,
      );
      items.push(this.unparsed(from, this.n, e instanceof TooDeep ? 'too-deep' : 'error'));
      operators.push(null);
      this.i = this.n;
    }
    const span = { start, end: this.n };
    return { type: 'Script', body: { type: 'List', items, operators, redirects: [], span }, span };
  }

  /**
   * A syntax error in a statement of a list: the statement, up to and including the token bash
   * stopped at, becomes an `Unparsed` node (its substitutions still analysed) and the list goes
   * on after that token, so what follows is still read (`a &; rm -rf /` hides nothing). A token
   * that closes this list (`}`, `done`…) is left for it.
   */
  private recover(e: SyntaxFailure, from: number, items: Command[], operators: (ListOp | null)[], stops: Stops): void {
    const at = Math.max(from, Math.min(e.at, this.n));
    this.i = at;
    const closes = this.atStop(stops);
    const end = closes ? at : this.tokenEnd(at);
    this.issue('error', { start: at, end: Math.max(at, Math.min(end, at + 80)) }, `${e.what}: ${this.s.slice(from, Math.min(end, from + 60))}`);
    this.heredocs = [];
    this.i = end;
    if (end === from) return;
    items.push(this.unparsed(from, end, 'error'));
    operators.push('\n');
  }

  /** The end of the token at `at` (an operator, a reserved word, a word, else one character). */
  private tokenEnd(at: number): number {
    if (at >= this.n) return this.n;
    this.i = at;
    const op = this.operatorAt();
    if (op !== null) return at + op.length;
    const r = this.reservedAt();
    if (r !== null) return at + r.length;
    const c = this.code();
    if (c === 32 || c === 9 || c === LT || c === GT || c === AMP) return at + 1;
    try {
      const w = this.readWord();
      return w === null ? at + 1 : w.span.end;
    } catch {
      return at + 1;
    }
  }

  private unparsed(from: number, to: number, reason: 'error' | 'too-deep'): Command {
    const span = { start: from, end: to };
    let inner: WordPart[] = [];
    if (reason === 'error') {
      // What bash would still run inside the broken text (its substitutions) is analysed.
      try {
        inner = siteParts(readText(this.s, from, to, 'unquoted').sites, this.s, SAME, this.parseText);
      } catch {
        inner = [];
      }
    }
    return { type: 'Unparsed', reason, raw: this.s.slice(from, to), inner, redirects: [], span };
  }

  /** Blanks, comments and newlines (with the here-document bodies they start). */
  private skipSpace(): void {
    for (;;) {
      this.skipBlanksAndComment();
      if (this.code() !== NL) return;
      this.newline();
    }
  }

  private newline(): void {
    this.i++;
    if (this.heredocs.length > 0) this.readHeredocBodies();
  }

  /** Is the reader at one of `stops` (a reserved word in command position, `)`, `;;`)? */
  private atStop(stops: Stops): boolean {
    if (stops.size === 0) return false;
    const c = this.code();
    if (c === RPAREN) return stops.has(')');
    if (c === RBRACE && stops.has('}…')) return true;
    if (c === SEMI) {
      const op = this.operatorAt();
      return op !== null && op.startsWith(';') && op !== ';' && stops.has(';;');
    }
    const r = this.reservedAt();
    return r !== null && stops.has(r);
  }

  private list(stops: Stops, nonEmpty: boolean): List {
    const start = this.i;
    const items: Command[] = [];
    const operators: (ListOp | null)[] = [];
    this.listInto(items, operators, stops);
    if (nonEmpty && items.length === 0) this.fail('an empty command list');
    const end = items.length > 0 ? items[items.length - 1].span.end : start;
    return { type: 'List', items, operators, redirects: [], span: { start, end } };
  }

  /**
   * Pipelines and their operators up to one of `stops` (or the end); the reader stays there. A
   * newline after the last item separates nothing: its operator is null.
   */
  private listInto(items: Command[], operators: (ListOp | null)[], stops: Stops): void {
    for (;;) {
      this.skipSpace();
      if (this.atEnd() || this.atStop(stops)) {
        if (operators.length > 0 && operators[operators.length - 1] === '\n') operators[operators.length - 1] = null;
        return;
      }
      const start = this.i;
      const count = items.length;
      try {
        items.push(this.pipeline());
        operators.push(null);
        this.skipBlanksAndComment();
        const op = this.operatorAt();
        const last = operators.length - 1;
        if (op === ';' || op === '&') {
          operators[last] = op;
          this.i++;
        } else if (op === '&&' || op === '||') {
          operators[last] = op;
          this.i += 2;
          this.skipSpace();
          if (this.atEnd() || this.atStop(stops)) this.fail(`nothing after \`${op}\``);
        } else if (op === '\n') {
          operators[last] = '\n';
          this.newline();
        } else if (!(this.atEnd() || this.atStop(stops))) {
          this.fail(`unexpected \`${op ?? this.s[this.i]}\``);
        }
      } catch (e) {
        if (!(e instanceof SyntaxFailure) || ++this.recoveries > MAX_RECOVERIES) throw e;
        this.recover(e, items.length > count ? Math.min(e.at, this.n) : start, items, operators, stops);
      }
    }
  }

  /** `[!] [time [-p]] command | command …` */
  private pipeline(): Command {
    const start = this.i;
    let negated = false;
    for (;;) {
      this.skipBlanks();
      if (this.isWord('!')) {
        negated = !negated;
        this.i++;
        continue;
      }
      if (this.isWord('time') && this.timeKeyword()) continue;
      break;
    }
    if (negated && this.atListEnd()) {
      // `!` alone negates an empty command (bash accepts it; nothing runs).
      const empty: SimpleCommand = { type: 'SimpleCommand', assignments: [], words: [], redirects: [], span: { start: this.i, end: this.i } };
      return { type: 'Pipeline', commands: [empty], operators: [], negated, redirects: [], span: { start, end: this.i } };
    }
    const first = this.command();
    const commands: Command[] = [first];
    const operators: ('|' | '|&')[] = [];
    for (;;) {
      this.skipBlanksAndComment();
      const op = this.operatorAt();
      if (op !== '|' && op !== '|&') break;
      this.i += op.length;
      operators.push(op);
      this.skipSpace();
      if (this.atEnd()) this.fail(`nothing after \`${op}\``);
      commands.push(this.command());
    }
    if (commands.length === 1 && !negated) return first;
    return { type: 'Pipeline', commands, operators, negated, redirects: [], span: { start, end: commands[commands.length - 1].span.end } };
  }

  /** Does the list end here (`;`, `&`, a newline, `)`, the end)? */
  private atListEnd(): boolean {
    const c = this.code();
    return c === -1 || c === SEMI || c === NL || c === RPAREN || (c === AMP && this.code(this.i + 1) !== GT);
  }

  /**
   * `time [-p] [--]` before a pipeline. Before a simple command the walker reads `time` as the
   * wrapper it also is (the program `time` runs its arguments); before anything else the keyword
   * only times what follows, so it is dropped. Returns whether it consumed the keyword.
   */
  private timeKeyword(): boolean {
    const save = this.i;
    this.i += 4;
    this.skipBlanks();
    if (this.isWord('-p')) {
      this.i += 2;
      this.skipBlanks();
    }
    if (this.isWord('--')) {
      this.i += 2;
      this.skipBlanks();
    }
    const r = this.reservedAt();
    if ((r !== null && (COMPOUND.has(r) || r === '!' || r === 'time' || r === 'function' || r === 'coproc')) || this.code() === LPAREN) return true;
    this.i = save;
    return false;
  }

  private command(): Command {
    this.skipBlanks();
    const r = this.reservedAt();
    if (r !== null) {
      if (COMPOUND.has(r)) return this.withRedirects(this.compound(r));
      switch (r) {
        case 'function':
          return this.functionKeyword();
        case 'coproc':
          return this.coproc();
        case 'time':
          return this.simpleCommand();
        default:
          this.fail(`unexpected \`${r}\``);
      }
    }
    if (this.code() === LPAREN) return this.withRedirects(this.compound('('));
    return this.simpleCommand();
  }

  /** The compound command opened by `r` (a reserved word or `(`) at the reader. */
  private compound(r: string): Command {
    return this.nested(() => {
      switch (r) {
        case '(':
          return this.code(this.i + 1) === LPAREN && isArithmetic(this.s, this.i, this.n) ? this.arithCommand() : this.subshell();
        case '{':
          return this.group();
        case 'if':
          return this.ifCommand();
        case 'while':
        case 'until':
          return this.whileCommand(r === 'until');
        case 'for':
        case 'select':
          return this.forCommand(r === 'select');
        case 'case':
          return this.caseCommand();
        default:
          return this.testCommand();
      }
    });
  }

  /** Is a compound command (or `(`) at the reader? */
  private compoundAhead(): string | null {
    if (this.code() === LPAREN) return '(';
    const r = this.reservedAt();
    return r !== null && COMPOUND.has(r) ? r : null;
  }

  private expectWord(word: string): void {
    this.skipSpace();
    if (!this.isWord(word)) this.fail(`expected \`${word}\``);
    this.i += word.length;
  }

  private subshell(): Command {
    const start = this.i;
    this.i++;
    const body = this.list(PAREN, true);
    this.skipSpace();
    if (this.code() !== RPAREN) this.fail('expected `)`');
    this.i++;
    return { type: 'Subshell', body, redirects: [], span: { start, end: this.i } };
  }

  private group(): Command {
    const start = this.i;
    this.i++;
    const body = this.list(BRACE, true);
    this.expectWord('}');
    return { type: 'Group', body, redirects: [], span: { start, end: this.i } };
  }

  private arithCommand(): Command {
    const start = this.i;
    const close = skipArithParens(this.s, start + 1, this.n);
    this.i = close + 2;
    return { type: 'ArithCommand', raw: this.s.slice(start, this.i), inner: this.sitesIn(start + 2, close), redirects: [], span: { start, end: this.i } };
  }

  private ifCommand(): Command {
    const start = this.i;
    this.i += 2;
    const clauses: IfClause[] = [];
    let elseBody: List | null = null;
    for (;;) {
      const condition = this.list(THEN, true);
      this.expectWord('then');
      const body = this.list(ELSE, true);
      clauses.push({ condition, body });
      this.skipSpace();
      if (this.isWord('elif')) {
        this.i += 4;
        continue;
      }
      if (this.isWord('else')) {
        this.i += 4;
        elseBody = this.list(FI, true);
      }
      break;
    }
    this.expectWord('fi');
    return { type: 'If', clauses, elseBody, redirects: [], span: { start, end: this.i } };
  }

  private whileCommand(until: boolean): Command {
    const start = this.i;
    this.i += 5;
    const condition = this.list(DO, true);
    this.expectWord('do');
    const body = this.list(DONE, true);
    this.expectWord('done');
    return { type: 'While', until, condition, body, redirects: [], span: { start, end: this.i } };
  }

  /** `do … done`, or the `{ … }` bash also takes as a for loop's body. */
  private loopBody(): List {
    this.skipSpace();
    if (this.isWord('{')) {
      this.i++;
      const body = this.list(BRACE, true);
      this.expectWord('}');
      return body;
    }
    this.expectWord('do');
    const body = this.list(DONE, true);
    this.expectWord('done');
    return body;
  }

  private forCommand(select: boolean): Command {
    const start = this.i;
    this.i += select ? 6 : 3;
    this.skipBlanks();
    if (!select && this.code() === LPAREN && this.code(this.i + 1) === LPAREN) {
      const close = skipArithParens(this.s, this.i + 1, this.n);
      if (close < 0 || this.code(close + 1) !== RPAREN) this.fail('an unclosed `for ((`');
      const inner = this.sitesIn(this.i + 2, close);
      this.i = close + 2;
      this.skipBlanks();
      if (this.code() === SEMI) this.i++;
      const body = this.loopBody();
      return { type: 'ArithFor', inner, body, redirects: [], span: { start, end: this.i } };
    }
    const name = this.readWord();
    if (name === null) this.fail(`a name after \`${select ? 'select' : 'for'}\``);
    let items: Word[] | null = null;
    this.skipSpace();
    if (this.isWord('in')) {
      this.i += 2;
      items = [];
      for (;;) {
        this.skipBlanksAndComment();
        const c = this.code();
        if (c === SEMI || c === NL) {
          if (c === SEMI) this.i++;
          break;
        }
        if (c === -1) break;
        const w = this.readWord();
        if (w === null) this.fail('unexpected text in a `for` list');
        items.push(w);
      }
    } else if (this.code() === SEMI) this.i++;
    const body = this.loopBody();
    return { type: 'For', select, variable: name.raw, items, body, redirects: [], span: { start, end: this.i } };
  }

  private caseCommand(): Command {
    const start = this.i;
    this.i += 4;
    this.skipBlanks();
    const word = this.readWord();
    if (word === null) this.fail('a word after `case`');
    this.expectWord('in');
    const items: CaseItem[] = [];
    for (;;) {
      this.skipSpace();
      if (this.isWord('esac')) {
        this.i += 4;
        break;
      }
      if (this.atEnd()) this.fail('expected `esac`');
      if (this.code() === LPAREN) {
        this.i++;
        this.skipBlanks();
      }
      const patterns: Word[] = [];
      for (;;) {
        this.skipBlanks();
        const w = this.readWord();
        if (w === null) this.fail('expected a case pattern');
        patterns.push(w);
        this.skipBlanks();
        const c = this.code();
        this.i++;
        if (c === PIPE) continue;
        if (c === RPAREN) break;
        this.fail('expected `)` after a case pattern', this.i - 1);
      }
      const body = this.list(CASE_ITEM, false);
      items.push({ patterns, body });
      this.skipSpace();
      const op = this.operatorAt();
      if (op === ';;' || op === ';&' || op === ';;&') this.i += op.length;
      else if (!this.isWord('esac')) this.fail('expected `;;` or `esac`');
    }
    return { type: 'Case', word, items, redirects: [], span: { start, end: this.i } };
  }

  /**
   * `[[ … ]]`, read with bash's grammar for it (parse.y: cond_expr, cond_or, cond_and, cond_term):
   * `||` over `&&` over `!`, parentheses, unary tests (`-f x`) and binary ones (`a == b`, `a =~
   * re`, `a < b`); newlines may stand between tokens. Every token between the brackets becomes a
   * word, operators included, as bash's trace shows the command.
   */
  private testCommand(): Command {
    const start = this.i;
    this.i += 2;
    const words: Word[] = [];
    this.condOr(words);
    this.condSpace();
    if (!this.isWord(']]')) this.fail('expected `]]`');
    this.i += 2;
    return { type: 'TestCommand', bracket: '[[', words, redirects: [], span: { start, end: this.i } };
  }

  private condSpace(): void {
    this.skipSpace();
    if (this.atEnd()) this.fail('expected `]]`');
  }

  private condOr(words: Word[]): void {
    this.condAnd(words);
    for (;;) {
      this.condSpace();
      if (this.operatorAt() !== '||') return;
      words.push(this.operatorWord(2));
      this.condAnd(words);
    }
  }

  private condAnd(words: Word[]): void {
    this.condTerm(words);
    for (;;) {
      this.condSpace();
      if (this.operatorAt() !== '&&') return;
      words.push(this.operatorWord(2));
      this.condTerm(words);
    }
  }

  /** The operator of `length` characters at the reader, as a word of `[[ ]]` (bash's trace shows them). */
  private operatorWord(length: number): Word {
    const span = { start: this.i, end: this.i + length };
    const raw = this.s.slice(span.start, span.end);
    this.i += length;
    return { type: 'Word', parts: [{ type: 'Literal', raw, span }], raw, span };
  }

  private condTerm(words: Word[]): void {
    this.condSpace();
    if (this.isWord(']]')) this.fail('an operand expected before `]]`');
    const c = this.code();
    if (c === LPAREN) {
      words.push(this.operatorWord(1));
      this.nested(() => this.condOr(words));
      this.condSpace();
      if (this.code() !== RPAREN) this.fail('expected `)` in `[[`');
      words.push(this.operatorWord(1));
      return;
    }
    const first = this.condWord('normal');
    this.condSpace();
    if (first.raw === '!' && !this.atCondEnd()) {
      words.push(first);
      this.nested(() => this.condTerm(words));
      return;
    }
    if (UNARY_TEST.test(first.raw) && !this.atCondEnd()) {
      words.push(first);
      words.push(this.condWord('normal'));
      return;
    }
    words.push(first);
    if (this.atCondEnd()) return;
    // A binary operator, then its right operand (`=~` takes a regular expression).
    const c2 = this.code();
    let op: string;
    if ((c2 === LT || c2 === GT) && this.operatorAt() === null) {
      op = this.s[this.i];
      words.push(this.operatorWord(1));
    } else {
      const w = this.condWord('normal');
      op = w.raw;
      if (!TEST_BINARY.has(op) && !ARITH_TEST.test(op)) this.fail(`a binary operator expected in \`[[\`, not \`${op}\``);
      words.push(w);
    }
    this.condSpace();
    words.push(this.condWord(op === '=~' ? 'regex' : 'normal'));
  }

  /** Does the expression end here (`]]`, `)`, `&&`, `||`)? */
  private atCondEnd(): boolean {
    const op = this.operatorAt();
    return this.isWord(']]') || op === ')' || op === '&&' || op === '||';
  }

  private condWord(mode: 'normal' | 'regex'): Word {
    this.condSpace();
    const w = this.readWord(mode);
    if (w === null) this.fail(`unexpected \`${this.operatorAt() ?? this.s[this.i]}\` in \`[[\``);
    return w;
  }

  /** `function NAME [()] BODY` */
  private functionKeyword(): Command {
    const start = this.i;
    this.i += 8;
    this.skipBlanks();
    const name = this.readWord();
    if (name === null) this.fail('a name after `function`');
    this.skipBlanks();
    if (this.code() === LPAREN) {
      // `function f ()`, or `function f ( cmd )`: a `(` not closed at once opens the body.
      let j = this.i + 1;
      while (this.code(j) === 32 || this.code(j) === 9) j++;
      if (this.code(j) === RPAREN) this.i = j + 1;
    }
    return this.functionBody(start, name.raw);
  }

  /** A function's body: any compound command, then the definition's own redirects. */
  private functionBody(start: number, name: string): Command {
    this.skipSpace();
    const r = this.compoundAhead();
    if (r === null) this.fail('a function body must be a compound command');
    const body = this.compound(r);
    const def: Command = { type: 'FunctionDef', name, body, redirects: [], span: { start, end: body.span.end } };
    return this.withRedirects(def);
  }

  /**
   * `coproc [NAME] COMMAND`: the command runs asynchronously in a subshell, as with `&` (its
   * pipes aside): it is read as `COMMAND &`. NAME is taken only before a compound command, as bash
   * does.
   */
  private coproc(): Command {
    const start = this.i;
    this.i += 6;
    this.skipBlanks();
    return background(start, this.coprocBody());
  }

  private coprocBody(): Command {
    const r = this.compoundAhead();
    if (r !== null) return this.withRedirects(this.compound(r));
    const save = this.i;
    const name = this.readWord();
    if (name !== null && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name.raw)) {
      this.skipBlanks();
      const body = this.compoundAhead();
      if (body !== null) return this.withRedirects(this.compound(body));
    }
    this.i = save;
    return this.simpleCommand();
  }

  /** Redirects written after a compound command (or a function definition). */
  private withRedirects(cmd: Command): Command {
    for (;;) {
      this.skipBlanks();
      const r = this.redirect();
      if (r === null) break;
      cmd.redirects.push(r);
      cmd.span = { start: cmd.span.start, end: r.span.end };
    }
    return cmd;
  }

  private simpleCommand(): Command {
    const start = this.i;
    // Most commands have no assignments and no redirects: they share NONE until they do.
    let assignments: Assignment[] = NONE;
    let redirects: Redirect[] = NONE;
    const words: Word[] = [];
    let declaration = false;
    let end = start;
    for (;;) {
      this.skipBlanks();
      const c = this.code();
      if (c === -1 || c === 35 /* # */) break;
      const r = this.redirect();
      if (r !== null) {
        if (redirects === NONE) redirects = [];
        redirects.push(r);
        end = r.span.end;
        continue;
      }
      if (isMeta(c) && !((c === LT || c === GT) && this.code(this.i + 1) === LPAREN)) break;
      if (words.length === 0 || declaration) {
        const a = this.assignment();
        if (a !== null) {
          if (declaration) words.push(assignmentWord(a, this.s));
          else {
            if (assignments === NONE) assignments = [];
            assignments.push(a);
          }
          end = a.span.end;
          continue;
        }
      }
      const w = this.readWord();
      if (w === null) break;
      if (words.length === 0 && DECLARATIONS.has(w.raw)) declaration = true;
      words.push(w);
      end = w.span.end;
    }
    if (words.length === 0 && assignments.length === 0 && redirects.length === 0) {
      const op = this.operatorAt();
      this.fail(this.atEnd() ? 'unexpected end of input' : `unexpected \`${op === '\n' ? 'newline' : (op ?? this.s[this.i])}\``);
    }
    const cmd: SimpleCommand = { type: 'SimpleCommand', assignments, words, redirects, span: { start, end } };
    // `NAME ( )` makes the word a function's name.
    if (cmd.words.length === 1 && cmd.assignments.length === 0 && cmd.redirects.length === 0 && this.code() === LPAREN) {
      this.i++;
      this.skipBlanks();
      if (this.code() !== RPAREN) this.fail('expected `)` after a function name');
      this.i++;
      return this.nested(() => this.functionBody(start, cmd.words[0].raw));
    }
    return cmd;
  }

  /** `NAME=value`, `NAME+=value`, `NAME[subscript]=value`, `NAME=(…)` at the reader, or null. */
  private assignment(): Assignment | null {
    const s = this.s;
    const start = this.i;
    if (!isNameStart(this.code())) return null;
    let j = start + 1;
    while (j < this.n && isNameChar(s.charCodeAt(j))) j++;
    const name = s.slice(start, j);
    let subscript: WordPart[] = [];
    if (this.code(j) === LBRACKET) {
      const nl = s.indexOf('\n', j);
      const close = skipBracket(s, j, nl < 0 || nl > this.n ? this.n : nl);
      if (close < 0) return null;
      subscript = this.sitesIn(j + 1, close - 1);
      j = close;
    }
    let append = false;
    if (this.code(j) === PLUS && this.code(j + 1) === EQ) {
      append = true;
      j += 2;
    } else if (this.code(j) === EQ) j++;
    else return null;
    this.i = j;
    let value: Word | null = null;
    let array: Word[] | null = null;
    if (this.code() === LPAREN) {
      this.i++;
      array = [];
      for (;;) {
        this.skipSpace();
        if (this.code() === RPAREN) {
          this.i++;
          break;
        }
        if (this.atEnd()) this.fail('an unclosed array `(`', start);
        const w = this.readWord();
        if (w === null) this.fail('unexpected text in an array');
        array.push(w);
      }
    } else {
      value = this.readWord() ?? { type: 'Word', parts: [], raw: '', span: { start: this.i, end: this.i } };
    }
    return { type: 'Assignment', name, append, value, array, subscript, span: { start, end: this.i } };
  }

  /** A redirect at the reader (`[n|{var}]op target`), or null. */
  private redirect(): Redirect | null {
    const s = this.s;
    const start = this.i;
    let j = start;
    let fd: number | null = null;
    let c = this.code(j);
    if (isDigit(c)) {
      while (isDigit(this.code(j))) j++;
      c = this.code(j);
      if (c !== LT && c !== GT) return null;
      fd = Number(s.slice(start, j));
    } else if (c === LBRACE) {
      // `{var}>file`: bash picks a free descriptor and stores it in var.
      let k = j + 1;
      if (!isNameStart(this.code(k))) return null;
      while (isNameChar(this.code(k))) k++;
      if (this.code(k) !== RBRACE) return null;
      c = this.code(k + 1);
      if (c !== LT && c !== GT) return null;
      j = k + 1;
    }
    const d = this.code(j + 1);
    const e = this.code(j + 2);
    let op: string;
    if (c === LT) {
      if (d === LPAREN) return null; // a process substitution
      if (d === LT && e === LT) op = '<<<';
      else if (d === LT && e === 45) op = '<<-';
      else if (d === LT) op = '<<';
      else if (d === GT) op = '<>';
      else if (d === AMP) op = '<&';
      else op = '<';
    } else if (c === GT) {
      if (d === LPAREN && fd === null) return null;
      if (d === GT) op = '>>';
      else if (d === PIPE) op = '>|';
      else if (d === AMP) op = '>&';
      else op = '>';
    } else if (c === AMP && d === GT && fd === null && j === start) {
      op = e === GT ? '&>>' : '&>';
    } else return null;
    this.i = j + op.length;
    this.skipBlanks();
    const target = this.readWord();
    if (target === null) {
      const next = this.operatorAt();
      this.fail(`nothing after \`${op}\`${next === '\n' ? ' (a newline)' : ''}`);
    }
    const redirect: Redirect = { type: 'Redirect', op, fd, target, heredoc: null, span: { start, end: target.span.end } };
    if (op === '<<' || op === '<<-') {
      const quoted = /['"\\]/.test(target.raw);
      redirect.heredoc = { quoted, body: { type: 'Word', parts: [], raw: '', span: { start: target.span.end, end: target.span.end } } };
      this.heredocs.push({ redirect, delimiter: heredocDelimiter(target.raw), stripTabs: op === '<<-', quoted });
    }
    return redirect;
  }

  protected substitutionBody(close: ')' | '}'): Script {
    const start = this.i;
    return this.nested(() => {
      const items: Command[] = [];
      const operators: (ListOp | null)[] = [];
      this.inSubstitution++;
      try {
        this.listInto(items, operators, close === ')' ? PAREN : FUNSUB);
      } finally {
        this.inSubstitution--;
      }
      this.skipSpace();
      if (this.code() !== (close === ')' ? RPAREN : RBRACE)) this.fail(`expected \`${close}\``, start);
      const span: Span = { start: start - 2, end: this.i + 1 };
      return { type: 'Script', body: { type: 'List', items, operators, redirects: [], span }, span };
    });
  }
}

/** `cmd &` as a one-item list: how a coproc's command runs. */
function background(start: number, cmd: Command): Command {
  const span = { start, end: cmd.span.end };
  return { type: 'List', items: [cmd], operators: ['&'], redirects: [], span };
}

/**
 * `declare x=(a b)` keeps its assignment as one word of the builtin, as bash passes it: the text
 * between the elements (the parentheses, blanks) is literal, the elements keep their parts.
 */
function assignmentWord(a: Assignment, s: string): Word {
  const parts: WordPart[] = [];
  const literal = (from: number, to: number) => {
    if (to > from) parts.push({ type: 'Literal', raw: s.slice(from, to), span: { start: from, end: to } });
  };
  let at = a.span.start;
  for (const w of a.value ? [a.value] : (a.array ?? [])) {
    literal(at, w.span.start);
    for (const p of w.parts) parts.push(p);
    at = w.span.end;
  }
  literal(at, a.span.end);
  for (const p of a.subscript) parts.push(p);
  return { type: 'Word', parts, raw: s.slice(a.span.start, a.span.end), span: a.span };
}
