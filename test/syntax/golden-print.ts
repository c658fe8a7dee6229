/**
 * Span-free views of a parsed script for the golden suite (golden.test.ts):
 *
 * - `printAst`: the AST shape on one line — node types, each word's parts (quoting kind, raw
 *   text, substitutions inside), assignments, redirects, heredoc bodies, list and pipeline
 *   operators. Word `raw` and spans are left out: they differ between spellings by design.
 * - `compactStructure`: structureOf (src/expand/structure.ts) as short strings, the form the
 *   tables write their expectations in.
 * - `normalize`: the reductions a group may ask for, applied to the AST before either view, so
 *   that spellings bash reads alike compare equal and nothing else is forgiven.
 */
import type { Assignment, Command, List, Redirect, Script, Word, WordPart } from '../../src/syntax/ast.js';
import type { Structure } from '../../src/expand/structure.js';

export interface Reductions {
  /**
   * `;` and newline are both "run in sequence": one operator `;`, and a sequential operator
   * after the last item of a list is dropped (`a;` is `a`). `&`, `&&`, `||` stay as written.
   */
  seq?: boolean;
  /**
   * The AST has no node for the `time` and `coproc` keywords: a front end may keep them as the
   * leading words of the simple command they prefix, or drop them. Dropped here, so both pass.
   */
  keywords?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Normalisation

/**
 * Always applied, whatever the group, because they are choices the AST leaves to a front end:
 * - a heredoc delimiter is compared unquoted (its quoting is the `quoted` flag);
 * - `[[ ]]` keeps only its operands (the AST's contract: its operator tokens `&&`, `||`, `!`,
 *   `(`, `)`, `==`, `=~`, `-f`… are not words that expand), and no glob parts in them (whether
 *   an operand is a pattern or a regex is decided by its operator);
 * - `<&-` is op `<&` with target `-`, however a front end cuts it;
 * - a list item that is itself a list of one command, with no redirects, is that command.
 */
export function normalize(script: Script, r: Reductions): Script {
  return mapValue(script, r) as Script;
}

const TEST_OPERATOR = /^(&&|\|\||!|\(|\)|==?|!=|=~|<|>|-[a-zA-Z]{1,2})$/;

function literalText(w: Word | undefined): string | null {
  return w && w.parts.length === 1 && w.parts[0].type === 'Literal' ? w.parts[0].raw : null;
}

/** `'E'`, `"E"`, `\E`, `E''` → `E`. */
function unquoteDelimiter(raw: string): string {
  return raw.replace(/\\(.)|['"]/gs, (_, c: string | undefined) => c ?? '');
}

function mapValue(v: unknown, r: Reductions): unknown {
  if (Array.isArray(v)) return v.map((x) => mapValue(x, r));
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = mapValue(x, r);
  const node = out as { type?: string };
  if (node.type === 'List' && r.seq) {
    const list = out as unknown as List;
    list.operators = list.operators.map((op, i) => {
      const o = op === '\n' ? ';' : op;
      return o === ';' && i === list.operators.length - 1 ? null : o;
    });
  }
  if (node.type === 'SimpleCommand' && r.keywords) {
    const words = (out as { words: Word[] }).words;
    if (literalText(words[0]) === 'coproc') words.splice(0, 1);
    else if (literalText(words[0]) === 'time') words.splice(0, literalText(words[1]) === '-p' ? 2 : 1);
  }
  if (node.type === 'TestCommand' && (out as { bracket: string }).bracket === '[[') {
    const t = out as { words: Word[] };
    // whether an operand is a pattern or a regex is the operator's doing, not the lexer's
    t.words = t.words
      .filter((w) => !TEST_OPERATOR.test(literalText(w) ?? ''))
      .map((w) => ({ ...w, parts: w.parts.map((p) => (p.type === 'Glob' ? { type: 'Literal' as const, raw: p.raw, span: p.span } : p)) }));
  }
  if (node.type === 'List') {
    const list = out as unknown as List;
    list.items = list.items.map((item) =>
      item.type === 'List' && item.items.length === 1 && item.redirects.length === 0 && !item.operators[0] ? item.items[0] : item,
    );
  }
  if (node.type === 'Redirect' && /^[<>]&-$/.test((out as { op: string }).op)) {
    const red = out as { op: string; target: Word };
    if (red.target.parts.length === 0) {
      red.op = red.op.slice(0, -1);
      red.target = { ...red.target, raw: '-', parts: [{ type: 'Literal', raw: '-', span: red.target.span }] };
    }
  }
  if (node.type === 'Redirect' && (out as { heredoc: unknown }).heredoc) {
    const target = (out as { target: Word }).target;
    const raw = unquoteDelimiter(target.raw);
    (out as { target: Word }).target = { ...target, raw, parts: [{ type: 'Literal', raw, span: target.span }] };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// AST printer

/** Control characters shown as visible marks, so a printed AST stays on one line. */
function visible(s: string): string {
  return s.replace(/\n/g, '⏎').replace(/\t/g, '⇥').replace(/\r/g, '␍');
}

export function printAst(script: Script): string {
  return printList(script.body);
}

function printList(list: List): string {
  const out: string[] = [];
  list.items.forEach((item, i) => {
    out.push(printCommand(item));
    const op = list.operators[i];
    if (op) out.push(op === '\n' ? '⏎' : op);
  });
  return out.join(' ');
}

function withRedirects(text: string, redirects: Redirect[]): string {
  return redirects.length === 0 ? text : `${text} ${redirects.map(printRedirect).join(' ')}`;
}

function printCommand(cmd: Command): string {
  switch (cmd.type) {
    case 'SimpleCommand': {
      const items = [...cmd.assignments.map(printAssignment), ...cmd.words.map(printWord), ...cmd.redirects.map(printRedirect)];
      return `[${items.join(' ')}]`;
    }
    case 'List':
      return withRedirects(`list(${printList(cmd)})`, cmd.redirects);
    case 'Pipeline':
      return withRedirects(
        `pipe(${cmd.negated ? '! ' : ''}${cmd.commands.map((c, i) => printCommand(c) + (i < cmd.operators.length ? ` ${cmd.operators[i]}` : '')).join(' ')})`,
        cmd.redirects,
      );
    case 'Subshell':
      return withRedirects(`sub(${printList(cmd.body)})`, cmd.redirects);
    case 'Group':
      return withRedirects(`group(${printList(cmd.body)})`, cmd.redirects);
    case 'FunctionDef':
      return withRedirects(`func ${cmd.name}(${printCommand(cmd.body)})`, cmd.redirects);
    case 'If': {
      const clauses = cmd.clauses.map((c, i) => `${i === 0 ? 'if' : 'elif'} ${printList(c.condition)} then ${printList(c.body)}`);
      const tail = cmd.elseBody ? ` else ${printList(cmd.elseBody)}` : '';
      return withRedirects(`if(${clauses.join(' ').slice(3)}${tail})`, cmd.redirects);
    }
    case 'For': {
      const items = cmd.items === null ? '' : ` in${cmd.items.map((w) => ' ' + printWord(w)).join('')}`;
      return withRedirects(`${cmd.select ? 'select' : 'for'}(${cmd.variable}${items} do ${printList(cmd.body)})`, cmd.redirects);
    }
    case 'ArithFor':
      return withRedirects(`arithfor(${printExpansions(cmd.inner)} do ${printList(cmd.body)})`, cmd.redirects);
    case 'While':
      return withRedirects(`${cmd.until ? 'until' : 'while'}(${printList(cmd.condition)} do ${printList(cmd.body)})`, cmd.redirects);
    case 'Case': {
      const items = cmd.items.map((it) => `${it.patterns.map(printWord).join('|')}) ${printList(it.body)}`.trimEnd());
      return withRedirects(`case(${printWord(cmd.word)} in${items.map((x) => ' ' + x + ' ;;').join('')})`, cmd.redirects);
    }
    case 'TestCommand':
      return withRedirects(`${cmd.bracket}${cmd.words.map((w) => ' ' + printWord(w)).join('')} ${cmd.bracket === '[' ? ']' : ']]'}`, cmd.redirects);
    case 'ArithCommand':
      return withRedirects(`arith(${visible(cmd.raw)}${inner(cmd.inner)})`, cmd.redirects);
    case 'Unparsed':
      return withRedirects(`unparsed:${cmd.reason}(${visible(cmd.raw)})`, cmd.redirects);
  }
}

function printAssignment(a: Assignment): string {
  // only the subscript's expansions: the AST keeps those (their substitutions run), maybe not its text
  const sub = expansionsIn(a.subscript).length ? `[${printExpansions(a.subscript)}]` : '';
  // `x=` may come as no value or as a word with no parts
  const value = a.array ? `(${a.array.map(printWord).join(' ')})` : a.value && a.value.parts.length ? printWord(a.value) : '';
  return `assign:${a.name}${sub}${a.append ? '+=' : '='}${value}`;
}

function printRedirect(r: Redirect): string {
  const fd = r.fd === null ? '' : String(r.fd);
  if (!r.heredoc) return `${fd}${r.op}${printWord(r.target)}`;
  // The delimiter as written (its quoting decides whether the body expands); a quoted body is
  // text, an unquoted one has parts.
  const body = r.heredoc.quoted ? `quoted{${visible(r.heredoc.body.raw)}}` : `{${printParts(r.heredoc.body.parts)}}`;
  return `${fd}${r.op}${visible(r.target.raw)}${body}`;
}

function printWord(w: Word): string {
  return w.parts.length === 0 ? '∅' : printParts(w.parts);
}

/** Parts printed one after the other: adjacent literals read as one, wherever a front end cuts them. */
function printParts(parts: WordPart[]): string {
  return parts
    .map((p, i) => {
      const text = printPart(p);
      // `$1` then `0` is not `${10}`: braces where the next character could continue the name
      const next = parts[i + 1];
      return p.type === 'ParamExp' && text === `$${p.name}` && next && /^[A-Za-z0-9_]/.test(printPart(next)) ? `\${${p.name}}` : text;
    })
    .join('');
}

/**
 * The expansions inside `${…}` operands and arithmetic, each printed whole: what the AST's `inner`
 * is for (their substitutions run). Literal and quoted text there is already in `raw`, and a front
 * end may or may not repeat it in `inner`.
 */
function expansionsIn(parts: WordPart[]): WordPart[] {
  return parts.flatMap((p) =>
    p.type === 'DoubleQuoted' ? expansionsIn(p.parts) : ['CmdSubst', 'ProcSubst', 'ArithExp', 'ParamExp'].includes(p.type) ? [p] : [],
  );
}

function printExpansions(parts: WordPart[]): string {
  return expansionsIn(parts).map(printPart).join(' ');
}

function inner(parts: WordPart[]): string {
  const text = printExpansions(parts);
  return text === '' ? '' : ` ⟨${text}⟩`;
}

const GLOB_CHARACTER = /[*?[]|[@!+]\(/;

function printPart(p: WordPart): string {
  switch (p.type) {
    case 'Literal':
      return visible(p.raw);
    case 'SingleQuoted':
      return `'${visible(p.value)}'`;
    case 'DoubleQuoted':
      return `"${printParts(p.parts)}"`;
    case 'AnsiC':
      return visible(p.raw);
    case 'ParamExp':
      return p.plain && inner(p.inner) === '' ? `$${p.name}` : `param(${p.name}: ${visible(p.raw.trim())}${inner(p.inner)})`;
    case 'CmdSubst':
      return p.backtick ? `\`${printList(p.body.body)}\`` : `$(${printList(p.body.body)})`;
    case 'ProcSubst':
      return `${p.direction}(${printList(p.body.body)})`;
    case 'ArithExp':
      return `arith(${visible(p.raw)}${inner(p.inner)})`;
    case 'Glob':
      // A pattern piece with no unescaped pattern character matches only itself: a front end may
      // call it either (case patterns, `[[ == ]]` operands, `\*`).
      return GLOB_CHARACTER.test(p.raw.replace(/\\./gs, '')) ? `glob(${p.raw})` : p.raw;
    case 'Brace':
      return `brace(${p.raw})`;
    case 'Tilde':
      return `~${p.user}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Structure, compact

/** A word as the tables write it: bare when that is unambiguous, else a JSON string. */
export function showWord(w: string): string {
  return w !== '' && /^[^\s'"\\<>]+$/.test(w) && !/^\d*[<>&]/.test(w) ? w : JSON.stringify(w);
}

export interface CompactStructure {
  /** One string per command: its words, then its redirects. */
  cmds: string[];
  /** The operators, space-separated; a newline operator is `⏎`. */
  ops: string;
}

export function compactStructure(s: Structure): CompactStructure {
  return {
    cmds: s.commands.map((c) => [...c.words.map(showWord), ...c.redirects.map(visible)].join(' ')),
    ops: s.operators.map((o) => (o === '\n' ? '⏎' : o)).join(' '),
  };
}
