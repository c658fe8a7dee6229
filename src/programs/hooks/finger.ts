/** finger: `user@host` queries a remote finger server; other operands name local users. */
import type { ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/**
 * With no operand finger lists the users logged in here (utmp, the password database); a local
 * user's entry prints what that user publishes for finger (~/.plan, ~/.project, ~/.pgpkey). An
 * operand with `@` is sent to that host's finger server (man finger: "user@host"), and an operand
 * known only at run time may hold one, so both talk to the network.
 */
function finger(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  for (const a of p.operands) {
    if (a.dynamic || a.value.includes('@')) b.add('Network', 'operand', a.span, { program: 'finger', target: a.value, dynamic: a.dynamic });
  }
  return { skipOperands: true };
}

export const fingerHooks: ProgramHooks = { module: 'finger.ts', operations: finger };
