/** finger: `user@host` queries a remote finger server; other operands name local users. */
import type { ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/**
 * With no operand finger lists the users logged in here (utmp, the password database). An operand
 * with `@` is sent to that host's finger server (Network); a local user's long entry also prints
 * files from that user's home (~/.plan, ~/.project, ~/.pgpkey), outside the workspace.
 */
function finger(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  for (const a of p.operands) {
    if (a.dynamic || a.value.includes('@')) b.add('Network', 'operand', a.span, { program: 'finger', target: a.value, dynamic: a.dynamic });
    if (a.dynamic || !a.value.includes('@')) b.add('Read', 'operand', a.span, { program: 'finger', target: `~${a.value}/.plan`, dynamic: true });
  }
  return { skipOperands: true };
}

export const fingerHooks: ProgramHooks = { module: 'finger.ts', operations: finger };
