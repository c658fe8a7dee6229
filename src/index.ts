/** shellgate: decide allow / ask / deny for a shell command, and say why. */
export { createAnalyzer } from './analyzer.js';
export type { Analyzer, AnalyzerOptions, AnalysisContext } from './analyzer.js';
export type { ShellDialect } from './syntax/dialects.js';
export type { Verdict, Finding, Level, TraceStep } from './verdict/types.js';
export { stricter, LEVEL_ORDER } from './verdict/types.js';
export { CORE_FINDINGS, findingsWith } from './findings/catalog.js';
export type { FindingMeta, CoreFindingId, FindingExample, FindingFlag } from './findings/catalog.js';
export type { Operation, OpKind, OpOrigin, OpHandler } from './ops/types.js';
export type { WalkedCommand, CommandContext, Arg, RedirectTarget } from './walk/types.js';
export type { PathClass } from './paths/classify.js';
export type { CommandSpec, OptionSpec, ArgRole, CommandClass, ExtraOp, CommandSpecFile } from './programs/spec-types.js';
export type * as AST from './syntax/ast.js';
export { ShellgateError } from './errors.js';
export type { ErrorKind } from './errors.js';
export { createGate } from './policy/gate.js';
export type { Gate, GateOptions, GateContext, Decision, PartDecision } from './policy/gate.js';
export { GATE_LAYER_NAMES, AUTO_STEP_NAMES } from './policy/decision.js';
export type { LayerName, GateLayerName, AutoLayerName, AutoStepName } from './policy/decision.js';
export type { ToolCall } from './policy/tool-calls.js';
export type { SettingsSource, SourceName, SettingsFormat, Policy, RuleEntry } from './policy/settings.js';
export { MODES } from './policy/modes.js';
export type { Mode } from './policy/modes.js';
export { PRESETS } from './policy/presets.js';
export type { PresetName } from './policy/presets.js';
export { parseRule } from './policy/rule-syntax.js';
export type { GuardRule, Matcher, OpMatcher } from './guard/rule-types.js';
export { GUARD_CATEGORIES } from './guard/rule-types.js';
export { createAutoGate } from './auto/auto-gate.js';
export type { AutoGate, AutoOptions, AutoDecision, AutoRequest, AutoCall, RegexGuard } from './auto/auto-gate.js';
export { createOpenAIClassifier, DEFAULT_CLASSIFIER_MODEL, DEFAULT_STAGE1_TIMEOUT_MS, DEFAULT_STAGE2_TIMEOUT_MS } from './auto/classifier.js';
export type { Classifier, ClassifierInput, ClassifierVerdict, OpenAIClassifierOptions } from './auto/classifier.js';
export { DenialTracker, DEFAULT_DENIAL_LIMITS } from './auto/denial-tracker.js';
export type { DenialLimits } from './auto/denial-tracker.js';
export { redactSecrets } from './auto/redact.js';
export { AGENTS, toolSpecOf, isAgentId } from './agents/registry.js';
export { AGENT_IDS, HookInputError } from './agents/types.js';
export type {
  AgentId,
  AgentProfile,
  ToolSpec,
  ToolFamily,
  HookCodec,
  HookRequest,
  HookAnswer,
  HookDecision,
  ModeMapping,
  SettingsFile,
  InitSpec,
} from './agents/types.js';
export { answerHook } from './hook/answer.js';
export type { HookRuntime, HookResult } from './hook/answer.js';
export { createHookRuntime, agentSettingsSources, projectRootOf } from './hook/runtime.js';
export type { HookRuntimeOptions, ProjectRuntime } from './hook/runtime.js';
export { steeringReason } from './policy/steering.js';
export { AuditLog, DEFAULT_AUDIT_MAX_BYTES } from './audit/log.js';
export type { AuditLogOptions } from './audit/log.js';
export type { AuditRecord } from './audit/types.js';
export { createLinter } from './lint/create-linter.js';
export type { Linter, LinterOptions } from './lint/create-linter.js';
export type { LintFinding, FileResult, LintSummary } from './lint/types.js';
export { SOURCE_KINDS } from './lint/sources/types.js';
export type { SourceKindName } from './lint/sources/types.js';
export { LINT_RULES } from './lint/lint-rules.js';
export type { LintRuleId, LintRuleMeta, LintExample } from './lint/lint-rules.js';
