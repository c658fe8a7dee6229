/**
 * What happens when an argv runs: name normalisation, shell state changes (cd, pushd, popd),
 * links to functions and aliases, and recursion into wrappers, `find -exec`, `sh -c`, `eval`,
 * `source` and aliases.
 */
import type { Span } from '../syntax/ast.js';
import type { Arg, CommandContext, RedirectTarget, WalkedCommand } from './types.js';
import type { Scope, SourceFrame, Walker } from './walker.js';
import { forkScope } from './walker.js';
import { unwrap } from './unwrap-wrappers.js';
import { resolvePath } from '../paths/resolve.js';
import { inlineCode, interpreterFamily } from '../ops/interpreters.js';
import { commandsInCode } from './interpreter-code.js';
import { printedByArgs } from './printed-text.js';

export interface ArgvCommand {
  args: Arg[];
  assignments: WalkedCommand['assignments'];
  redirects: RedirectTarget[];
  span: Span;
  text: string;
  programRaw: string;
}

/** `/bin/rm`, `./x/rm`, `rm` → `rm`. Quotes and backslashes were removed by expansion. */
export function normaliseProgram(value: string): string {
  const slash = value.lastIndexOf('/');
  return slash >= 0 && slash < value.length - 1 ? value.slice(slash + 1) : value;
}

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

export function runArgv(
  w: Walker,
  c: ArgvCommand,
  frame: SourceFrame,
  ctx: CommandContext,
  scope: Scope,
  certain: boolean,
  parent: number | null,
): void {
  const [first, ...rest] = c.args;
  if (!first) {
    w.emit({ assignments: c.assignments, redirects: c.redirects, span: c.span, text: c.text, programRaw: c.programRaw, program: null, args: [], parent }, ctx, scope);
    return;
  }
  if (first.dynamic || first.glob) {
    const walked = w.emit({ assignments: c.assignments, redirects: c.redirects, span: c.span, text: c.text, program: null, programRaw: first.value, args: rest, parent }, ctx, scope);
    w.finding('dynamic-command', `\`${first.value}\``, first.span, walked.id);
    return;
  }
  const program = normaliseProgram(first.value);
  const calls = w.functions.has(first.value)
    ? { kind: 'function' as const, name: first.value }
    : w.aliases.has(first.value)
      ? { kind: 'alias' as const, name: first.value }
      : null;
  const programPath = first.value.includes('/') ? first.value : null;
  const walked = w.emit({ assignments: c.assignments, redirects: c.redirects, span: c.span, text: c.text, program, programRaw: c.programRaw, programPath, args: rest, parent, calls }, ctx, scope);
  if (calls) return;
  trackShellState(w, program, rest, scope, certain);
  trackWrittenFiles(w, walked, scope);
  w.lineLinks.record(program, rest, walked, scope.cwd, certain);
  if (program === 'hash') trackHashed(w, rest);
  // `hash -p /usr/bin/rm ls; ls x`: the name may run the hashed program. Walk that too, as a
  // command inside this one (the name as written is still analysed: the hash may not have run).
  const target = programPath === null ? w.hashed.get(first.value) : undefined;
  if (target !== undefined && target.includes('/')) {
    const hashedCtx: CommandContext = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `hash:${first.value}`] };
    const argv: ArgvCommand = { args: [{ value: target, dynamic: false, glob: false, span: first.span }, ...rest], assignments: c.assignments, redirects: c.redirects, span: c.span, text: c.text, programRaw: target };
    runArgv(w, argv, frame, hashedCtx, scope, false, walked.id);
  }

  if (program === 'alias') return defineAliases(w, rest, frame, ctx, scope);
  const family = interpreterFamily(program);
  if (family !== null) interpreterCommands(w, walked, family, frame, ctx, scope);
  if (program === 'find') return findExec(w, walked, rest, frame, ctx, scope);
  if (program === 'source' || program === '.') return sourceFile(w, walked, rest, frame, ctx, scope);
  // A non-interactive bash sources $BASH_ENV first (`BASH_ENV=f bash -c :`).
  const bashEnv = program === 'bash' ? walked.assignments.find((a) => a.name === 'BASH_ENV')?.value : null;
  if (bashEnv) sourceFile(w, walked, [{ value: bashEnv, dynamic: false, glob: false, span: walked.span }], frame, ctx, scope);

  const u = unwrap(program, rest, walked.stdinText) ?? fromSpec(w, program, rest);
  if (!u) return;
  const innerCtx: CommandContext = {
    ...ctx,
    depth: ctx.depth + 1,
    via: [...ctx.via, `${u.remote ? 'remote' : u.inner.kind === 'shell' ? (program === 'eval' ? 'eval' : 'shell-c') : 'wrapper'}:${program}`],
    privileged: ctx.privileged || u.privileged,
    remote: u.remote ?? ctx.remote,
  };
  switch (u.inner.kind) {
    case 'argv': {
      const base = rest.slice(u.inner.start);
      const token = u.inner.replace;
      if (token === undefined && u.inner.extraArgs !== 'stdin') {
        const redirects = c.redirects.map((r): RedirectTarget => ({ op: r.op, fd: r.fd, path: r.path, dup: r.dup, input: r.input, span: r.span, inherited: true }));
        const inner: ArgvCommand = { ...c, args: base, assignments: u.assignments, redirects, programRaw: base[0]?.value ?? '' };
        runArgv(w, inner, frame, innerCtx, forkScope(scope), false, walked.id);
        return;
      }
      // xargs: with no command it runs echo; what it reads from stdin becomes arguments.
      if (base.length === 0) base.push({ value: 'echo', dynamic: false, glob: false, span: walked.span });
      const input = program === 'xargs' && !rest.some((a) => /^(-a|--arg-file)/.test(a.value)) ? xargsInput(walked.stdinText, rest, token !== undefined) : null;
      const runs: Arg[][] = [];
      if (input === null) {
        const unknown: Arg = { value: '{stdin}', dynamic: true, glob: false, span: walked.span };
        runs.push(token !== undefined ? base.map((a) => (a.value.includes(token) ? { ...a, value: a.value.split(token).join('{stdin}'), dynamic: true } : a)) : [...base, unknown]);
      } else if (token !== undefined) {
        for (const line of input) runs.push(base.map((a) => (a.value.includes(token) ? { ...a, value: a.value.split(token).join(line) } : a)));
      } else {
        runs.push([...base, ...input.map((v) => ({ value: v, dynamic: false, glob: false, span: walked.span }))]);
      }
      for (const args of runs) {
        const inner: ArgvCommand = { ...c, args, assignments: u.assignments, redirects: [], programRaw: args[0]?.value ?? '' };
        runArgv(w, inner, frame, innerCtx, forkScope(scope), false, walked.id);
      }
      return;
    }
    case 'shell':
      return nestedScript(w, walked, u.inner.script, frame, innerCtx, scope);
    case 'script-file': {
      // `bash <(echo 'rm -rf ~')`: the script is what the process substitution prints;
      // `echo '…' > f; bash f`: what was written to f earlier on the line.
      const file = u.inner.file;
      // `bash /dev/stdin <<< '…'` reads its script from stdin, like `bash -s`.
      const fromStdin = !file.dynamic && /^\/dev\/(stdin|fd\/0)$/.test(file.value);
      if (fromStdin) walked.execsStdin = true;
      const text = fromStdin ? (walked.stdinText ?? undefined) : (file.fileText ?? writtenText(w, file, scope));
      if (text !== undefined) nestedText(w, walked, text, file.span, frame, innerCtx, scope, true);
      return;
    }
    case 'jobs':
      for (const job of u.inner.scripts) nestedScript(w, walked, [job], frame, innerCtx, scope);
      return;
    case 'stdin-shell': {
      walked.execsStdin = true;
      const input = walked.stdinText;
      if (input) nestedText(w, walked, input, walked.span, frame, { ...innerCtx, via: [...ctx.via, `shell-stdin:${program}`] }, scope);
      return;
    }
    default:
      return;
  }
}

/** Programs whose spec gives an operand the role `command` run that argv (data-defined wrappers). */
function fromSpec(w: Walker, program: string, args: Arg[]): ReturnType<typeof unwrap> {
  const start = w.options.commandStart(program, args);
  if (start === null) return null;
  return { wrapper: program, inner: { kind: 'argv', start }, privileged: false, remote: null, assignments: [] };
}

/** cd / pushd / popd change the directory later relative paths resolve against. */
const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

function trackShellState(w: Walker, program: string, args: Arg[], scope: Scope, certain: boolean): void {
  if (DECLARATIONS.has(program)) {
    // `export X=1` sets X like `X=1` does; `export`, `declare -x` (and any assignment under
    // `set -a`) also put it in the environment of every later command.
    const flags = args.filter((a) => /^[-+][A-Za-z]+$/.test(a.value)).map((a) => a.value);
    const unexport = flags.some((f) => f.startsWith('-') && f.includes('n')) && program === 'export';
    const exporting = !unexport && (program === 'export' || flags.some((f) => f.startsWith('-') && f.includes('x')) || scope.allexport);
    for (const a of args) {
      if (/^[-+][A-Za-z]+$/.test(a.value)) continue;
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=|$)/.exec(a.value);
      if (!m) continue;
      if (a.value.includes('=')) scope.vars.set(m[1], certain && !a.dynamic && !a.glob ? a.value.slice(m[0].length) : null);
      // Un-exporting is only sure when it surely ran; exporting counts even when it may have.
      if (exporting) scope.exports.add(m[1]);
      else if (unexport && certain) scope.exports.delete(m[1]);
    }
    return;
  }
  if (program === 'set') {
    // `set -a` / `set -o allexport`: later assignments are exported (`set +a` ends it, when sure).
    for (let i = 0; i < args.length; i++) {
      const v = args[i].value;
      const on = v.startsWith('-');
      if ((/^[-+][A-Za-z]*a/.test(v) && !/^[-+]o$/.test(v)) || (/^[-+]o$/.test(v) && args[i + 1]?.value === 'allexport')) {
        if (on) scope.allexport = true;
        else if (certain) scope.allexport = false;
      }
    }
    return;
  }
  if (program === 'read' || program === 'mapfile' || program === 'readarray' || program === 'unset') {
    for (const a of args) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.value)) scope.vars.set(a.value, null);
    return;
  }
  if (program !== 'cd' && program !== 'pushd' && program !== 'popd') return;
  const target = args.find((a) => !a.value.startsWith('-') || a.value === '-');
  let next: string | null;
  if (program === 'popd') {
    next = scope.dirStack.length > 0 ? scope.dirStack.pop()! : null;
  } else if (!target) {
    next = program === 'cd' ? w.options.home : null;
  } else if (target.dynamic || target.glob || target.value === '-') {
    next = null;
  } else {
    next = scope.cwd === null && !target.value.startsWith('/') ? null : resolvePath(target.value, scope.cwd ?? '/');
  }
  if (program === 'pushd') scope.dirStack.push(scope.cwd);
  scope.cwd = certain ? next : null;
}

function defineAliases(w: Walker, args: Arg[], frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
  for (const a of args) {
    const eq = a.value.indexOf('=');
    if (eq <= 0) continue;
    w.aliases.add(a.value.slice(0, eq));
    const owner = w.commands[w.commands.length - 1];
    const value: Arg = { ...a, value: a.value.slice(eq + 1) };
    nestedScript(w, owner, [value], frame, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'alias:' + a.value.slice(0, eq)], conditional: true }, scope);
  }
}

/** At most this many xargs invocations are built from known input. */
const MAX_XARGS_RUNS = 16;

/**
 * What xargs reads, when its stdin is known: lines for -I (one run each), else blank-separated
 * words (NUL-separated with -0, DELIM-separated with -d). Null when stdin is unknown.
 */
function xargsInput(stdin: string | null, args: Arg[], perLine: boolean): string[] | null {
  if (stdin === null) return null;
  const nul = args.some((a) => a.value === '-0' || a.value === '--null');
  const delim = args.find((a) => /^(-d|--delimiter)/.test(a.value));
  let items: string[];
  if (nul) items = stdin.split('\0');
  else if (delim) return null; // custom delimiters: not modelled
  else if (perLine) items = stdin.split('\n').map((l) => l.replace(/^[ \t]+/, ''));
  else items = stdin.split(/[ \t\n]+/);
  items = items.filter((x) => x !== '');
  return items.slice(0, perLine ? MAX_XARGS_RUNS : 4096);
}

/** `find … -exec CMD {} ;` runs CMD once per match; `{}` stands for paths under the roots. */
function findExec(w: Walker, walked: WalkedCommand, args: Arg[], frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
  const roots: string[] = [];
  for (const a of args) {
    if (a.value.startsWith('-') || a.value === '(' || a.value === '!') break;
    roots.push(a.value);
  }
  const root = roots.length === 1 && !args[0].dynamic ? roots[0].replace(/\/+$/, '') || '/' : null;
  for (let i = 0; i < args.length; i++) {
    if (!FIND_EXEC.has(args[i].value)) continue;
    let end = i + 1;
    while (end < args.length && args[end].value !== ';' && args[end].value !== '+') end++;
    const inner = args.slice(i + 1, end).map((a): Arg =>
      a.value.includes('{}')
        ? root !== null
          ? { ...a, value: a.value.replace('{}', `${root === '/' ? '' : root}/**`), glob: true }
          : { ...a, dynamic: true }
        : a,
    );
    const innerCtx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `find-exec:${args[i].value}`], conditional: true, loop: true };
    const cmd: ArgvCommand = { args: inner, assignments: [], redirects: [], span: walked.span, text: walked.text, programRaw: inner[0]?.value ?? '' };
    runArgv(w, cmd, frame, innerCtx, forkScope(scope), false, walked.id);
    i = end;
  }
}

function sourceFile(w: Walker, walked: WalkedCommand, args: Arg[], frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
  const file = args[0];
  if (file?.fileText !== undefined) {
    nestedText(w, walked, file.fileText, file.span, frame, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'source:<(…)'] }, scope, true);
    return;
  }
  if (!file || file.dynamic || file.glob) return;
  // `source /dev/stdin` (or `.` with no file on some shells) runs what stdin holds.
  if (/^\/dev\/(stdin|fd\/0)$/.test(file.value) || file.value === '-') {
    walked.execsStdin = true;
    if (walked.stdinText !== null) nestedText(w, walked, walked.stdinText, walked.span, frame, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'source:stdin'] }, scope, true);
    return;
  }
  if (scope.cwd === null) return;
  const path = resolvePath(file.value, scope.cwd);
  const innerCtx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'source:' + file.value] };
  // What the line wrote there, and what is on disk now (the write may not happen): both may run.
  const written = writtenText(w, file, scope);
  if (written !== undefined) nestedText(w, walked, written, file.span, frame, innerCtx, scope, true);
  const text = w.options.readSource(path);
  if (text === null || text === written) return;
  nestedText(w, walked, text, file.span, frame, innerCtx, scope, true);
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

/** Output redirects of a command that prints constant text record it; any other write forgets. */
function trackWrittenFiles(w: Walker, walked: WalkedCommand, scope: Scope): void {
  for (const r of walked.redirects) {
    if (r.path === null || r.dup || r.inherited || !(r.op === '>' || r.op === '>|' || r.op === '>>' || r.op === '&>')) continue;
    if (r.path.dynamic || r.path.glob || scope.cwd === null) continue;
    const path = resolvePath(r.path.value, scope.cwd);
    const fd = r.fd ?? 1;
    const printed = fd !== 1 && r.op !== '&>' ? null : printedBy(walked);
    const before = w.writtenFiles.get(path);
    const text = printed === null ? null : r.op === '>>' ? (before === undefined || before === null ? null : before + printed) : printed;
    w.writtenFiles.set(path, text);
  }
}

/** Constant stdout of echo, printf, or cat reading a known stdin (a heredoc). */
function printedBy(c: WalkedCommand): string | null {
  if (c.program === 'cat' && c.args.length === 0) return c.stdinText;
  return printedByArgs(c.program, c.args);
}

function writtenText(w: Walker, file: Arg, scope: Scope): string | undefined {
  if (file.dynamic || file.glob || scope.cwd === null) return undefined;
  return w.writtenFiles.get(resolvePath(file.value, scope.cwd)) ?? undefined;
}

/** Shell commands found in an interpreter's inline program (`python -c "os.system('…')"`). */
function interpreterCommands(w: Walker, walked: WalkedCommand, family: string, frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
  const code = inlineCode(walked.program!, walked.args, walked.stdinText);
  if (code === null) return;
  const innerCtx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `interpreter:${walked.program}`] };
  for (const script of commandsInCode(family, code).slice(0, 16)) nestedText(w, walked, script, walked.span, frame, innerCtx, scope, true);
}

/** A shell string given as arguments (joined by spaces, as `eval` and `sh -c` see them). */
function nestedScript(w: Walker, owner: WalkedCommand, parts: Arg[], frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
  if (parts.length === 0) return;
  const span = { start: parts[0].span.start, end: parts[parts.length - 1].span.end };
  if (parts.some((p) => p.dynamic)) {
    w.finding('dynamic-script', `\`${parts.map((p) => p.value).join(' ').slice(0, 60)}\``, span, owner.id);
    return;
  }
  nestedText(w, owner, parts.map((p) => p.value).join(' '), span, frame, ctx, scope);
}

function nestedText(
  w: Walker,
  owner: WalkedCommand,
  text: string,
  span: Span,
  frame: SourceFrame,
  ctx: CommandContext,
  scope: Scope,
  coarse = false,
): void {
  if (frame.scriptDepth + 1 > w.options.maxScriptDepth) {
    w.finding('depth-limit', `${w.options.maxScriptDepth} nested scripts`, span, owner.id);
    return;
  }
  const parsed = w.options.parse(text);
  // Spans map exactly when the text sits verbatim in the top-level command, else onto `span`.
  const at = !coarse && frame.map === identity ? frame.source.indexOf(text, span.start) : -1;
  const exact = at >= 0 && at + text.length <= span.end;
  const inner: SourceFrame = {
    source: text,
    scriptDepth: frame.scriptDepth + 1,
    map: exact ? (s) => ({ start: at + s.start, end: at + s.end }) : () => span,
  };
  for (const issue of parsed.issues) {
    w.finding('parse-error', `\`${issue.text.slice(0, 40)}\` in a nested command`, inner.map(issue.span), owner.id);
  }
  w.owners.push(owner.id);
  try {
    const nested = forkScope(scope);
    if (ctx.remote !== null && !scope.remote) {
      // On the remote host: another filesystem, home and environment.
      nested.remote = true;
      nested.cwd = null;
      nested.vars = new Map();
    }
    w.walkScript(parsed.script, inner, ctx, nested);
  } finally {
    w.owners.pop();
  }
}

export const identity = (s: Span): Span => s;
