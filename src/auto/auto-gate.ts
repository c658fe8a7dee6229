/**
 * Auto mode. Per tool call: ① tool default → ② user rules (both: the policy engine, with its full
 * precedence) → ③ accept-edits fast path → ④ safe-tool allowlist → ⑤ guard (built-in categories
 * and user regex guards) → ⑥ classifier. A deny from ①–② or ⑤ is final; a user allow ends it;
 * a user ask goes to the user; only what is left continues. Denial tracking sends calls to the
 * user after repeated classifier blocks.
 */
import type { Gate, GateContext, Decision } from '../policy/gate.js';
import type { ToolCall } from '../policy/tool-calls.js';
import { familyOf } from '../policy/tool-calls.js';
import type { Level, TraceStep } from '../verdict/types.js';
import { ShellgateError } from '../errors.js';
import { findingsWith } from '../findings/catalog.js';
import type { Classifier } from './classifier.js';
import { boundContext, redactSecrets, redactValue } from './redact.js';
import { DenialTracker, type DenialLimits } from './denial-tracker.js';

export interface RegexGuard {
  /** A regular expression over the raw command or serialised arguments. */
  pattern: string;
  level: 'deny' | 'ask';
  message: string;
}

export interface AutoOptions {
  classifier?: Classifier | null;
  /** Limits for denial tracking (defaults: 3 consecutive, 20 in a session). */
  limits?: Partial<DenialLimits>;
  regexGuards?: RegexGuard[];
  /** Characters of conversation sent to the classifier (default 8000, the most recent kept). */
  contextLimit?: number;
}

export interface AutoCall {
  call: ToolCall;
  context?: GateContext;
}

export interface AutoRequest {
  /** Session id for denial tracking (default: "default"). */
  session?: string;
  /** Recent conversation the caller passes; bounded and redacted before it leaves the process. */
  conversation?: string;
  signal?: AbortSignal;
}

export interface AutoDecision extends Decision {
  /** Pipeline step that decided: ①–⑥ as names. */
  step: 'policy' | 'accept-edits' | 'safe-tool' | 'guard' | 'classifier' | 'user';
  /** Shown to the user and fed back to the agent when blocked. */
  feedback?: string;
}

export interface AutoGate {
  decide(call: ToolCall, context?: GateContext, request?: AutoRequest): Promise<AutoDecision>;
  /** A batch from one model turn: each call on its own, concurrently; results in order. */
  decideBatch(calls: AutoCall[], request?: AutoRequest): Promise<AutoDecision[]>;
  /** The user answered an ask: approval resets the denial counters, rejection keeps them. */
  userResponded(session: string, approved: boolean): void;
  /** The session left or entered auto mode: counters reset. */
  modeChanged(session: string): void;
  readonly tracker: DenialTracker;
}

export function createAutoGate(gate: Gate, options: AutoOptions = {}): AutoGate {
  const tracker = new DenialTracker(options.limits);
  const guards = (options.regexGuards ?? []).map((g, i) => {
    try {
      return { ...g, re: new RegExp(g.pattern) };
    } catch (e) {
      throw new ShellgateError('options', `regexGuards[${i}]: bad pattern (${(e as Error).message})`);
    }
  });
  const contextLimit = options.contextLimit ?? 8000;

  async function decide(call: ToolCall, context: GateContext = {}, request: AutoRequest = {}): Promise<AutoDecision> {
    const session = request.session ?? 'default';
    const trace: TraceStep[] = [];
    const finish = (d: Decision, level: Level, step: AutoDecision['step'], reason: string, feedback?: string): AutoDecision => {
      trace.push({ layer: `auto:${step}`, level, reason });
      return { ...d, level, reason, layer: `auto:${step}`, step, trace: [...d.trace.filter((t) => t.layer !== 'final'), ...trace, { layer: 'final', level, reason }], ...(feedback ? { feedback } : {}) };
    };
    // ①–② The policy engine with its full precedence, as in default mode.
    const d = gate.evaluate(call, { ...context, mode: 'default' });
    if (d.level === 'deny') return finish(d, 'deny', 'policy', d.reason, d.reason);
    if (d.level === 'allow') return finish(d, 'allow', 'policy', d.reason);
    if (d.layer === 'rule-ask') return finish(d, 'ask', 'user', `${d.reason} (a user ask rule: the user decides)`);
    // ③ Accept-edits fast path: workspace edits.
    if (gate.evaluate(call, { ...context, mode: 'auto-edit' }).level === 'allow') return finish(d, 'allow', 'accept-edits', 'an edit inside the workspace');
    // ④ Safe-tool allowlist: read-only tools and provably read-only shell.
    if (isSafeReadOnly(call, d)) return finish(d, 'allow', 'safe-tool', 'read-only, touches nothing sensitive');
    // ⑤ Guard: built-in categories (their denies ended at ①–②) and user regex guards.
    const text = call.tool === 'shell' && typeof call.args?.command === 'string' ? call.args.command : JSON.stringify(call.args ?? {});
    const hit = guards.find((g) => g.re.test(text));
    if (hit?.level === 'deny') return finish(d, 'deny', 'guard', `user guard: ${hit.message}`, hit.message);
    if (hit) return finish(d, 'ask', 'user', `user guard: ${hit.message}`);
    // ⑥ Classifier, unless none is configured or denial tracking sends this to the user.
    if (!options.classifier) return finish(d, 'ask', 'user', `${d.reason} (auto mode: no classifier configured)`);
    const skip = tracker.shouldSkip(session);
    if (skip) return finish(d, 'ask', 'user', `${d.reason} (${skip}: the user decides)`);
    const input = {
      tool: call.tool,
      args: redactValue(call.args ?? {}) as Record<string, unknown>,
      findings: d.findings.filter((f) => f.level !== 'allow').map(({ rule, category, level, message }) => ({ rule, category, level, message: redactSecrets(message) })),
      context: redactSecrets(boundContext(request.conversation ?? '', contextLimit)),
    };
    const v = await options.classifier.classify(input, request.signal);
    if (v.shouldBlock) {
      tracker.block(session);
      const reason = v.failure ? `classifier failed closed: ${v.failure}` : `classifier blocked (stage ${v.stage}): ${v.reason}`;
      return finish(d, 'deny', 'classifier', reason, v.reason);
    }
    tracker.pass(session);
    return finish(d, 'allow', 'classifier', 'the classifier approved');
  }

  return {
    tracker,
    decide,
    decideBatch(calls, request = {}) {
      return Promise.all(calls.map((c) => decide(c.call, c.context ?? {}, request)));
    },
    userResponded(session, approved) {
      if (approved) tracker.reset(session);
    },
    modeChanged(session) {
      tracker.reset(session);
    },
  };
}

/**
 * The asking findings a provably read-only call may carry (the catalog's `readOnly`): reading
 * outside the workspace, and the structure findings (raised to ask by `chaining: 'ask'`, each part
 * being checked on its own). A flag on what is safe, not on what is risky, so a finding added
 * later is never passed as safe.
 */
const READ_ONLY_FINDINGS = findingsWith('readOnly');

/** Read-only tools, and shell whose every asking finding is only about reading outside the workspace. */
function isSafeReadOnly(call: ToolCall, d: Decision): boolean {
  const family = familyOf(call.tool, call.agent);
  if (family !== 'read' && family !== 'search' && family !== 'shell') return false;
  const asking = d.findings.filter((f) => f.level !== 'allow');
  return asking.every((f) => READ_ONLY_FINDINGS.has(f.rule));
}
