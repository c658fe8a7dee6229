/**
 * Whether a variable a command sets can still reach a program. A bare assignment (`LINE=$(top …)`,
 * `read -a HR`) that is not exported changes the environment only if the name was already
 * exported by the agent's environment, and even then only for programs started after it. Each
 * tool call is a fresh shell, so when nothing after it in this line can start a program, the
 * value dies with the line.
 */
import type { WalkedCommand } from '../walk/types.js';
import { ENVIRONMENT_BLIND_BUILTINS } from '../ops/environment-variables.js';

/** A command that starts nothing that reads the environment: a blind builtin or a bare assignment. */
function blind(c: WalkedCommand): boolean {
  if (c.program !== null) return ENVIRONMENT_BLIND_BUILTINS.has(c.program);
  return c.programRaw === '' && c.calls === null;
}

/** Surely done before `cmd`'s assignment: earlier in the text, or inside its own words, and walked where it stands. */
function surelyBefore(c: WalkedCommand, cmd: WalkedCommand): boolean {
  // a function body is walked at its call, but its text stands where it was defined
  if (c.context.functionName !== null || c.context.background) return false;
  // a trap's action is walked where `trap` stands but runs later (at EXIT, on a signal)
  if (c.context.via.some((v) => v.startsWith('trap'))) return false;
  if (c.span.end <= cmd.span.start) return true;
  // inside its text: a substitution in the value, which runs before the value is assigned
  return c.span.start >= cmd.span.start && c.span.end <= cmd.span.end;
}

/**
 * True unless `cmd` sits at the top of the line (no loop, function, nested script) and every
 * command that could read the environment surely ran before it. Unsure means true.
 */
export function mayReadEnvironmentAfter(cmd: WalkedCommand, all: readonly WalkedCommand[]): boolean {
  const ctx = cmd.context;
  if (ctx.depth !== 0 || ctx.loop || ctx.functionName !== null || ctx.background || ctx.pipeline !== null || ctx.substitution !== null) return true;
  return all.some((c) => c !== cmd && !blind(c) && !surelyBefore(c, cmd));
}
