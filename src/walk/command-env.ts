/**
 * The variables a command line puts into one command's environment: its prefix assignments
 * (`HOME=/x git status`, `env HOME=/x git status`) and what the line exported before it
 * (`export HOME=/x; git status`). The caller's own environment (the context's `env`) is not here:
 * it is the agent's, not something the command changed.
 */
import type { WalkedCommand } from './types.js';

/**
 * The value this line gives `name` in `cmd`'s environment: a string when known, null when it is
 * set to something unknown, undefined when the line does not set it.
 */
export function commandVariable(cmd: Pick<WalkedCommand, 'assignments' | 'exported'>, name: string): string | null | undefined {
  for (let i = cmd.assignments.length - 1; i >= 0; i--) if (cmd.assignments[i].name === name) return cmd.assignments[i].value;
  return cmd.exported.has(name) ? cmd.exported.get(name)! : undefined;
}

/** Every variable name this line sets in `cmd`'s environment. */
export function commandVariableNames(cmd: Pick<WalkedCommand, 'assignments' | 'exported'>): string[] {
  return [...new Set([...cmd.assignments.map((a) => a.name), ...cmd.exported.keys()])];
}
