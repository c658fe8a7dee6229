/**
 * Functions and aliases defined on the line, and what a call to one runs.
 *
 * bash looks a command word up as an alias (only when alias expansion is on: never in `bash -c`
 * unless `shopt -s expand_aliases` ran, and never for a word on the line that defines it), then a
 * function, then a builtin or a program. shellgate never assumes the lookup that makes a command
 * harmless:
 * - an alias may or may not expand, so both the alias's text (with the words after it) and the
 *   program itself are analysed;
 * - a function surely defined in this shell runs instead of the program: its body is walked at the
 *   call, with the call's directory and variables; a function that may not be defined (after `&&`,
 *   in a branch) leaves both the body and the program to analyse;
 * - wrappers (`command`, `builtin`, `env`, `exec`, `sudo`, `xargs`, `find -exec`…) never call a
 *   function: the caller does not look functions up for them.
 */
import type { Arg, CommandContext, WalkedCommand } from './types.js';
import type { SourceFrame } from './source-frame.js';
import type { Walker } from './walker-api.js';
import { withCertainty, type FunctionDefinition, type Scope } from './scope.js';
import { nestedScript, nestedText } from './nested-scripts.js';

/** Walk a function's body where it is called (recursive calls are not walked again). */
export function callFunction(w: Walker, call: WalkedCommand, name: string, fn: FunctionDefinition, ctx: CommandContext, scope: Scope, certain: boolean): void {
  if (w.callStack.includes(name)) return;
  // Function bodies walked at call sites per analysis are bounded; past it, a call asks.
  if (w.functionWalks >= w.options.maxFunctionWalks) {
    w.finding('depth-limit', `${w.options.maxFunctionWalks} function calls`, call.span, call.id);
    return;
  }
  w.functionWalks++;
  w.callStack.push(name);
  w.owners.push(call.id);
  try {
    const bodyCtx: CommandContext = { ...ctx, depth: ctx.depth + 1, functionName: name, via: [...ctx.via, `function:${name}`] };
    // The body runs in this shell: its `cd` and assignments reach the commands after the call,
    // but not its locals, which the return restores.
    withCertainty(scope, certain, (s) => {
      const before = s.locals;
      const values = new Map(s.vars);
      s.locals = new Set();
      try {
        w.command(fn.body, fn.frame, bodyCtx, s, true);
      } finally {
        for (const name of s.locals) {
          if (values.has(name)) s.vars.set(name, values.get(name)!);
          else s.vars.delete(name);
        }
        s.locals = before;
      }
    });
  } finally {
    w.owners.pop();
    w.callStack.pop();
  }
}

/**
 * `alias NAME=VALUE…`: remember each alias, and walk its value where it is defined (the alias may
 * be used where shellgate cannot see: the line's later words are walked at each use too).
 */
export function defineAliases(w: Walker, owner: WalkedCommand, args: Arg[], frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
  for (const a of args) {
    const eq = a.value.indexOf('=');
    if (eq <= 0) continue;
    const name = a.value.slice(0, eq);
    const value: Arg = { ...a, value: a.value.slice(eq + 1) };
    // A value known only at run time cannot be expanded at a use: it asks (dynamic-script) here.
    if (!a.dynamic) scope.aliases.set(name, value.value);
    const innerCtx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'alias:' + name], conditional: true };
    nestedScript(w, owner, [value], frame, innerCtx, scope);
  }
}

/**
 * A use of an alias: if alias expansion is on, bash reads the alias's value in place of the word,
 * followed by the rest of the command as written (`alias x='rm -rf'; x ~` runs `rm -rf ~`).
 * `rest` is the source text after the alias word.
 */
export function expandAlias(
  w: Walker,
  call: WalkedCommand,
  name: string,
  value: string,
  rest: string,
  frame: SourceFrame,
  ctx: CommandContext,
  scope: Scope,
): void {
  if (w.callStack.includes(`alias ${name}`)) return; // bash does not expand an alias inside itself
  w.callStack.push(`alias ${name}`);
  try {
    const innerCtx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'alias:' + name] };
    // The expansion may not happen: what it would change in this shell is uncertain.
    nestedText(w, call, value + rest, call.span, frame, innerCtx, scope, { coarse: true, sameShell: true, certain: false });
  } finally {
    w.callStack.pop();
  }
}
