/**
 * The answer the server gives on its own when an analysis does not end in time (its deadline
 * passed, or its thread died — out of memory, a crash): the analysis could not be finished, so the
 * call cannot be allowed. It is `ask` with an `input-limit` finding that says why (`deny` on a
 * non-interactive channel, where nobody can be asked, and with --ask-as-deny), encoded and
 * recorded by `answerHook` like every other answer — only the gate is replaced by this verdict.
 */
import { NON_INTERACTIVE_CHANNELS, type Mode } from '../policy/modes.js';
import type { Decision } from '../policy/decision.js';
import type { AgentProfile } from '../agents/types.js';
import type { AuditRecord } from '../audit/types.js';
import { CORE_FINDINGS, fillDetail } from '../findings/catalog.js';
import type { Finding } from '../findings/types.js';
import { answerHook } from '../hook/answer.js';
import type { ShellDialect } from '../syntax/dialects.js';
import type { RequestFrom, ServeDecision } from './analysis-messages.js';
import type { PolicyOptions } from './protocol.js';

export interface LateAnswerContext {
  policy: PolicyOptions;
  version: string;
  env: Record<string, string | undefined>;
  record?(r: AuditRecord): void;
}

function lateDecision(detail: string, channel: string | undefined): Decision {
  const level = channel !== undefined && NON_INTERACTIVE_CHANNELS.has(channel) ? 'deny' : 'ask';
  const meta = CORE_FINDINGS['input-limit'];
  const finding: Finding = { rule: 'input-limit', category: meta.category, level, message: fillDetail(meta.message, detail), span: { start: 0, end: 0 } };
  const reason = `${finding.rule}: ${finding.message}`;
  return { level, reason, layer: 'tool-default', findings: [finding], trace: [{ layer: 'tool-default', level, reason }], parts: [] };
}

/** `detail` says what stopped the analysis, e.g. "the server's deadline of 5 s passed before the analysis ended". */
export async function lateAnswer(agent: AgentProfile, input: string, from: RequestFrom, ctx: LateAnswerContext, detail: string): Promise<ServeDecision> {
  const p = ctx.policy;
  const r = await answerHook(agent, input, {
    decide: (_call, context) => lateDecision(detail, context.channel),
    version: ctx.version,
    env: from.env ?? ctx.env,
    ...(from.cwd !== undefined ? { cwd: from.cwd } : {}),
    ...(p.mode !== null ? { mode: p.mode as Mode } : {}),
    ...(p.shell !== undefined ? { shell: p.shell as ShellDialect } : {}),
    ...(p.askAsDeny ? { askAsDeny: true } : {}),
    ...(ctx.record ? { record: ctx.record } : {}),
  });
  return { answer: r.answer, ...(r.answer.exitCode !== 0 ? { block: { reason: r.record.reason, tool: r.record.tool } } : {}) };
}
