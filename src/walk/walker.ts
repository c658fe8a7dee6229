/**
 * Flatten the AST into every simple command that could run, each with its context. The walker
 * keeps the shell state it can be sure of (working directory, variables assigned earlier on the
 * line, functions and aliases defined) and forgets it where control flow makes it uncertain.
 */
import type { Command, List, Redirect, Script, SimpleCommand, Span, Word, WordPart } from '../syntax/ast.js';
import type { ParseResult } from '../syntax/parser.js';
import { expandWord, staticValue, type ExpandScope } from '../expand/word.js';
import type { CoreFindingId } from '../verdict/catalog.js';
import type { Arg, CommandContext, RedirectTarget, WalkedCommand } from './types.js';
import { runArgv } from './run-argv.js';

export interface RawFinding {
  rule: CoreFindingId;
  detail: string;
  span: Span;
  command?: number;
}

export interface WalkOptions {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Parse nested command strings (`sh -c`, `eval`, aliases). */
  parse: (source: string) => ParseResult;
  /** How many scripts deep (`sh -c "sh -c …"`) to follow. */
  maxScriptDepth: number;
  /**
   * Where the argv of a command that a program runs starts (operand role `command` in its spec:
   * `strace -f CMD`, `ip netns exec NS CMD`), or null.
   */
  commandStart: (program: string, args: Arg[]) => number | null;
  /** Read `source FILE` contents when the file exists (bounded size). */
  readSource: (path: string) => string | null;
}

/** Shell state that flows along a sequence of commands. */
export interface Scope {
  cwd: string | null;
  vars: Map<string, string | null>;
  dirStack: (string | null)[];
}

export interface WalkResult {
  commands: WalkedCommand[];
  findings: RawFinding[];
}

/** Where spans of a nested script land in the original text. */
export interface SourceFrame {
  source: string;
  /** Map a span in `source` to the original command text. */
  map: (s: Span) => Span;
  scriptDepth: number;
}

export class Walker {
  readonly commands: WalkedCommand[] = [];
  readonly findings: RawFinding[] = [];
  readonly functions = new Set<string>();
  readonly aliases = new Set<string>();
  private pipelineIds = 0;
  /** Owners of the nested scripts being walked (`bash -c` for the commands inside it). */
  readonly owners: number[] = [];

  constructor(readonly options: WalkOptions) {}

  walkScript(script: Script, frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
    this.list(script.body, frame, ctx, scope);
  }

  finding(rule: CoreFindingId, detail: string, span: Span, command?: number): void {
    this.findings.push({ rule, detail, span, command });
  }

  expandScope(scope: Scope): ExpandScope {
    return { home: this.options.home, env: this.options.env, vars: scope.vars };
  }

  private list(list: List, frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
    const { items, operators } = list;
    let conditional = false;
    for (let i = 0; i < items.length; i++) {
      // An and-or list ended by `&` runs in the background as a whole.
      let background = false;
      for (let j = i; j < items.length; j++) {
        const op = operators[j];
        if (op === '&') background = true;
        if (op !== '&&' && op !== '||') break;
      }
      const op = operators[i];
      if (op && op !== '\n' && i < items.length - 1) {
        this.finding('chaining', `\`${op}\``, frame.map(items[i + 1].span));
      }
      if (background) this.finding('background', `\`${sourceText(frame, items[i].span)}\``, frame.map(items[i].span));
      const itemCtx: CommandContext = { ...ctx, background: ctx.background || background, conditional: ctx.conditional || conditional };
      // A background job runs in a subshell: its cd and assignments do not flow on.
      this.command(items[i], frame, itemCtx, background ? forkScope(scope) : scope, !conditional && !background);
      conditional = op === '&&' || op === '||' ? true : false;
    }
  }

  /** `certain`: the command surely runs in this shell, so its state changes are known. */
  command(cmd: Command, frame: SourceFrame, ctx: CommandContext, scope: Scope, certain: boolean): void {
    const inner = { ...ctx, depth: ctx.depth + 1 };
    switch (cmd.type) {
      case 'SimpleCommand':
        this.simple(cmd, frame, ctx, scope, certain);
        return;
      case 'List':
        this.list(cmd, frame, ctx, scope);
        break;
      case 'Pipeline': {
        const id = ++this.pipelineIds;
        if (cmd.commands.length > 1) this.finding('chaining', '`|`', frame.map(cmd.span));
        cmd.commands.forEach((c, index) => {
          const stage: CommandContext = {
            ...inner,
            negated: ctx.negated || cmd.negated,
            pipeline: cmd.commands.length > 1 ? { id, index, length: cmd.commands.length } : ctx.pipeline,
          };
          // Stages of a multi-command pipeline run in subshells.
          this.command(c, frame, stage, cmd.commands.length > 1 ? forkScope(scope) : scope, certain && cmd.commands.length === 1);
        });
        break;
      }
      case 'Subshell':
        this.list(cmd.body, frame, inner, forkScope(scope));
        break;
      case 'Group':
        this.list(cmd.body, frame, inner, scope);
        break;
      case 'FunctionDef':
        this.functions.add(cmd.name);
        this.command(cmd.body, frame, { ...inner, functionName: cmd.name, conditional: true }, forkScope(scope), false);
        break;
      case 'If': {
        const branch = { ...inner, conditional: true };
        for (const clause of cmd.clauses) {
          this.uncertain(scope, (s) => this.list(clause.condition, frame, branch, s));
          this.uncertain(scope, (s) => this.list(clause.body, frame, branch, s));
        }
        if (cmd.elseBody) this.uncertain(scope, (s) => this.list(cmd.elseBody!, frame, branch, s));
        break;
      }
      case 'For':
      case 'ArithFor':
      case 'While': {
        const loop = { ...inner, loop: true, conditional: true };
        if (cmd.type === 'For') {
          for (const w of cmd.items ?? []) this.wordSubstitutions(w.parts, frame, ctx, scope);
          scope.vars.set(cmd.variable, null);
        } else if (cmd.type === 'ArithFor') this.wordSubstitutions(cmd.inner, frame, ctx, scope);
        else this.uncertain(scope, (s) => this.list(cmd.condition, frame, loop, s));
        this.uncertain(scope, (s) => this.list(cmd.body, frame, loop, s));
        break;
      }
      case 'Case':
        this.wordSubstitutions(cmd.word.parts, frame, ctx, scope);
        for (const item of cmd.items) {
          for (const p of item.patterns) this.wordSubstitutions(p.parts, frame, ctx, scope);
          this.uncertain(scope, (s) => this.list(item.body, frame, { ...inner, conditional: true }, s));
        }
        break;
      case 'TestCommand':
        for (const w of cmd.words) this.wordSubstitutions(w.parts, frame, ctx, scope);
        break;
      case 'ArithCommand':
        this.wordSubstitutions(cmd.inner, frame, ctx, scope);
        break;
      case 'Unparsed':
        if (cmd.reason === 'too-deep') this.finding('depth-limit', 'syntax nesting', frame.map(cmd.span));
        else if (cmd.reason === 'unsupported') this.finding('unsupported-syntax', cmd.raw.slice(0, 40), frame.map(cmd.span));
        this.wordSubstitutions(cmd.inner, frame, ctx, scope);
        break;
    }
    if (cmd.redirects.length > 0) this.compoundRedirects(cmd.redirects, cmd.span, frame, ctx, scope);
  }

  /** Run `f` on a copy of the scope; what it changed becomes unknown afterwards. */
  private uncertain(scope: Scope, f: (s: Scope) => void): void {
    const copy = forkScope(scope);
    f(copy);
    if (copy.cwd !== scope.cwd) scope.cwd = null;
    for (const [k, v] of copy.vars) if (scope.vars.get(k) !== v) scope.vars.set(k, null);
  }

  /** Redirects on a compound command (`{ …; } > f`) become a command of their own. */
  private compoundRedirects(redirects: Redirect[], span: Span, frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
    const targets = this.redirectTargets(redirects, frame, ctx, scope);
    this.emit({ program: null, programRaw: '', args: [], assignments: [], redirects: targets, span: frame.map(span), text: '' }, ctx, scope);
  }

  /** Walk every command that runs while a word is expanded (substitutions), before the command. */
  wordSubstitutions(parts: WordPart[], frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
    for (const p of parts) {
      switch (p.type) {
        case 'CmdSubst':
        case 'ProcSubst': {
          const kind = p.type === 'CmdSubst' ? 'command' : p.direction === '<' ? 'process-in' : 'process-out';
          this.finding('substitution', `\`${sourceText(frame, p.span).slice(0, 60)}\``, frame.map(p.span));
          const sub: CommandContext = { ...ctx, substitution: kind, depth: ctx.depth + 1, pipeline: null };
          this.list(p.body.body, frame, sub, forkScope(scope));
          break;
        }
        case 'DoubleQuoted':
          this.wordSubstitutions(p.parts, frame, ctx, scope);
          break;
        case 'ParamExp':
        case 'ArithExp':
          this.wordSubstitutions(p.inner, frame, ctx, scope);
          break;
        default:
          break;
      }
    }
  }

  expandArgs(words: Word[], frame: SourceFrame, scope: Scope): Arg[] {
    const out: Arg[] = [];
    const es = this.expandScope(scope);
    for (const w of words) {
      const e = expandWord(w, es);
      const span = frame.map(w.span);
      for (const f of e.fields) out.push({ value: f, dynamic: e.dynamic, glob: e.glob, span });
    }
    return out;
  }

  redirectTargets(redirects: Redirect[], frame: SourceFrame, ctx: CommandContext, scope: Scope): RedirectTarget[] {
    const es = this.expandScope(scope);
    return redirects.map((r) => {
      this.wordSubstitutions(r.target.parts, frame, ctx, scope);
      const span = frame.map(r.span);
      if (r.heredoc) {
        if (!r.heredoc.quoted) this.wordSubstitutions(r.heredoc.body.parts, frame, ctx, scope);
        const e = expandWord(r.heredoc.body, es);
        return { op: r.op, fd: r.fd, path: null, dup: false, input: e.dynamic ? null : e.fields.join(' '), span };
      }
      if (r.op === '<<<') {
        const v = staticValue(r.target, es);
        return { op: r.op, fd: r.fd, path: null, dup: false, input: v === null ? null : v + '\n', span };
      }
      const e = expandWord(r.target, es);
      const value = e.fields.join(' ');
      const dup = (r.op === '>&' || r.op === '<&') && /^(\d+-?|-)$/.test(value);
      const path: Arg | null = dup ? null : { value, dynamic: e.dynamic || e.fields.length !== 1, glob: e.glob, span: frame.map(r.target.span) };
      if (!dup) this.finding('redirect', `${r.fd ?? ''}${r.op} ${r.target.raw}`, span);
      return { op: r.op, fd: r.fd, path, dup, input: null, span };
    });
  }

  private simple(cmd: SimpleCommand, frame: SourceFrame, ctx: CommandContext, scope: Scope, certain: boolean): void {
    for (const a of cmd.assignments) {
      if (a.value) this.wordSubstitutions(a.value.parts, frame, ctx, scope);
      for (const w of a.array ?? []) this.wordSubstitutions(w.parts, frame, ctx, scope);
      this.wordSubstitutions(a.subscript, frame, ctx, scope);
    }
    for (const w of cmd.words) this.wordSubstitutions(w.parts, frame, ctx, scope);
    const redirects = this.redirectTargets(cmd.redirects, frame, ctx, scope);
    const es = this.expandScope(scope);
    const assignments = cmd.assignments.map((a) => ({
      name: a.name,
      value: a.value && !a.append && a.subscript.length === 0 ? staticValue(a.value, es) : null,
    }));
    const span = frame.map(cmd.span);
    const text = sourceText(frame, cmd.span);
    if (cmd.words.length === 0) {
      // `X=1` alone sets shell variables for what follows.
      for (const a of assignments) scope.vars.set(a.name, certain ? a.value : null);
      this.emit({ program: null, programRaw: '', args: [], assignments, redirects, span, text }, ctx, scope);
      return;
    }
    const args = this.expandArgs(cmd.words, frame, scope);
    runArgv(this, { args, assignments, redirects, span, text, programRaw: cmd.words[0].raw }, frame, ctx, scope, certain, null);
  }

  emit(
    c: Pick<WalkedCommand, 'program' | 'programRaw' | 'args' | 'assignments' | 'redirects' | 'span' | 'text'> &
      Partial<Pick<WalkedCommand, 'parent' | 'calls' | 'execsStdin'>>,
    ctx: CommandContext,
    scope: Scope,
  ): WalkedCommand {
    const walked: WalkedCommand = {
      id: this.commands.length,
      program: c.program,
      programRaw: c.programRaw,
      args: c.args,
      assignments: c.assignments,
      redirects: c.redirects,
      context: ctx,
      cwd: scope.cwd,
      parent: c.parent ?? this.owners[this.owners.length - 1] ?? null,
      calls: c.calls ?? null,
      execsStdin: c.execsStdin ?? false,
      span: c.span,
      text: c.text,
    };
    this.commands.push(walked);
    return walked;
  }
}

export function forkScope(scope: Scope): Scope {
  return { cwd: scope.cwd, vars: new Map(scope.vars), dirStack: scope.dirStack.slice() };
}

export function sourceText(frame: SourceFrame, span: Span): string {
  return frame.source.slice(span.start, span.end);
}
