/**
 * tree-sitter statements → our Command nodes.
 *
 * Lists and pipelines are not taken from tree-sitter's nesting: tree-sitter-bash mis-nests
 * `a | b && c` (it makes `b && c` a pipeline stage) and hangs `&& rest` off heredoc redirects.
 * We flatten every list/pipeline into a stream of commands and operators and rebuild it with
 * bash's own precedence (rebuild-lists.ts).
 */
import type { TSNode } from './ts-node.js';
import type { Assignment, Command, List, Redirect, Script, SimpleCommand, Span, Word, WordPart } from '../ast.js';
import {
  arithmeticSubstitutions,
  childrenOf,
  collectSubstitutions,
  convertWord,
  heredocParts,
  spanOf,
  wordFromParts,
  type WordContext,
} from './convert-words.js';
import { siteParts, SAME } from '../site-parts.js';
import { rebuildList, type StreamItem } from './rebuild-lists.js';
import { isReadWriteRedirect, joinAdjacentWords, splitAtBlanks } from './tree-sitter-quirks.js';
import { STATEMENT_TYPES } from './node-types.js';
import { mapSpans, movedSpan } from '../spans.js';
import type { Repair, Reread } from './repairs.js';
import { isFunsub } from '../bash-scan.js';
import { readBrace } from '../word-sites.js';
import { caseStatement, forStatement, ifStatement, LIST_OPS, testWords, whileStatement, type CompoundHost } from './convert-compound.js';

/** Past this nesting depth the converter stops and marks the rest as too deep (fail closed). */
export const MAX_NESTING = 200;

const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

/** Reserved words that cannot start a simple command. */
const MISPLACED_RESERVED = new Set(['then', 'else', 'elif', 'fi', 'do', 'done', 'esac', '}', 'in']);

export interface ConvertIssue {
  span: Span;
  text: string;
  /** `doubt`: bash may read it otherwise (see word-sites.ts); otherwise an error. */
  kind?: 'doubt' | 'error';
}

export interface ConverterOptions {
  /** Parse text as a script of its own (backquote bodies, substitutions read again). */
  parseText?: (text: string) => { script: Script; issues: ConvertIssue[] };
  /** Constructs to read again from the original text (see repairs.ts). */
  rereads?: ReadonlyMap<number, Reread>;
}

export class CommandConverter implements CompoundHost {
  /** Syntax bash rejects but tree-sitter accepts (`;;` outside case, a stray `fi`). */
  readonly issues: ConvertIssue[] = [];
  /** Places where tree-sitter cut tokens differently from bash: parse again with these masked. */
  readonly repairs: Repair[] = [];
  private depth = 0;
  /** A descriptor tree-sitter left at the end of the previous redirect (see redirect()). */
  private gluedFd: { at: number; fd: number } | null = null;
  readonly words: WordContext;

  constructor(
    /** The original text; tree-sitter may have parsed a masked copy of it (repairs.ts). */
    private readonly source: string,
    options: ConverterOptions = {},
  ) {
    const { parseText, rereads } = options;
    const clamp = source.length;
    this.words = {
      source,
      convertBody: (nodes, span) => {
        // A command substitution is a new command context: its words are read on their own.
        const covered = this.words.covered;
        this.words.covered = 0;
        try {
          return this.substitutionBody(nodes, span);
        } finally {
          this.words.covered = covered;
        }
      },
      parseText: parseText
        ? (text, offset) => {
            const r = parseText(text);
            const f = typeof offset === 'number' ? (i: number) => Math.min(clamp, i + offset) : (i: number) => Math.min(clamp, offset(i));
            mapSpans(r.script, f);
            for (const issue of r.issues) this.issues.push({ span: movedSpan(issue.span, f), text: issue.text, kind: issue.kind });
            return r.script;
          }
        : undefined,
      issue: (span, text, kind) => this.issues.push({ span, text, kind }),
      repair: (r) => this.repairs.push(r),
      rereads,
    };
  }

  /** `$(<file)` has only a redirect: bash reads the file, like `cat file`. */
  private substitutionBody(nodes: TSNode[], span: Span): Script {
    const redirects = nodes.filter((c) => REDIRECT_TYPES.has(c.type));
    if (redirects.length === 0) return this.script(nodes, span);
    const cmd: SimpleCommand = { type: 'SimpleCommand', assignments: [], words: [], redirects: [], span };
    for (const r of redirects) cmd.redirects.push(...this.redirect(r, cmd, []));
    const script = this.script(
      nodes.filter((c) => !REDIRECT_TYPES.has(c.type)),
      span,
    );
    script.body.items.unshift(cmd);
    script.body.operators.unshift(';');
    return script;
  }

  script(nodes: TSNode[], span: Span): Script {
    return { type: 'Script', body: this.sequence(nodes, span), span };
  }

  /** A run of statements and operators (program, do_group, braces, substitution bodies…). */
  sequence(nodes: TSNode[], span: Span): List {
    const stream: StreamItem[] = [];
    const work: TSNode[] = nodes.slice().reverse();
    while (work.length > 0) {
      const n = work.pop()!;
      if (n.type === 'list' || (n.type === 'pipeline' && n.namedChildCount > 0)) {
        // Flatten iteratively: long `a && b && …` chains nest thousands deep in tree-sitter.
        const kids = childrenOf(n);
        for (let i = kids.length - 1; i >= 0; i--) work.push(kids[i]);
      } else if (!n.isNamed) {
        if (n.type === ';;' || n.type === ';&' || n.type === ';;&') this.issues.push({ span: spanOf(n), text: n.type });
        // A `;` that masks a newline (see simpleCommand) is the newline it stands for.
        if (LIST_OPS.has(n.type) && !(n.type === ';' && this.source[n.startIndex] === '\n')) stream.push({ op: n.type as StreamItem['op'] & string });
      } else if (n.type === 'comment' || n.type === 'heredoc_body' || n.type === 'heredoc_end') {
        continue;
      } else {
        const { command, rest } = this.statementWithTail(n);
        stream.push({ command });
        for (const r of rest) stream.push(r);
      }
    }
    return rebuildList(stream, span);
  }

  private nest<T>(f: () => T, tooDeep: () => T): T {
    if (this.depth >= MAX_NESTING) return tooDeep();
    this.depth++;
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  /** A statement, plus any `&& cmd` that tree-sitter attached to a heredoc redirect inside it. */
  private statementWithTail(n: TSNode): { command: Command; rest: StreamItem[] } {
    const rest: StreamItem[] = [];
    const command = this.statement(n, rest);
    return { command, rest };
  }

  statement(n: TSNode, tail: StreamItem[] = []): Command {
    return this.nest(
      () => this.statementInner(n, tail),
      () => this.unparsed(n, 'too-deep', false),
    );
  }

  private statementInner(n: TSNode, tail: StreamItem[]): Command {
    const span = spanOf(n);
    switch (n.type) {
      case 'command':
        return this.simpleCommand(n, tail);
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(n);
      case 'variable_assignment':
        return { type: 'SimpleCommand', assignments: [this.assignment(n)], words: [], redirects: [], span };
      case 'variable_assignments':
        return {
          type: 'SimpleCommand',
          assignments: childrenOf(n)
            .filter((c) => c.type === 'variable_assignment')
            .map((c) => this.assignment(c)),
          words: [],
          redirects: [],
          span,
        };
      case 'redirected_statement':
        return this.redirectedStatement(n, tail, span);
      case 'negated_command': {
        const inner = n.namedChildren.find((c) => c !== null)!;
        return { type: 'Pipeline', commands: [this.statement(inner, tail)], operators: [], negated: true, redirects: [], span };
      }
      case 'list':
      case 'pipeline':
        return this.sequence([n], span);
      case 'subshell': {
        const reread = this.words.rereads?.get(n.startIndex);
        if (reread && reread.end === n.endIndex && this.words.parseText) {
          // `((a) …)`: bash's subshell in a subshell, masked for tree-sitter (repairs.ts).
          const body = this.words.parseText(this.source.slice(reread.body.start, reread.body.end), reread.body.start).body;
          return { type: 'Subshell', body, redirects: [], span };
        }
        return { type: 'Subshell', body: this.sequence(this.bodyNodes(n), span), redirects: [], span };
      }
      case 'compound_statement':
        if (n.child(0)?.type === '((') {
          return { type: 'ArithCommand', raw: n.text, inner: arithmeticSubstitutions(n, this.words, n.startIndex + 2, n.endIndex - 2), redirects: [], span };
        }
        return { type: 'Group', body: this.sequence(this.bodyNodes(n), span), redirects: [], span };
      case 'function_definition': {
        const name = n.childForFieldName('name')?.text ?? '';
        const bodyNode = n.childForFieldName('body');
        const body: Command = bodyNode ? this.statement(bodyNode) : { type: 'Group', body: this.sequence([], span), redirects: [], span };
        const fd: Command = { type: 'FunctionDef', name, body, redirects: [], span };
        fd.redirects.push(...this.redirectsOf(n, fd, tail));
        return fd;
      }
      case 'if_statement':
        return ifStatement(this, n);
      case 'for_statement':
        return forStatement(this, n);
      case 'c_style_for_statement': {
        const body = n.childForFieldName('body');
        return {
          type: 'ArithFor',
          inner: arithmeticSubstitutions(n, this.words, n.startIndex, body ? body.startIndex : n.endIndex).filter(
            (p) => !body || p.span.end <= body.startIndex,
          ),
          body: body ? this.sequence(this.bodyNodes(body), spanOf(body)) : this.sequence([], span),
          redirects: [],
          span,
        };
      }
      case 'while_statement':
        return whileStatement(this, n);
      case 'case_statement':
        return caseStatement(this, n);
      case 'test_command':
        return { type: 'TestCommand', bracket: n.text.startsWith('[[') ? '[[' : '[', words: testWords(this, n), redirects: [], span };
      case 'ERROR':
        return this.unparsed(n, 'error', true);
      default:
        return this.unparsed(n, 'unsupported', true);
    }
  }

  /** A statement with redirects: they go to the command bash gives them to. */
  private redirectedStatement(n: TSNode, tail: StreamItem[], span: Span): Command {
    const body = n.childForFieldName('body');
    const command: Command = body ? this.statement(body, tail) : { type: 'SimpleCommand', assignments: [], words: [], redirects: [], span };
    // In bash a redirect after `a | b` or `a && b` belongs to the last command; tree-sitter
    // sometimes hangs it on the whole pipeline or list.
    let owner = command;
    while ((owner.type === 'Pipeline' && owner.commands.length > 0) || (owner.type === 'List' && owner.items.length > 0)) {
      owner = owner.type === 'Pipeline' ? owner.commands[owner.commands.length - 1] : owner.items[owner.items.length - 1];
    }
    const redirects = this.redirectsOf(n, owner, tail);
    this.recoverDroppedWords(body, n, owner);
    // `bash 0</tmp/p`, `0<&196`: tree-sitter reads a 0 glued to the operator as an argument.
    if (owner.type === 'SimpleCommand' && redirects.length > 0) {
      const last = owner.words[owner.words.length - 1];
      const first = redirects[0];
      if (last && first.fd === null && /^\d+$/.test(last.raw) && last.span.end === first.span.start) {
        owner.words.pop();
        first.fd = Number(last.raw);
        first.span = { start: last.span.start, end: first.span.end };
      }
    }
    owner.redirects.push(...redirects);
    owner.span = { start: owner.span.start, end: span.end };
    if (owner !== command) command.span = { start: command.span.start, end: span.end };
    return command;
  }

  /** Named children between the opening and closing tokens of a block. */
  bodyNodes(n: TSNode): TSNode[] {
    return childrenOf(n).filter((c) => c.isNamed || LIST_OPS.has(c.type));
  }

  private unparsed(n: TSNode, reason: 'error' | 'unsupported' | 'too-deep', descend: boolean): Command {
    const span = spanOf(n);
    const inner: WordPart[] = [];
    if (descend) {
      // Commands tree-sitter still recognised inside the broken region are analysed as well.
      const stmts = childrenOf(n).filter((c) => c.isNamed && STATEMENT_TYPES.has(c.type));
      if (stmts.length > 0) inner.push({ type: 'CmdSubst', backtick: false, body: this.script(stmts, span), span });
      inner.push(...collectSubstitutions(n, this.words));
      if (this.words.parseText) {
        for (const c of childrenOf(n)) {
          // bash 5.3's `${ cmd; }` runs cmd; tree-sitter-bash cannot parse it.
          if (c.type !== '${' || !isFunsub(this.source, c.startIndex)) continue;
          inner.push(...siteParts([readBrace(this.source, c.startIndex, this.source.length, false).site], this.source, SAME, this.words.parseText));
        }
      }
    }
    return { type: 'Unparsed', reason, raw: n.text, inner, redirects: [], span };
  }

  private simpleCommand(n: TSNode, tail: StreamItem[]): SimpleCommand {
    const cmd: SimpleCommand = { type: 'SimpleCommand', assignments: [], words: [], redirects: [], span: spanOf(n) };
    const kids = childrenOf(n);
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      const field = n.fieldNameForChild(i);
      if (c.type === 'variable_assignment' && cmd.words.length === 0) cmd.assignments.push(this.assignment(c));
      else if (field === 'redirect' || REDIRECT_TYPES.has(c.type)) cmd.redirects.push(...this.redirect(c, cmd, tail));
      else if (c.type === 'command_name') {
        if (MISPLACED_RESERVED.has(c.text)) this.issues.push({ span: spanOf(c), text: c.text });
        const inner = c.namedChild(0);
        cmd.words.push(convertWord(inner ?? c, this.words));
      } else if ((c.isNamed && c.type !== 'comment') || field === 'argument') {
        // `rm -rf == x`: tree-sitter gives `==` and `=~` as anonymous tokens; they are words.
        cmd.words.push(convertWord(c, this.words));
        // A newline ends a command in bash, so no word starts with one; tree-sitter-bash takes a
        // line that starts with a backslash (`cd .⏎\rm -rf /`) as more words of the line before.
        // At a word boundary of a simple command a `;` is what bash reads there: parse again so.
        if (this.source[c.startIndex] === '\n') this.repairs.push({ span: { start: c.startIndex, end: c.startIndex + 1 }, mask: ';' });
      }
    }
    cmd.words = splitAtBlanks(joinAdjacentWords(cmd.words));
    return cmd;
  }

  /**
   * tree-sitter drops a word that sits between a command and its heredoc (`python3 - <<EOF`
   * loses the `-`). Text between the body and the first redirect is put back as words, or,
   * when it is not plain, reported as a parse issue rather than silently lost.
   */
  private recoverDroppedWords(body: TSNode | null, n: TSNode, owner: Command): void {
    if (!body) return;
    const firstRedirect = childrenOf(n).find((c) => REDIRECT_TYPES.has(c.type));
    if (!firstRedirect || firstRedirect.startIndex <= body.endIndex) return;
    const gap = this.source.slice(body.endIndex, firstRedirect.startIndex);
    if (gap.trim() === '') return;
    const start = body.endIndex + gap.search(/\S/);
    const text = gap.trim();
    if (owner.type === 'SimpleCommand' && /^[^\s'"$`\\|&;<>(){}*?[\]]+$/.test(text)) {
      const span = { start, end: start + text.length };
      owner.words.push({ type: 'Word', parts: [{ type: 'Literal', raw: text, span }], raw: text, span });
    } else this.issues.push({ span: { start, end: start + text.length }, text });
  }

  /** `export A=1 B`, `local x=$(…)`, `unset y`: the keyword and each argument become words. */
  private declaration(n: TSNode): SimpleCommand {
    const words: Word[] = [];
    for (const c of childrenOf(n)) {
      if (!c.isNamed) {
        if (words.length === 0) words.push(convertWord(c, this.words));
        continue;
      }
      if (c.type === 'variable_assignment') {
        const a = this.assignment(c);
        const nameEnd = (c.childForFieldName('value')?.startIndex ?? c.endIndex) as number;
        const parts: WordPart[] = [
          { type: 'Literal', raw: this.source.slice(c.startIndex, nameEnd), span: { start: c.startIndex, end: nameEnd } },
          ...(a.value?.parts ?? []),
          ...(a.array ?? []).flatMap((w) => w.parts),
          ...a.subscript,
        ];
        words.push(wordFromParts(parts, c.text, spanOf(c)));
      } else words.push(convertWord(c, this.words));
    }
    return { type: 'SimpleCommand', assignments: [], words, redirects: [], span: spanOf(n) };
  }

  private assignment(n: TSNode): Assignment {
    const nameNode = n.childForFieldName('name');
    const valueNode = n.childForFieldName('value');
    let name = nameNode?.text ?? '';
    const subscript: WordPart[] = [];
    if (nameNode?.type === 'subscript') {
      name = nameNode.childForFieldName('name')?.text ?? name;
      subscript.push(...arithmeticSubstitutions(nameNode, this.words, nameNode.startIndex, nameNode.endIndex));
    }
    const append = childrenOf(n).some((c) => c.type === '+=');
    let value: Word | null = null;
    let array: Word[] | null = null;
    if (valueNode?.type === 'array') {
      array = childrenOf(valueNode)
        .filter((c) => c.isNamed)
        .map((c) => convertWord(c, this.words));
    } else if (valueNode) value = convertWord(valueNode, this.words);
    else value = wordFromParts([], '', { start: n.endIndex, end: n.endIndex });
    return { type: 'Assignment', name, append, value, array, subscript, span: spanOf(n) };
  }

  private redirectsOf(n: TSNode, owner: Command, tail: StreamItem[]): Redirect[] {
    const out: Redirect[] = [];
    const kids = childrenOf(n);
    for (let i = 0; i < kids.length; i++) {
      if (n.fieldNameForChild(i) === 'redirect' || REDIRECT_TYPES.has(kids[i].type)) {
        out.push(...this.redirect(kids[i], owner, tail));
      }
    }
    return out;
  }

  /** One redirect node; heredoc nodes may carry more redirects, arguments and a list tail. */
  private redirect(n: TSNode, owner: Command, tail: StreamItem[]): Redirect[] {
    const span = spanOf(n);
    let fd: number | null = null;
    let op = '';
    let target: Word | null = null;
    const extra: Redirect[] = [];
    let heredocQuoted = false;
    let heredocBody: Word | null = null;
    const kids = childrenOf(n);
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      const field = n.fieldNameForChild(i);
      if (c.type === 'file_descriptor' || field === 'descriptor') fd = Number(c.text);
      else if (isReadWriteRedirect(c)) op = '<>';
      else if (!c.isNamed && !op && c.type !== '&&' && c.type !== '||' && c.type !== '|' && c.type !== '|&' && c.type !== ';') op = c.type;
      else if (c.type === 'heredoc_start') {
        heredocQuoted = /['"\\]/.test(c.text);
        target = convertWord(c, this.words);
      } else if (c.type === 'heredoc_body') {
        heredocBody = heredocQuoted
          ? wordFromParts([{ type: 'SingleQuoted', value: c.text, span: spanOf(c) }], c.text, spanOf(c))
          : wordFromParts(heredocParts(c, this.words), c.text, spanOf(c));
      } else if (c.type === 'heredoc_end') continue;
      else if (REDIRECT_TYPES.has(c.type)) extra.push(...this.redirect(c, owner, tail));
      else if (field === 'operator' || (!c.isNamed && LIST_OPS.has(c.type))) {
        if (!(c.type === ';' && this.source[c.startIndex] === '\n')) tail.push({ op: c.type as StreamItem['op'] & string });
      } else if (field === 'right' || (c.isNamed && STATEMENT_TYPES.has(c.type) && op.startsWith('<<') && op !== '<<<')) {
        if (c.type === 'pipeline' && c.child(0)?.type === '|') {
          // `cat <<EOF | sh`: the stream continues with a pipe.
          for (const k of childrenOf(c)) {
            if (!k.isNamed) tail.push({ op: k.type as StreamItem['op'] & string });
            else tail.push({ command: this.statement(k) });
          }
        } else tail.push({ command: this.statement(c) });
      } else if (field === 'argument' && owner.type === 'SimpleCommand') {
        const word = convertWord(c, this.words);
        // A newline ends a command in bash, so no word starts with one: tree-sitter read the
        // heredoc's body as words (`bash <<'EOF'` then a line starting with `\`). Reported, so
        // the lines are also read on their own.
        if (word.raw.startsWith('\n')) {
          this.issues.push({ span: word.span, text: word.raw.slice(0, 40) });
          this.repairs.push({ span: { start: c.startIndex, end: c.startIndex + 1 }, mask: ';' });
        }
        owner.words.push(word);
      } else if (c.isNamed && !target) target = convertWord(c, this.words);
      else if (c.isNamed && field === 'destination' && target !== null && target.span.end === c.startIndex) {
        // `> $f-$g.md5`: tree-sitter cuts the target at a bare `$`; glued pieces are one word.
        target = joinAdjacentWords([target, convertWord(c, this.words)])[0];
      } else if (c.isNamed && field === 'destination') {
        // `find . 2>/dev/null -exec rm {} \;`: tree-sitter files the words after a redirect
        // target under the redirect; for bash they are more arguments of the command.
        const next = n.nextSibling;
        if (/^\d+$/.test(c.text) && i === kids.length - 1 && next && REDIRECT_TYPES.has(next.type) && next.startIndex === c.endIndex) {
          // `>& /dev/tcp/h/p 0>&1`: the 0 is the descriptor of the redirect glued to it.
          this.gluedFd = { at: next.startIndex, fd: Number(c.text) };
        } else if (owner.type === 'SimpleCommand') owner.words.push(convertWord(c, this.words));
        else this.issues.push({ span: spanOf(c), text: c.text });
      }
    }
    if (n.type === 'herestring_redirect') op = '<<<';
    if (fd === null && this.gluedFd?.at === n.startIndex) {
      fd = this.gluedFd.fd;
      this.gluedFd = null;
    }
    const main: Redirect = {
      type: 'Redirect',
      op: op || '>',
      fd,
      target: target ?? wordFromParts([], '', { start: span.end, end: span.end }),
      heredoc: op.startsWith('<<') && op !== '<<<' ? { quoted: heredocQuoted, body: heredocBody ?? wordFromParts([], '', span) } : null,
      span,
    };
    return [main, ...extra];
  }
}
