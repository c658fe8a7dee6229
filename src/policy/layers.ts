/**
 * The gate as an ordered table of named layers (docs/policy-layers.md). Each layer reads the
 * evaluation so far, may change its level, reason and deciding layer, and records one trace step;
 * a layer that ends the evaluation (the three denies) marks it `final` and nothing later runs.
 * Auto mode (auto/auto-gate.ts) appends its own steps after the last of these.
 */
import { registry } from '../programs/registry.js';
import type { Analyzer, AnalysisContext } from '../analyzer.js';
import type { ToolSpec } from '../agents/types.js';
import { findingsWith } from '../findings/catalog.js';
import type { PathClassifier } from '../paths/classify.js';
import { stricter, type Finding, type Level, type TraceStep, type Verdict } from '../verdict/types.js';
import type { Decision, GateLayerName, PartDecision } from './decision.js';
import { NON_INTERACTIVE_CHANNELS, type Mode } from './modes.js';
import { matches, uncoveredOption } from './rule-match.js';
import type { RuleEntry } from './settings.js';
import { argOf, resolveToolPath, shellParts, strictestOf, toolParts, type Part, type ToolCall, type ToolFamily } from './tool-calls.js';

/** What the layers know about the call before the first one runs (gate.ts builds it). */
export interface EvaluationInput {
  call: ToolCall;
  mode: Mode;
  /** `cli`, `ide`, `chat`, `api`, `non-interactive`… */
  channel: string;
  cwd: string;
  home: string;
  family: ToolFamily;
  spec: ToolSpec | null;
  analyzer: Analyzer;
  /** The caller's analysis context, without the gate's own keys (mode, channel). */
  analysisContext: AnalysisContext;
  classifier: PathClassifier;
  /** Outside the workspace roots, temp dirs and additional directories. */
  isExternal: (path: string) => boolean;
  /** Rules in force: approvals (session before persistent), settings by source, presets last. */
  rules: RuleEntry[];
  /** Settings rules for this channel only: the only rules that authorise another directory. */
  settingsRules: RuleEntry[];
}

/** The evaluation as the layers build it. */
export interface Evaluation {
  readonly input: EvaluationInput;
  /** The analyser's verdict, for shell calls. */
  verdict?: Verdict;
  /** Sub-commands, operations or the call itself, each with the findings of the tool default. */
  parts: Part[];
  /** Findings about no part (a parse error, a limit). */
  global: Finding[];
  findings: Finding[];
  /** The ask rule that matched a part, if one did. */
  askRule: { entry: RuleEntry; part: Part } | null;
  /** The allow rule or approval that matched each part. */
  allowedBy: Map<Part, RuleEntry>;
  level: Level;
  layer: GateLayerName;
  reason: string;
  decided: PartDecision[];
  trace: TraceStep[];
  /** A layer decided for good (a deny); later layers do not run. */
  final: boolean;
}

export interface GateLayer {
  name: GateLayerName;
  run(e: Evaluation): void;
}

/** A layer's last word: the decision is this, and no later layer changes it. */
function end(e: Evaluation, level: Level, layer: GateLayerName, reason: string): void {
  Object.assign(e, { level, layer, reason, final: true });
  e.trace.push({ layer, level, reason });
}

/** Nothing in this layer spoke: it passes, and says why in the trace. */
function pass(e: Evaluation, layer: GateLayerName, reason: string): void {
  e.trace.push({ layer, level: 'allow', reason });
}

function ruleFor(e: Evaluation, level: RuleEntry['level'], part: Part, also: (r: RuleEntry) => boolean = () => true): RuleEntry | undefined {
  const { rules, cwd, home } = e.input;
  return rules.find((r) => r.level === level && also(r) && matches(r, part, cwd, home));
}

/** 1. Tool default: what the call does, from the analyser (shell) or the tool's arguments. */
function toolDefault(e: Evaluation): void {
  const { call, spec, family, analyzer, analysisContext, classifier, cwd, home, isExternal } = e.input;
  // Paths are resolved on the disk as it is now: nothing read for an earlier call is reused.
  classifier.startAnalysis();
  const shellCommand = family === 'shell' ? (argOf(call, ...(spec?.command ?? ['command'])) ?? null) : null;
  if (family === 'shell' && shellCommand !== null) {
    // The shell tool's own directory argument is where the command runs.
    const dir = argOf(call, ...(spec?.dir ?? []));
    const runsIn = dir !== undefined && dir !== '' ? resolveToolPath(dir, { cwd, home }) : undefined;
    e.verdict = analyzer.analyze(shellCommand, runsIn !== undefined ? { ...analysisContext, cwd: runsIn } : analysisContext);
    ({ parts: e.parts, global: e.global } = shellParts(e.verdict, isExternal, { classifier, cwd, home }));
  } else {
    // A shell call without a command string is read like any call with missing arguments: never allow.
    const readAs = family === 'shell' ? { ...spec!, family: 'shell' as const, required: [spec?.command ?? ['command']] } : spec;
    e.parts = toolParts(call, readAs, { classifier, cwd, home, isExternal });
  }
  e.findings = e.verdict ? e.verdict.findings : e.parts.flatMap((p) => p.findings);
  const level = stricter(strictestOf(e.global), strictestOf(e.parts.flatMap((p) => p.findings)));
  const f = e.findings.find((x) => x.level === level && level !== 'allow');
  e.trace.push({ layer: 'tool-default', level, reason: f ? `${f.rule}: ${f.message}` : `${call.tool}: read-only inside the workspace` });
}

/** 2. A deny rule naming the whole tool (`Bash`, `WebFetch`). */
function wholeToolDeny(e: Evaluation): void {
  const deny = e.input.rules.find((r) => r.level === 'deny' && r.rule.whole && e.parts.some((p) => matches(r, p, e.input.cwd, e.input.home)));
  if (deny) end(e, 'deny', 'whole-tool-deny', `${deny.rule.text} denies the tool (${deny.origin})`);
  else pass(e, 'whole-tool-deny', 'no rule denies the whole tool');
}

/** 3. A built-in guard rule's deny: nothing later lifts it. */
function guardDeny(e: Evaluation): void {
  const guardIds = new Set(e.input.analyzer.rules.map((r) => r.id));
  const deny = e.findings.find((f) => f.level === 'deny' && guardIds.has(f.rule));
  if (deny) end(e, 'deny', 'guard-deny', `${deny.rule}: ${deny.message}`);
  else pass(e, 'guard-deny', 'no built-in deny');
}

/** 4. A deny rule on any sub-command, operation or path. */
function ruleDeny(e: Evaluation): void {
  for (const p of e.parts) {
    const deny = ruleFor(e, 'deny', p, (r) => !r.rule.whole);
    if (deny) return end(e, 'deny', 'rule-deny', `${deny.rule.text} denies ${p.label}${reachNote(p)} (${deny.origin})`);
  }
  pass(e, 'rule-deny', 'no deny rule matches');
}

/** Why a rule about one path speaks about a walk of a directory or a glob: what it reaches. */
function reachNote(p: Part): string {
  if (p.walks) return ` (it reads everything below ${p.path}, which may include what the rule names)`;
  if (p.glob) return ` (the pattern may match what the rule names)`;
  return '';
}

/** 5. Ask rules: noted here; an ask beats any allow (layer 6) and every mode (layer 8). */
function ruleAsk(e: Evaluation): void {
  for (const p of e.parts) {
    const ask = ruleFor(e, 'ask', p);
    if (ask) {
      e.askRule = { entry: ask, part: p };
      break;
    }
  }
  const a = e.askRule;
  e.trace.push({
    layer: 'rule-ask',
    level: a ? 'ask' : 'allow',
    reason: a ? `${a.entry.rule.text} asks for ${a.part.label}${reachNote(a.part)} (${a.entry.origin})` : 'no ask rule matches',
  });
}

/** Findings an allow rule never lifts: the rule's pattern cannot see them (the catalog's `unliftable`). */
const NOT_LIFTABLE = findingsWith('unliftable');

/** The command part an operation belongs to (its allow rule speaks for the operation too). */
function commandOf(e: Evaluation, p: Part): Part | undefined {
  return p.command !== undefined && p.kind === 'operation' ? e.parts.find((c) => c.kind === 'command' && c.command === p.command) : undefined;
}

/** 6. Allow rules and approvals, part by part: each part's level is what no rule lifts. */
function ruleAllow(e: Evaluation): void {
  for (const p of e.parts) {
    const allow = ruleFor(e, 'allow', p);
    if (allow) e.allowedBy.set(p, allow);
  }
  e.level = strictestOf(e.global);
  const first = e.global.find((f) => f.level === e.level && e.level !== 'allow');
  e.reason = first ? `${first.rule}: ${first.message}` : '';
  for (const p of e.parts) decidePart(e, p);
  if (e.askRule) {
    e.level = stricter(e.level, 'ask');
    e.reason = e.reason || `${e.askRule.entry.rule.text} asks for ${e.askRule.part.label}`;
  }
  e.trace.push({ layer: 'rule-allow', level: e.level, reason: allowReason(e) });
  e.layer = allowLayer(e);
}

function decidePart(e: Evaluation, p: Part): void {
  const command = commandOf(e, p);
  const own = e.allowedBy.get(p) ?? (command ? e.allowedBy.get(command) : undefined);
  // An allow rule vouches for the argv it names, not for tricks around it (GIT_PAGER=…, $((…)), CR).
  const residual = own ? strictestOf(p.findings.filter((f) => NOT_LIFTABLE.has(f.rule))) : strictestOf(p.findings);
  let decidedBy = `tool default: ${p.findings.find((f) => f.level === residual)?.rule}`;
  if (residual === 'allow') decidedBy = own ? `allow rule ${own.rule.text} (${own.origin})` : 'tool default';
  e.decided.push({ kind: p.kind, label: p.label, command: p.command, level: residual, decidedBy });
  if (residual === 'allow' || stricter(e.level, residual) === e.level) return;
  e.level = residual;
  const f = p.findings.find((x) => x.level === residual);
  e.reason = f ? `${f.rule}: ${f.message}` : p.label;
  // Say so when an allow rule would have matched but for an option it does not name.
  const unnamed = own ? null : uncoveredOption(e.input.rules, command ?? p);
  if (unnamed) e.reason = unnamed;
}

function allowReason(e: Evaluation): string {
  if (e.allowedBy.size === 0) return e.level === 'allow' ? 'every part is allowed by default' : e.reason;
  const rules = [...new Set([...e.allowedBy.values()].map((r) => `${r.rule.text} (${r.origin})`))].join(', ');
  return rules + (e.level === 'allow' ? ': every part allowed' : `; still ${e.level}: ${e.reason}`);
}

/** Who decided so far: a user ask rule, an allow rule that changed the outcome, or the tool default. */
function allowLayer(e: Evaluation): GateLayerName {
  if (e.askRule && e.level === 'ask') return 'rule-ask';
  const liftedSomething = e.level === 'allow' || strictestOf(e.parts.flatMap((p) => p.findings)) !== e.level;
  return e.allowedBy.size > 0 && liftedSomething ? 'rule-allow' : 'tool-default';
}

/** 7. External directories: only a settings rule naming the path (or the bare tool) authorises it. */
function externalDirectory(e: Evaluation): void {
  const before = e.level;
  const { settingsRules, cwd, home } = e.input;
  for (const p of e.parts) {
    if (!p.external || p.path === undefined) continue;
    // a program's own housekeeping (npm's logs) comes with running it: the command's allow rule covers it
    const command = commandOf(e, p);
    if (p.housekeeping && command && e.allowedBy.has(command)) continue;
    if (settingsRules.some((r) => r.level === 'allow' && matches(r, p, cwd, home))) continue;
    if (e.level === 'allow') e.reason = `${p.label} is outside the workspace and no settings rule names it`;
    e.level = stricter(e.level, 'ask');
    e.decided.push({ kind: p.kind, label: p.label, command: p.command, level: 'ask', decidedBy: 'external-directory check' });
  }
  const reason = e.parts.some((p) => p.external) ? 'paths outside the workspace checked against settings rules' : 'no path outside the workspace';
  e.trace.push({ layer: 'external-directory', level: e.level, reason });
  if (e.level !== before) e.layer = 'external-directory';
}

/** 8. The approval mode (policy/modes.ts says what each does). */
function mode(e: Evaluation): void {
  const { mode } = e.input;
  const before = e.level;
  // An ask rule the user wrote is a question they want asked in every mode (Claude Code 2.1.98).
  if (e.askRule && e.level === 'ask' && (mode === 'yolo' || mode === 'auto-edit' || mode === 'auto')) {
    e.reason = `${e.askRule.entry.rule.text} asks for ${e.askRule.part.label} (${e.askRule.entry.origin}); an ask rule asks in ${mode} mode too`;
  } else {
    ({ level: e.level, reason: e.reason } = modeOutcome(mode, e));
  }
  if (e.level !== before) e.layer = 'mode';
  e.trace.push({ layer: 'mode', level: e.level, reason: `${mode} mode${e.level === 'allow' && mode === 'yolo' ? ': ask becomes allow' : ''}` });
}

/** 9. The channel: where nobody can answer, ask becomes deny. */
function channel(e: Evaluation): void {
  const { channel } = e.input;
  if (e.level === 'ask' && NON_INTERACTIVE_CHANNELS.has(channel)) {
    e.level = 'deny';
    e.layer = 'channel';
    e.reason = `${e.reason} — and on the ${channel} channel there is nobody to ask`;
  }
  e.trace.push({ layer: 'channel', level: e.level, reason: channel });
}

/** The gate's layers, in order. */
export const GATE_LAYERS: readonly GateLayer[] = [
  { name: 'tool-default', run: toolDefault },
  { name: 'whole-tool-deny', run: wholeToolDeny },
  { name: 'guard-deny', run: guardDeny },
  { name: 'rule-deny', run: ruleDeny },
  { name: 'rule-ask', run: ruleAsk },
  { name: 'rule-allow', run: ruleAllow },
  { name: 'external-directory', run: externalDirectory },
  { name: 'mode', run: mode },
  { name: 'channel', run: channel },
];

/** Runs the layers in order over a fresh evaluation, until one ends it. */
export function runLayers(input: EvaluationInput, layers: readonly GateLayer[] = GATE_LAYERS): Evaluation {
  const e: Evaluation = {
    input,
    parts: [],
    global: [],
    findings: [],
    askRule: null,
    allowedBy: new Map(),
    level: 'allow',
    layer: 'tool-default',
    reason: '',
    decided: [],
    trace: [],
    final: false,
  };
  for (const layer of layers) {
    layer.run(e);
    if (e.final) break;
  }
  return e;
}

/** The decision an evaluation reached, with the trace's `final` step. */
export function decisionOf(e: Evaluation): Decision {
  const reason = e.level === 'allow' && !e.reason ? 'every part is allowed' : e.reason;
  const trace = [...e.trace, { layer: 'final', level: e.level, reason }];
  return { level: e.level, reason, layer: e.layer, findings: e.findings, trace, parts: e.decided, verdict: e.verdict };
}

/**
 * Edits and writes inside the workspace that auto-edit approves (the catalog's `edit`). `exec-config`
 * (a write to `.git/**`, `.envrc`, `.cargo/config.toml`… — paths/exec-config.ts) is not among them.
 */
const EDIT_RULES = findingsWith('edit');
/** Programs auto-edit mode lets through when all they do is edit inside the workspace (the `file-edit` tag). */
const EDIT_PROGRAMS = registry.tagged('file-edit');

/**
 * What a mode makes of the evaluation's level and reason. Auto mode's accept-edits step asks the
 * same of `auto-edit` instead of running the gate again.
 */
export function modeOutcome(mode: Mode, e: Evaluation): { level: Level; reason: string } {
  const { level, reason } = e;
  if (level === 'deny') return { level, reason };
  switch (mode) {
    case 'plan':
      return planOutcome(e);
    case 'auto-edit':
      return autoEditOutcome(e);
    case 'yolo':
      return level === 'ask' ? { level: 'allow', reason: `yolo mode: ${reason} (allowed without asking)` } : { level, reason };
    case 'auto':
      return level === 'ask' ? { level, reason: `${reason} (auto mode: no classifier configured, so a person decides)` } : { level, reason };
    default:
      return { level, reason };
  }
}

/** Plan mode lets only read-only calls run. */
function planOutcome(e: Evaluation): { level: Level; reason: string } {
  const { family } = e.input;
  const mutating = family === 'write' || family === 'edit' || e.parts.some((p) => p.mutating);
  if (!mutating) return { level: e.level, reason: e.reason };
  const what = e.parts.find((p) => p.mutating)?.label ?? family;
  return { level: 'deny', reason: `plan mode lets only read-only calls run, and ${what} changes something` };
}

/** Auto-edit approves a call whose every asking part is an edit inside the workspace. */
function autoEditOutcome(e: Evaluation): { level: Level; reason: string } {
  const { level, reason } = e;
  if (level !== 'ask' || e.input.family === 'meta') return { level, reason };
  const isEdit = (f: Finding) => f.level === 'allow' || EDIT_RULES.has(f.rule);
  const editsOnly = e.parts.every((p) => {
    if (e.allowedBy.has(p) || p.findings.every((f) => f.level === 'allow')) return true;
    if (p.external) return false;
    if (p.kind === 'command') return p.argv !== undefined && EDIT_PROGRAMS.has(p.argv[0]) && p.findings.every(isEdit);
    return p.findings.every(isEdit);
  });
  if (editsOnly) return { level: 'allow', reason: 'auto-edit mode approves edits inside the workspace' };
  // A write that plants code for later commands is never an edit this mode approves: say so.
  const planted = e.parts.flatMap((p) => p.findings).find((f) => f.rule === 'exec-config');
  return { level, reason: planted ? `${planted.rule}: ${planted.message}` : reason };
}
