/**
 * What happens when an argv runs: name normalisation, shell state changes (cd, pushd, popd…),
 * calls to functions and aliases, and recursion into wrappers, `find -exec`, `xargs`, `sh -c`,
 * `eval`, `source`, and code stored for later (traps, prompt variables).
 */
import type { Span } from '../syntax/ast.js';
import type { Arg, CommandContext, RedirectTarget, WalkedCommand } from './types.js';
import type { SourceFrame } from './source-frame.js';
import type { Walker } from './walker-api.js';
import { forkScope, type Scope } from './scope.js';
import { unwrap, type Unwrapped } from './unwrap-wrappers.js';
import { registry } from '../programs/registry.js';
import { chdirTarget } from '../programs/chdir.js';
import { inlineCode, interpreterFamily } from '../programs/interpreters.js';
import { commandsInCode } from './interpreter-code.js';
import { DECLARATION_BUILTINS, trackShellState } from './shell-state.js';
import { callFunction, defineAliases, expandAlias } from './calls.js';
import { codeInAssignments, storedCode } from './code-variables.js';
import { nestedScript, nestedText, sourceFile, trackWrittenFiles, writtenText } from './nested-scripts.js';
import { commandVariable } from './command-env.js';
import { itemsAreNames, xargsItems, xargsSplit } from './xargs-input.js';
import { MODULE_PROGRAMS } from '../programs/hooks/interpreter.js';
import { placeName } from '../programs/hooks/code-text.js';
import type { PerMatchCommand } from '../programs/hook-types.js';

export interface ArgvCommand {
  args: Arg[];
  assignments: WalkedCommand['assignments'];
  redirects: RedirectTarget[];
  span: Span;
  text: string;
  programRaw: string;
  /** Source text after the program word (what follows an alias when bash expands it). */
  restText?: string;
  /**
   * How many of `assignments` (the first ones) came from the wrapper's own prefix
   * (`DOCKER_HOST=… nice docker …`): in the command's environment, but their code was walked once
   * already, with the wrapper.
   */
  inheritedAssignments?: number;
}

/** `/bin/rm`, `./x/rm`, `rm` → `rm`. Quotes and backslashes were removed by expansion. */
export function normaliseProgram(value: string): string {
  const slash = value.lastIndexOf('/');
  return slash >= 0 && slash < value.length - 1 ? value.slice(slash + 1) : value;
}

export function runArgv(
  w: Walker,
  c: ArgvCommand,
  frame: SourceFrame,
  ctx: CommandContext,
  scope: Scope,
  certain: boolean,
  parent: number | null,
  /** The word is a command word bash looks up as an alias and a function (not after a wrapper). */
  lookup = false,
): void {
  const first = c.args[0];
  const rest = c.args.slice(1);
  if (!first) {
    w.emit(
      { assignments: c.assignments, redirects: c.redirects, span: c.span, text: c.text, programRaw: c.programRaw, program: null, args: [], parent },
      ctx,
      scope,
    );
    return;
  }
  if (first.dynamic || first.glob) {
    const walked = w.emit(
      { assignments: c.assignments, redirects: c.redirects, span: c.span, text: c.text, program: null, programRaw: first.value, args: rest, parent },
      ctx,
      scope,
    );
    w.finding('dynamic-command', `\`${first.value}\``, first.span, walked.id);
    // `$p` set from `$(which python3 || which python)`: also walk it as each program it may be.
    const found = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(c.programRaw ?? '')?.[1];
    for (const name of found !== undefined ? (scope.found?.get(found) ?? []) : []) {
      runArgv(w, { ...c, args: [{ ...first, value: name, dynamic: false, glob: false }, ...rest] }, frame, ctx, scope, false, walked.id);
    }
    return;
  }
  const program = normaliseProgram(first.value);
  const programPath = first.value.includes('/') ? first.value : null;
  const fn = lookup && programPath === null ? scope.functions.get(first.value) : undefined;
  const calls = functionCall(first.value, fn);
  const walked = w.emit(
    {
      assignments: c.assignments,
      redirects: c.redirects,
      span: c.span,
      text: c.text,
      program,
      programRaw: c.programRaw,
      programPath,
      args: rest,
      parent,
      calls,
    },
    ctx,
    scope,
  );
  const own = c.inheritedAssignments ? c.assignments.slice(c.inheritedAssignments) : c.assignments;
  if (own.length > 0) codeInAssignments(w, walked, own, frame, ctx, scope);
  if (fn) callFunction(w, walked, first.value, fn, ctx, scope, certain);
  // An alias expands only for an unquoted command word, and only if alias expansion is on.
  const alias = lookup && c.programRaw === first.value ? scope.aliases.get(first.value) : undefined;
  if (alias !== undefined) expandAlias(w, walked, first.value, alias, c.restText ?? '', frame, ctx, scope);
  if (calls && !calls.maybe) return;
  for (const f of trackShellState(program, rest, scope, certain, w.expandScope(scope), c.assignments)) w.finding(f.rule, f.detail, walked.span, walked.id);
  trackWrittenFiles(w, walked, scope);
  w.lineLinks.record(program, rest, walked, scope.cwd, certain);
  storedCode(w, walked, frame, ctx, scope);
  if (DECLARATION_BUILTINS.has(program)) codeInAssignments(w, walked, declaredValues(rest), frame, ctx, scope);
  if (program === 'hash') trackHashed(w, rest);
  if (programPath === null) runHashed(w, c, first, rest, walked, frame, ctx, scope);

  if (program === 'alias') return defineAliases(w, walked, rest, frame, ctx, scope);
  const family = interpreterFamily(program);
  if (family !== null) interpreterCommands(w, walked, family, frame, ctx, scope);
  const execs = registry.get(program).hooks.execs;
  if (execs !== undefined) return perMatch(w, walked, program, execs(rest), frame, ctx, scope);
  if (program === 'source' || program === '.') return sourceFile(w, walked, rest, frame, ctx, scope, certain);
  // A non-interactive bash sources $BASH_ENV first (`BASH_ENV=f bash -c :`), a POSIX shell $ENV.
  const startup = startupFile(walked, program);
  if (startup === null) w.finding('dynamic-script', `a start-up file for ${program} named at run time`, walked.span, walked.id);
  else if (startup) sourceFile(w, walked, [{ value: startup, dynamic: false, glob: false, span: walked.span }], frame, ctx, forkScope(scope), false);

  runUnwrapped(w, c, walked, program, rest, frame, ctx, scope, certain);
  optionShellStrings(w, walked, program, rest, frame, ctx, scope);
}

/**
 * `tar --to-command=CMD`, `tar -I CMD`: a program that is no wrapper runs an option's value as a
 * shell command line (role `shell-string`), maybe once per file: walked as a script of its own.
 * A wrapper's (`su -c`) is its command, walked by runUnwrapped.
 */
function optionShellStrings(w: Walker, walked: WalkedCommand, program: string, rest: Arg[], frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
  if (registry.has(program, 'wrapper') || registry.has(program, 'shell')) return;
  for (const line of w.options.optionValues?.(program, rest, 'shell-string') ?? []) {
    const innerCtx: CommandContext = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `option-shell:${program}`], conditional: true, loop: true };
    nestedScript(w, walked, [line], frame, innerCtx, scope, { fresh: true });
  }
}

/**
 * `hash -p /usr/bin/rm ls; ls x`: the name may run the hashed program. Walk that too, as a command
 * inside this one (the name as written is still analysed: the hash may not have run).
 */
function runHashed(w: Walker, c: ArgvCommand, first: Arg, rest: Arg[], walked: WalkedCommand, frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
  const target = w.hashed.get(first.value);
  if (target === undefined || !target.includes('/')) return;
  const hashedCtx: CommandContext = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `hash:${first.value}`] };
  const argv: ArgvCommand = {
    args: [{ value: target, dynamic: false, glob: false, span: first.span }, ...rest],
    assignments: c.assignments,
    redirects: c.redirects,
    span: c.span,
    text: c.text,
    programRaw: target,
  };
  runArgv(w, argv, frame, hashedCtx, scope, false, walked.id);
}

/**
 * The command inside a wrapper (`sudo rm x`, `xargs rm`), `sh -c`/`eval` script, script file,
 * parallel jobs or shell reading stdin: unwrap-wrappers.ts or the program's spec says which.
 */
function runUnwrapped(
  w: Walker,
  c: ArgvCommand,
  walked: WalkedCommand,
  program: string,
  rest: Arg[],
  frame: SourceFrame,
  ctx: CommandContext,
  scope: Scope,
  certain: boolean,
): void {
  const u = unwrap(program, rest, walked.stdinText) ?? fromSpec(w, program, rest);
  if (!u) return;
  const innerCtx: CommandContext = {
    ...ctx,
    depth: ctx.depth + 1,
    via: [...ctx.via, `${viaKind(u, program)}:${program}`],
    privileged: ctx.privileged || u.privileged,
    remote: u.remote ?? ctx.remote,
  };
  // `command cd /` and `eval cd /` change this shell's directory (tag `same-shell`); other wrappers are programs.
  const sameShell = registry.has(program, 'same-shell');
  const env = innerEnvironment(c, u);
  // `env -C DIR cmd`, `sudo -D DIR cmd`: what the wrapper runs starts in DIR, in a process of its own.
  const own = (): Scope => movedScope(forkScope(scope), u.chdir);
  const outer = u.chdir.length > 0 ? own() : scope;
  switch (u.inner.kind) {
    case 'argv': {
      const base = rest.slice(u.inner.start);
      const token = u.inner.replace;
      if (token === undefined && u.inner.extraArgs !== 'stdin') {
        const redirects = c.redirects.map((r): RedirectTarget => ({
          op: r.op,
          fd: r.fd,
          path: r.path,
          dup: r.dup,
          input: r.input,
          span: r.span,
          inherited: true,
        }));
        // The program word as written (`sudo w'h'o'am'i`): spelling tricks stay visible inside wrappers.
        const inner: ArgvCommand = { ...c, ...env, args: base, redirects, programRaw: base[0]?.raw ?? base[0]?.value ?? '' };
        // `command cd /` and `builtin cd /` change this shell's directory; other wrappers are programs.
        if (sameShell) runArgv(w, inner, frame, innerCtx, scope, certain, walked.id);
        else runArgv(w, inner, frame, innerCtx, own(), false, walked.id);
        return;
      }
      for (const args of stdinArgvs(w, walked, program, rest, base, token)) {
        const inner: ArgvCommand = { ...c, ...env, args, redirects: [], programRaw: args[0]?.value ?? '' };
        runArgv(w, inner, frame, innerCtx, own(), false, walked.id);
      }
      return;
    }
    case 'shell':
      // `eval` runs in this shell; `sh -c`, `su -c`, `ssh host` in another.
      return nestedScript(w, walked, u.inner.script, frame, innerCtx, outer, sameShell ? { sameShell, certain } : { fresh: true });
    case 'script-file': {
      // `bash <(echo 'rm -rf ~')`: the script is what the process substitution prints;
      // `echo '…' > f; bash f`: what was written to f earlier on the line.
      const file = u.inner.file;
      // `bash /dev/stdin <<< '…'` reads its script from stdin, like `bash -s`.
      const fromStdin = !file.dynamic && /^\/dev\/(stdin|fd\/0)$/.test(file.value);
      if (fromStdin) walked.execsStdin = true;
      const text = fromStdin ? (walked.stdinText ?? undefined) : (file.fileText ?? writtenText(w, file, scope));
      if (text !== undefined) nestedText(w, walked, text, file.span, frame, innerCtx, outer, { coarse: true, fresh: true });
      return;
    }
    case 'jobs':
      for (const job of u.inner.scripts) nestedScript(w, walked, [job], frame, innerCtx, outer, { fresh: true });
      return;
    case 'stdin-shell': {
      walked.execsStdin = true;
      const input = walked.stdinText;
      if (input) nestedText(w, walked, input, walked.span, frame, { ...innerCtx, via: [...ctx.via, `shell-stdin:${program}`] }, outer, { fresh: true });
      return;
    }
    default:
      return;
  }
}

/** A wrapped command's scope after the wrapper's `chdir` options (null: a directory not known here). */
function movedScope(scope: Scope, dirs: Arg[]): Scope {
  for (const d of dirs) scope.cwd = chdirTarget(d, scope.cwd);
  return scope;
}

/**
 * The environment a wrapped command starts with: the wrapper's own prefix assignments pass through
 * (`DOCKER_HOST=tcp://h:2375 nice docker …` runs docker with DOCKER_HOST set, as `timeout`,
 * `nohup`, `command`, `xargs` do), then what the wrapper itself sets (`env X=1 cmd`). A wrapper that
 * raises privileges (sudo, doas) resets the environment by default (sudo's env_reset; doas keeps
 * only a fixed few), so its prefix does not reach the command: `LD_PRELOAD=x.so sudo ls` does not
 * preload into ls.
 */
function innerEnvironment(c: ArgvCommand, u: Unwrapped): Pick<ArgvCommand, 'assignments' | 'inheritedAssignments'> {
  const inherited = u.privileged ? [] : c.assignments;
  return { assignments: [...inherited, ...u.assignments], inheritedAssignments: inherited.length };
}

/** A function surely defined here runs instead of the program; one that may not be defined, both. */
function functionCall(name: string, fn: { certain: boolean } | undefined): WalkedCommand['calls'] {
  if (!fn) return null;
  if (fn.certain) return { kind: 'function', name };
  return { kind: 'function', name, maybe: true };
}

/** The start-up file a non-interactive shell sources: $BASH_ENV for bash, $ENV for a POSIX shell (null: named at run time). */
function startupFile(walked: WalkedCommand, program: string): string | null | undefined {
  if (program === 'bash') return commandVariable(walked, 'BASH_ENV');
  if (registry.has(program, 'posix-shell')) return commandVariable(walked, 'ENV');
  return undefined;
}

/** How the inner command is reached, the first half of its `via` step. */
function viaKind(u: Unwrapped, program: string): string {
  if (u.remote) return 'remote';
  if (u.inner.kind !== 'shell') return 'wrapper';
  if (program === 'eval') return 'eval';
  return 'shell-c';
}

/**
 * The argvs a command fed from stdin runs (`xargs rm`): one per input line when the input is known,
 * else one with a dynamic `{stdin}`. `token` is xargs' `-I` replace string.
 */
function stdinArgvs(w: Walker, walked: WalkedCommand, program: string, rest: Arg[], command: Arg[], token: string | undefined): Arg[][] {
  // xargs: with no command it runs echo; what it reads from stdin becomes arguments.
  const base: Arg[] = command.length > 0 ? command : [{ value: 'echo', dynamic: false, glob: false, span: walked.span }];
  const input = program === 'xargs' ? xargsItems(walked.stdinText, rest, token !== undefined) : { items: null, cut: false };
  if (input.cut) w.finding('expansion-limit', 'the input xargs reads is longer than shellgate follows', walked.span, walked.id);
  const runs: Arg[][] = [];
  const names = program === 'xargs' && input.items === null ? producedItems(w, walked, rest, token) : null;
  if (names !== null) {
    // One run per pattern the producer's names match: each item is a path under it.
    for (const item of names) runs.push(token !== undefined ? base.map((a) => placeName(a, token, () => item)) : [...base, item]);
  } else if (input.items === null) {
    const unknown: Arg = { value: '{stdin}', dynamic: true, glob: false, span: walked.span };
    runs.push(
      token !== undefined
        ? base.map((a) => (a.value.includes(token) ? { ...a, value: a.value.split(token).join('{stdin}'), dynamic: true } : a))
        : [...base, unknown],
    );
  } else if (token !== undefined) {
    for (const line of input.items) runs.push(base.map((a) => (a.value.includes(token) ? { ...a, value: a.value.split(token).join(line) } : a)));
  } else {
    runs.push([...base, ...input.items.map((v) => ({ value: v, dynamic: false, glob: false, span: walked.span }))]);
  }
  return runs;
}

/**
 * The items xargs reads from a producer of file names (`find . -print0 | xargs -0`): a produced
 * pattern per root when every item is one name (walk/xargs-input.ts `itemsAreNames`); null when
 * nothing produced them, or when the split may cut a name — then the finding says why.
 */
function producedItems(w: Walker, walked: WalkedCommand, rest: Arg[], token: string | undefined): Arg[] | null {
  // `-a FILE`: the items come from FILE, not from what is piped in.
  if (rest.some((a) => /^(-a|--arg-file)/.test(a.value))) return null;
  const names = w.namesPipedTo(walked);
  if (names === null) return null;
  const split = xargsSplit(rest, token !== undefined);
  if (split === 'other') {
    w.finding('split-names', 'xargs splits the names it reads by a separator the names may hold', walked.span, walked.id);
    return null;
  }
  // NUL-split, newline-separated names come as one item, which still starts under the root. Split
  // at blanks (or lines of names printed raw), an item is a whole name only if no name holds a
  // separator: the operations read that from the disk (Arg.splitAt, paths/name-scan.ts).
  const exact = split === 'nul' || itemsAreNames(split, names);
  return names.patterns.map((value) => ({
    value,
    glob: true,
    produced: true,
    dynamic: false,
    span: walked.span,
    ...(names.dashFirst ? { dashFirst: true } : {}),
    ...(exact ? {} : { splitAt: split }),
  }));
}

/** `export NAME=VALUE…` as assignments (value as written; null when dynamic). */
function declaredValues(args: Arg[]): { name: string; value: string | null }[] {
  const out: { name: string; value: string | null }[] = [];
  for (const a of args) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(a.value);
    if (m) out.push({ name: m[1], value: a.dynamic ? null : a.value.slice(m[0].length) });
  }
  return out;
}

/** Programs whose spec gives an operand the role `command` run that argv (data-defined wrappers). */
function fromSpec(w: Walker, program: string, args: Arg[]): ReturnType<typeof unwrap> {
  const start = w.options.commandStart(program, args);
  if (start === null) return null;
  // `systemd-run --working-directory=DIR CMD`: the options before the command say where it runs.
  const chdir = w.options.optionValues?.(program, args.slice(0, start), 'chdir') ?? [];
  return { wrapper: program, inner: { kind: 'argv', start }, privileged: false, remote: null, assignments: [], chdir };
}

/** `find … -exec CMD {} ;`, `fd … -x CMD`: CMD runs once per match (programs/hooks say which commands). */
function perMatch(w: Walker, walked: WalkedCommand, program: string, execs: PerMatchCommand[], frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
  for (const exec of execs) {
    const innerCtx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `${program}-exec:${exec.primary}`], conditional: true, loop: true };
    const cmd: ArgvCommand = { args: exec.args, assignments: [], redirects: [], span: walked.span, text: walked.text, programRaw: exec.args[0]?.value ?? '' };
    runArgv(w, cmd, frame, innerCtx, forkScope(scope), false, walked.id);
  }
}

/** `python3 [-I -E …] -m MODULE ARGS…` where MODULE is a program of its own (pip): the module word and the rest. */
function moduleProgram(args: Arg[]): { name: string; word: Arg; rest: Arg[] } | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic) return null;
    if (a.value === '-m') {
      const m = args[i + 1];
      return m !== undefined && !m.dynamic && MODULE_PROGRAMS.has(m.value) ? { name: m.value, word: m, rest: args.slice(i + 2) } : null;
    }
    if (!/^-[BEIsSuqb]+$/.test(a.value)) return null;
  }
  return null;
}

/** `hash -p PATH NAME…` (or `-pPATH`): each NAME now runs PATH. */
function trackHashed(w: Walker, args: Arg[]): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic || !a.value.startsWith('-p')) continue;
    const path = a.value.length > 2 ? a.value.slice(2) : args[++i]?.value;
    if (path === undefined) return;
    for (const n of args.slice(i + 1)) if (!n.dynamic && !n.value.startsWith('-')) w.hashed.set(n.value, path);
    return;
  }
}

/** Shell commands followed in one interpreter program; more ask (expansion-limit). */
const MAX_INTERPRETER_COMMANDS = 16;

/** Shell commands found in an interpreter's inline program (`python -c "os.system('…')"`). */
function interpreterCommands(w: Walker, walked: WalkedCommand, family: string, frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
  const module = family === 'python' ? moduleProgram(walked.args) : null;
  if (module !== null) {
    // `python3 -m pip list`: pip runs with the rest of the argv, judged by pip's spec.
    const args = [{ ...module.word, value: module.name }, ...module.rest];
    const cmd: ArgvCommand = { args, assignments: [], redirects: [], span: walked.span, text: walked.text, programRaw: module.name };
    runArgv(w, cmd, frame, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `python-m:${module.name}`] }, forkScope(scope), false, walked.id);
    return;
  }
  const code = inlineCode(walked.program!, walked.args, walked.stdinText);
  if (code === null) return;
  const innerCtx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `interpreter:${walked.program}`] };
  const scripts = commandsInCode(family, code);
  if (scripts.length > MAX_INTERPRETER_COMMANDS)
    w.finding(
      'expansion-limit',
      `${scripts.length} shell commands in ${walked.program}'s program, ${MAX_INTERPRETER_COMMANDS} followed`,
      walked.span,
      walked.id,
    );
  for (const script of scripts.slice(0, MAX_INTERPRETER_COMMANDS))
    nestedText(w, walked, script, walked.span, frame, innerCtx, scope, { coarse: true, fresh: true });
}
