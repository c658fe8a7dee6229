/**
 * Scripts inside a command: `sh -c STRING`, `eval`, `source FILE`, a heredoc fed to a shell, a
 * script written earlier on the line and run, an alias's text. Each is parsed and walked as a
 * script of its own, its spans mapped back into the original command.
 *
 * Which shell it runs in decides what its state changes reach: `eval`, `source`, a function body
 * and an alias run in *this* shell (a `cd` there moves later commands), `sh -c` in a new one.
 */
import { unknownCode } from '../programs/hooks/code-text.js';
import type { Span } from '../syntax/ast.js';
import type { Arg, CommandContext, WalkedCommand } from './types.js';
import { identity, type SourceFrame } from './source-frame.js';
import type { Walker } from './walker-api.js';
import { forgetState, forkScope, withCertainty, type Scope } from './scope.js';
import { resolvePath } from '../expand/paths.js';
import { printedByArgs } from './printed-text.js';
import { readersOf, readingsOf, readingsToWalk, walksText } from './dialect.js';

export interface NestedOptions {
  /** Spans inside the text cannot be mapped exactly (it was decoded or read from a file). */
  coarse?: boolean;
  /** Runs in the current shell (`eval`, `source`): its state changes flow on. */
  sameShell?: boolean;
  /** With `sameShell`: the owner surely runs, so its changes are certain. */
  certain?: boolean;
  /**
   * A new shell process (`sh -c`, `bash FILE`, a pager run through `sh -c`): it inherits exported
   * variables and the directory, but not functions, aliases, shell options or unexported variables.
   */
  fresh?: boolean;
}

/** Characters of nested code parsed for one step of the walk's budget. */
const NESTED_CHARS_PER_STEP = 64;

/** A shell string given as arguments (joined by spaces, as `eval` and `sh -c` see them). */
export function nestedScript(
  w: Walker,
  owner: WalkedCommand,
  parts: Arg[],
  frame: SourceFrame,
  ctx: CommandContext,
  scope: Scope,
  opts: NestedOptions = {},
): void {
  if (parts.length === 0) return;
  const span = { start: parts[0].span.start, end: parts[parts.length - 1].span.end };
  // A glob (`sh -c *.sh`) or a name a program printed (`find -exec sh -c {} ;`) puts file names into the code.
  if (parts.some(unknownCode)) {
    w.finding(
      'dynamic-script',
      `\`${parts
        .map((p) => p.value)
        .join(' ')
        .slice(0, 60)}\``,
      span,
      owner.id,
    );
    // Code we cannot see ran here: whatever it changed in this shell is unknown from now on.
    if (opts.sameShell) forgetState(scope);
    return;
  }
  nestedText(w, owner, parts.map((p) => p.value).join(' '), span, frame, ctx, scope, opts);
}

export function nestedText(
  w: Walker,
  owner: WalkedCommand,
  text: string,
  span: Span,
  frame: SourceFrame,
  ctx: CommandContext,
  scope: Scope,
  opts: NestedOptions = {},
): void {
  if (frame.scriptDepth + 1 > w.options.maxScriptDepth) {
    w.finding('depth-limit', `${w.options.maxScriptDepth} nested scripts`, span, owner.id);
    if (opts.sameShell) forgetState(scope);
    return;
  }
  // Parsing costs by length: a large file sourced many times spends the budget as its commands would.
  if (!w.spend(1 + Math.floor(text.length / NESTED_CHARS_PER_STEP), span, owner.id)) {
    if (opts.sameShell) forgetState(scope);
    return;
  }
  const parsed = w.options.parse(text);
  // Spans map exactly when the text sits verbatim in the top-level command, else onto `span`.
  const at = !opts.coarse && frame.map === identity ? frame.source.indexOf(text, span.start) : -1;
  const exact = at >= 0 && at + text.length <= span.end;
  const inner: SourceFrame = {
    source: text,
    scriptDepth: frame.scriptDepth + 1,
    map: exact ? (s) => ({ start: at + s.start, end: at + s.end }) : () => span,
  };
  // Read by the shell that runs it: `sh`'s dash, `zsh`, or the line's own (each, under `auto`).
  const readings = readingsOf(readersOf(ctx, w.options.shell), text, parsed, w.options.parse);
  if (walksText(readings)) {
    for (const issue of parsed.issues) {
      w.finding(issue.kind === 'doubt' ? 'parse-doubt' : 'parse-error', `\`${issue.text.slice(0, 40)}\` in a nested command`, inner.map(issue.span), owner.id);
    }
  }
  const walks = readingsToWalk(w, readings, inner, owner.id);
  w.owners.push(owner.id);
  try {
    for (const { script, frame: read, via } of walks) {
      const readCtx = via === null ? ctx : { ...ctx, via: [...ctx.via, via] };
      if (opts.sameShell && walks.length === 1) {
        withCertainty(scope, opts.certain ?? false, (s) => w.walkScript(script, read, readCtx, s));
        return;
      }
      const nested = forkScope(scope);
      if (opts.fresh) startFresh(nested);
      if (ctx.remote !== null && !scope.remote) {
        // On the remote host: another filesystem, home and environment.
        nested.remote = true;
        nested.cwd = null;
        nested.vars = new Map();
      }
      w.walkScript(script, read, readCtx, nested);
    }
    // Shells that read it otherwise may each have left another state: none is known.
    if (opts.sameShell) forgetState(scope);
  } finally {
    w.owners.pop();
  }
}

/**
 * `source FILE` / `. FILE`: runs FILE in this shell. What the line wrote there and what is on disk
 * now may both run (the write may not happen): each is walked, and the state after is what either
 * could leave. A file that cannot be read leaves the state unknown.
 */
export function sourceFile(w: Walker, walked: WalkedCommand, args: Arg[], frame: SourceFrame, ctx: CommandContext, scope: Scope, certain: boolean): void {
  const file = args[0];
  const same = { coarse: true, sameShell: true, certain };
  if (file?.fileText !== undefined) {
    nestedText(w, walked, file.fileText, file.span, frame, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'source:<(…)'] }, scope, same);
    return;
  }
  if (!file) return;
  if (file.dynamic || file.glob) return forgetState(scope);
  // `source /dev/stdin` (or `.` with no file on some shells) runs what stdin holds.
  if (/^\/dev\/(stdin|fd\/0)$/.test(file.value) || file.value === '-') {
    walked.execsStdin = true;
    if (walked.stdinText !== null)
      nestedText(w, walked, walked.stdinText, walked.span, frame, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'source:stdin'] }, scope, same);
    else forgetState(scope);
    return;
  }
  if (scope.cwd === null) return forgetState(scope);
  const path = resolvePath(file.value, scope.cwd);
  const innerCtx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'source:' + file.value] };
  const written = writtenText(w, file, scope);
  const onDisk = w.options.readSource(path);
  const texts = [...new Set([written, onDisk ?? undefined].filter((t): t is string => t !== undefined))];
  if (texts.length === 0) {
    // Nothing to read (`source <(cmd)` whose output is not known, a file that is not there yet):
    // what runs is only known at run time.
    w.finding('dynamic-script', `\`${file.raw ?? file.value}\` for ${walked.program ?? 'source'}: its text cannot be read`, file.span, walked.id);
    return forgetState(scope);
  }
  // Two possible contents: each may be the one that runs, so neither's changes are certain.
  for (const text of texts) nestedText(w, walked, text, file.span, frame, innerCtx, scope, { ...same, certain: certain && texts.length === 1 });
}

/** Output redirects of a command that prints constant text record it; any other write forgets. */
export function trackWrittenFiles(w: Walker, walked: WalkedCommand, scope: Scope): void {
  for (const r of walked.redirects) {
    if (r.path === null || r.dup || r.inherited || !(r.op === '>' || r.op === '>|' || r.op === '>>' || r.op === '&>')) continue;
    if (r.path.dynamic || r.path.glob || scope.cwd === null) continue;
    const path = resolvePath(r.path.value, scope.cwd);
    const fd = r.fd ?? 1;
    const printed = fd !== 1 && r.op !== '&>' ? null : printedBy(walked);
    const before = w.writtenFiles.get(path);
    let text = printed;
    // `>>` adds to what the line wrote there before: known only when that was known.
    if (printed !== null && r.op === '>>') text = before === undefined || before === null ? null : before + printed;
    w.writtenFiles.set(path, text);
  }
}

/** Constant stdout of echo, printf, or cat reading a known stdin (a heredoc). */
function printedBy(c: WalkedCommand): string | null {
  if (c.program === 'cat' && c.args.length === 0) return c.stdinText;
  return printedByArgs(c.program, c.args);
}

/** What the line wrote to the file `file` names, when that is known. */
export function writtenText(w: Walker, file: Arg, scope: Scope): string | undefined {
  if (file.dynamic || file.glob || scope.cwd === null) return undefined;
  return w.writtenFiles.get(resolvePath(file.value, scope.cwd)) ?? undefined;
}

/**
 * What a new shell process starts with: the environment (exported variables keep their value;
 * a variable only set in the parent is unset there, or holds whatever the environment had — not
 * known), no functions, no aliases, default options.
 */
function startFresh(scope: Scope): void {
  for (const k of scope.vars.keys()) if (!scope.exports.has(k)) scope.vars.set(k, null);
  scope.functions = new Map();
  scope.aliases = new Map();
  scope.globOptions = new Set();
  scope.namerefs = new Map();
  scope.dirStack = [];
}
