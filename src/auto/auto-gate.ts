/**
 * Auto mode. Per tool call: ① tool default → ② user rules (both: the gate's layer table, run once
 * in default mode with its full precedence) → then auto mode's own steps, appended to that table:
 * ③ accept-edits fast path → ④ safe-tool allowlist → ⑤ guard (built-in categories and user regex
 * guards) → ⑥ classifier. A deny from ①–② or ⑤ is final; a user allow ends it; a user ask goes to
 * the user; only what is left continues. Denial tracking sends calls to the user after repeated
 * classifier blocks.
 */
import type { Gate, GateContext, Decision } from '../policy/gate.js';
import type { AutoLayerName, AutoStepName } from '../policy/decision.js';
import { decisionOf, modeOutcome, type Evaluation } from '../policy/layers.js';
import type { ToolCall } from '../policy/tool-calls.js';
import { familyOf } from '../policy/tool-calls.js';
import type { Level } from '../verdict/types.js';
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
  step: AutoStepName;
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

/** What auto mode's steps read: the call, the gate's evaluation in default mode and its decision. */
interface AutoState {
  call: ToolCall;
  evaluation: Evaluation;
  decision: Decision;
  session: string;
  request: AutoRequest;
}

/** A step's last word: the level, the step that spoke (`user`: a person decides), why, and what the agent is told. */
interface AutoEnding {
  level: Level;
  step: AutoStepName;
  reason: string;
  feedback?: string;
}

/** One of auto mode's steps, appended after the gate's own layers (policy/layers.ts). */
interface AutoLayer {
  name: AutoLayerName;
  run(s: AutoState): AutoEnding | undefined | Promise<AutoEnding | undefined>;
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

  /** ⑤ Built-in categories ended at ①–②; what is left here are the user's regex guards. */
  function regexGuard({ call }: AutoState): AutoEnding | undefined {
    const text = call.tool === 'shell' && typeof call.args?.command === 'string' ? call.args.command : JSON.stringify(call.args ?? {});
    const hit = guards.find((g) => g.re.test(text));
    if (hit?.level === 'deny') return { level: 'deny', step: 'guard', reason: `user guard: ${hit.message}`, feedback: hit.message };
    if (hit) return { level: 'ask', step: 'user', reason: `user guard: ${hit.message}` };
    return undefined;
  }

  /** ⑥ The classifier, unless none is configured or denial tracking sends this to the user. */
  async function classify({ call, decision: d, session, request }: AutoState): Promise<AutoEnding> {
    if (!options.classifier) return { level: 'ask', step: 'user', reason: `${d.reason} (auto mode: no classifier configured)` };
    const skip = tracker.shouldSkip(session);
    if (skip) return { level: 'ask', step: 'user', reason: `${d.reason} (${skip}: the user decides)` };
    const input = {
      tool: call.tool,
      args: redactValue(call.args ?? {}) as Record<string, unknown>,
      findings: d.findings
        .filter((f) => f.level !== 'allow')
        .map(({ rule, category, level, message }) => ({ rule, category, level, message: redactSecrets(message) })),
      context: redactSecrets(boundContext(request.conversation ?? '', contextLimit)),
    };
    const v = await options.classifier.classify(input, request.signal);
    if (v.shouldBlock) {
      tracker.block(session);
      const reason = v.failure ? `classifier failed closed: ${v.failure}` : `classifier blocked (stage ${v.stage}): ${v.reason}`;
      return { level: 'deny', step: 'classifier', reason, feedback: v.reason };
    }
    tracker.pass(session);
    return { level: 'allow', step: 'classifier', reason: 'the classifier approved' };
  }

  /** Auto mode's steps, in order, after the gate's layers; the last always decides. */
  const AUTO_LAYERS: readonly AutoLayer[] = [
    { name: 'auto:policy', run: policyStep },
    { name: 'auto:accept-edits', run: acceptEdits },
    { name: 'auto:safe-tool', run: safeTool },
    { name: 'auto:guard', run: regexGuard },
    { name: 'auto:classifier', run: classify },
  ];

  async function decide(call: ToolCall, context: GateContext = {}, request: AutoRequest = {}): Promise<AutoDecision> {
    // ①–② The gate's layers with their full precedence, as in default mode, run once.
    const evaluation = gate.evaluation(call, { ...context, mode: 'default' });
    const state: AutoState = { call, evaluation, decision: decisionOf(evaluation), session: request.session ?? 'default', request };
    for (const layer of AUTO_LAYERS) {
      const ending = await layer.run(state);
      if (ending) return autoDecision(state.decision, ending);
    }
    throw new ShellgateError('internal', 'auto mode: no step decided'); // the classifier step always decides
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

/** The gate's decision as auto mode's step decided it: the step's trace entry follows the gate's layers. */
function autoDecision(d: Decision, { level, step, reason, feedback }: AutoEnding): AutoDecision {
  const layer: AutoLayerName = `auto:${step}`;
  const trace = [...d.trace.filter((t) => t.layer !== 'final'), { layer, level, reason }, { layer: 'final', level, reason }];
  return { ...d, level, reason, layer, step, trace, ...(feedback ? { feedback } : {}) };
}

/** ①–② A deny from the gate is final, an allow ends it, and a user's ask rule goes to the user. */
function policyStep({ decision: d }: AutoState): AutoEnding | undefined {
  if (d.level === 'deny') return { level: 'deny', step: 'policy', reason: d.reason, feedback: d.reason };
  if (d.level === 'allow') return { level: 'allow', step: 'policy', reason: d.reason };
  if (d.layer === 'rule-ask') return { level: 'ask', step: 'user', reason: `${d.reason} (a user ask rule: the user decides)` };
  return undefined;
}

/** ③ Accept-edits fast path: what auto-edit mode would approve (workspace edits), read from the same evaluation. */
function acceptEdits({ evaluation }: AutoState): AutoEnding | undefined {
  if (modeOutcome('auto-edit', evaluation).level === 'allow') return { level: 'allow', step: 'accept-edits', reason: 'an edit inside the workspace' };
  return undefined;
}

/** ④ Safe-tool allowlist: read-only tools and provably read-only shell. */
function safeTool({ call, decision }: AutoState): AutoEnding | undefined {
  if (isSafeReadOnly(call, decision)) return { level: 'allow', step: 'safe-tool', reason: 'read-only, touches nothing sensitive' };
  return undefined;
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
