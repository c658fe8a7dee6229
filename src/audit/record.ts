/**
 * The audit record of a decision made outside a hook (`shellgate check --audit-log`, the library):
 * the same fields a hook writes, with the command and the reason redacted.
 */
import type { Decision } from '../policy/gate.js';
import { familyOf, type ToolCall } from '../policy/tool-calls.js';
import { redactSecrets } from '../auto/redact.js';
import { auditArguments } from './bounded-args.js';
import { steeringReason } from '../policy/steering.js';
import type { AuditRecord } from './types.js';

export interface DecisionRecordOptions {
  /** `cli` for `shellgate check`. */
  agent: string;
  version: string;
  cwd?: string;
  session?: string;
  durationMs: number;
  time?: Date;
}

export function decisionRecord(call: ToolCall, d: Decision, o: DecisionRecordOptions): AuditRecord {
  const family = familyOf(call.tool, call.agent);
  const command = family === 'shell' && typeof call.args?.command === 'string' ? redactSecrets(call.args.command) : auditArguments(call.args ?? {});
  return {
    time: (o.time ?? new Date()).toISOString(),
    agent: o.agent,
    ...(o.session !== undefined ? { session: o.session } : {}),
    tool: call.tool,
    family,
    command,
    ...(o.cwd !== undefined ? { cwd: o.cwd } : {}),
    level: d.level,
    layer: d.layer,
    rules: steeringReason(d).rules,
    reason: redactSecrets(d.reason),
    version: o.version,
    durationMs: Math.round(o.durationMs * 1000) / 1000,
  };
}
