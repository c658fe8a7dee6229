/** git: what its subcommands' tables cannot say — `git branch` with no name only lists. */
import { effectiveClass, type ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/**
 * `git branch` creates, renames or deletes a branch when given a name or a changing option
 * (`-d`, `-m`, `-u`, `--set-upstream-to`…), so its spec's class is mutating; with no operand and
 * no such option it only lists branches (man git-branch: "With no arguments, existing branches
 * are listed"). A spec cannot make a class depend on the number of operands.
 */
function git(_b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p || p.subcommands.length !== 1 || p.subcommands[0] !== 'branch' || p.operands.length > 0) return;
  // An option the table does not know, or one that changes state, keeps the spec's class.
  if (p.options.some((o) => o.spec === undefined || o.spec.class === 'mutating' || o.spec.class === 'unknown')) return;
  if (effectiveClass(p) === 'mutating') return { class: 'read-only' };
}

export const gitHooks: ProgramHooks = { module: 'git.ts', operations: git };
