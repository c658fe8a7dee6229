/**
 * The gatekeeper for every tool call. Layers, in this order (each recorded in the trace):
 * 1 tool default · 2 whole-tool deny · 3 built-in guard deny · 4 parameter-level deny ·
 * 5 ask rules · 6 allow rules and approvals · 7 external directories · 8 mode, then channel.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { posix } from 'node:path';
import { createAnalyzer, type Analyzer, type AnalysisContext, type AnalyzerOptions } from '../analyzer.js';
import { PathClassifier, sensitivePatterns } from '../paths/classify.js';
import { isInside } from '../paths/resolve.js';
import { ShellgateError } from '../errors.js';
import { stricter, type Finding, type Level, type TraceStep, type Verdict } from '../verdict/types.js';
import { loadSource, mergePolicies, SOURCE_ORDER, type Policy, type RuleEntry, type SettingsSource } from './settings.js';
import { parseRule, type ParsedRule, type RuleTool } from './rule-syntax.js';
import { MODES, NON_INTERACTIVE_CHANNELS, type Mode } from './modes.js';
import type { PresetName } from './presets.js';
import { argOf, familyOf, resolveToolPath, shellParts, strictestOf, toolParts, type Part, type ToolCall, type ToolFamily } from './tool-calls.js';
import { toolSpecOf } from '../agents/registry.js';
import { approvalRules } from './approvals.js';
import { findingsWith } from '../findings/catalog.js';

export interface GateOptions {
  /** Settings, in any order; they are layered managed → user → project → local → session. */
  settings?: SettingsSource[];
  presets?: PresetName[];
  /** Mode when neither the call's context nor the settings name one (default: `default`). */
  mode?: Mode;
  /** Analyser options (merged over the settings' own). */
  analyzer?: AnalyzerOptions;
  /** Analyser options the settings' own override (a caller's defaults, such as a hook's input limit). */
  analyzerDefaults?: AnalyzerOptions;
  /**
   * Where persistent approvals ("always allow") are kept, as shellgate settings. They are loaded
   * as approvals: they lift asks like allow rules, but never authorise another directory.
   */
  approvalsFile?: string;
}

export interface GateContext extends AnalysisContext {
  mode?: Mode;
  /** `cli`, `ide`, `chat`, `api`, `non-interactive`… (default `cli`). */
  channel?: string;
}

export interface PartDecision {
  kind: Part['kind'];
  label: string;
  /** The sub-command it belongs to (shell calls). */
  command?: number;
  level: Level;
  /** Which layer and rule decided this part. */
  decidedBy: string;
}

export interface Decision {
  level: Level;
  reason: string;
  /** The layer that decided: tool-default, whole-tool-deny, guard-deny, rule-deny, rule-ask, rule-allow, external-directory, mode or channel. */
  layer: string;
  findings: Finding[];
  trace: TraceStep[];
  parts: PartDecision[];
  /** The analyser's verdict, for shell calls. */
  verdict?: Verdict;
}

export interface Gate {
  evaluate(call: ToolCall, context?: GateContext): Decision;
  /** "Always allow": add approvals of minimum scope for what asked; returns the rules added. */
  approve(call: ToolCall, context?: GateContext, scope?: 'session' | 'persistent'): string[];
  /** Re-read the settings; the new policy replaces the old only if all of it is valid. */
  reload(): Promise<{ ok: true } | { ok: false; error: string }>;
  readonly policy: Policy;
  /** The guard rules in force (built-in and user rule files). */
  readonly rules: Analyzer['rules'];
}

interface Loaded {
  policy: Policy;
  analyzer: Analyzer;
}

async function load(options: GateOptions): Promise<Loaded> {
  const sources = [...(options.settings ?? [])].sort((a, b) => SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source));
  for (const s of sources) {
    if (!(SOURCE_ORDER as readonly string[]).includes(s.source)) throw new ShellgateError('options', `settings source must be one of ${SOURCE_ORDER.join(', ')}, not ${JSON.stringify(s.source)}`);
  }
  const cwd = process.cwd();
  const policy = mergePolicies(sources.map((s) => loadSource(s, cwd, homedir())));
  for (const p of options.presets ?? []) if (!policy.presets.includes(p)) policy.presets.push(p);
  if (options.mode !== undefined && !(MODES as readonly string[]).includes(options.mode)) throw new ShellgateError('options', `mode must be one of ${MODES.join(', ')}`);
  const analyzer = await createAnalyzer({ ...options.analyzerDefaults, ...policy.analyzer, ...options.analyzer });
  return { policy, analyzer };
}

export async function createGate(options: GateOptions = {}): Promise<Gate> {
  let current = await load(options);
  const approvals: RuleEntry[] = [];
  const persisted = (): RuleEntry[] =>
    options.approvalsFile && existsSync(options.approvalsFile)
      ? loadSource({ source: 'local', file: options.approvalsFile, format: 'shellgate' }, process.cwd(), homedir()).rules.map((r) => ({ ...r, approval: true }))
      : [];
  let persistent = persisted();
  const classifiers = new Map<string, PathClassifier>();

  const gate: Gate = {
    get policy() {
      return current.policy;
    },
    get rules() {
      return current.analyzer.rules;
    },
    evaluate(call, context = {}) {
      return evaluate(current, [...approvals, ...persistent], classifiers, options, call, context);
    },
    approve(call, context = {}, scope = 'session') {
      const d = evaluate(current, [...approvals, ...persistent], classifiers, options, call, context);
      const ctx = resolveContext(context);
      const added: string[] = [];
      for (const text of approvalRules(call, d, familyOf(call.tool, call.agent))) {
        const rule = parseRule(text, { projectRoot: ctx.cwd, cwd: ctx.cwd, home: ctx.home }, { unknownTools: 'accept' });
        const entry: RuleEntry = { rule, at: () => rule, level: 'allow', source: 'session', origin: `approval (${scope})`, channels: null, approval: true };
        // Session approvals are looked at before persistent ones.
        if (scope === 'session') approvals.unshift(entry);
        else persistent.push({ ...entry, origin: `approval (persistent, ${options.approvalsFile ?? 'memory'})` });
        added.push(text);
      }
      if (scope === 'persistent' && options.approvalsFile && added.length > 0) savePersistent(options.approvalsFile, added);
      return added;
    },
    async reload() {
      try {
        const next = await load(options);
        const nextPersistent = persisted();
        current = next;
        persistent = nextPersistent;
        return { ok: true };
      } catch (e) {
        return { ok: false, error: (e as Error).message };
      }
    },
  };
  return gate;
}

function savePersistent(file: string, rules: string[]): void {
  let data: { permissions?: { allow?: unknown[] } } = {};
  if (existsSync(file)) data = JSON.parse(readFileSync(file, 'utf8')) as typeof data;
  data.permissions ??= {};
  const allow = (data.permissions.allow ??= []);
  for (const r of rules) if (!allow.includes(r)) allow.push(r);
  writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
}

function resolveContext(c: GateContext): { cwd: string; roots: string[]; home: string } {
  const cwd = c.cwd ?? process.cwd();
  return { cwd, roots: c.workspaceRoots ?? [cwd], home: c.home ?? homedir() };
}

/** Does a rule (anchored to the call's cwd and home) speak about this part? */
function matches(entry: RuleEntry, part: Part, cwd: string, home: string): boolean {
  const r: ParsedRule = entry.at(cwd, home);
  if (r.mcp) return part.toolName !== undefined && r.mcp(part.toolName);
  if (r.toolName !== null) {
    // A rule naming one tool speaks about that tool's calls only.
    if (part.kind !== 'call' || part.toolName !== r.toolName) return false;
    if (r.whole) return true;
    if (r.path) return part.path !== undefined && r.path(part.path);
    if (r.subject) {
      // A tool whose subject shellgate does not know: a deny or ask naming it applies (stricter); an allow does not.
      if (part.subject === undefined) return entry.level !== 'allow';
      return part.subject.length > 0 && part.subject.every((v) => r.subject!(v));
    }
    return false;
  }
  if (!part.tools.includes(r.tool as RuleTool)) return false;
  if (r.whole) return true;
  if (r.bash && part.argv) return r.bash(part.argv) && (entry.level !== 'allow' || namesEveryGuardedOption(r, part));
  if (r.path && part.path !== undefined) return r.path(part.path);
  if (r.domain && part.host !== undefined) return r.domain(part.host);
  return false;
}

/** `named-option: …` when an allow rule matches the part's argv but does not name one of its guarded options. */
function uncoveredOption(rules: RuleEntry[], p: Part): string | null {
  if (!p.argv || !p.guardedOptions?.length) return null;
  for (const e of rules) {
    if (e.level !== 'allow' || e.rule.toolName !== null || !e.rule.bash || !e.rule.bash(p.argv)) continue;
    const missing = p.guardedOptions.find((o) => !e.rule.literals.includes(o));
    const why = p.findings.find((f) => f.rule === 'named-option' && f.subject === missing)?.message;
    if (missing) return `named-option: ${e.rule.text} does not name \`${missing}\`${why ? ` — ${why}` : ''}`;
  }
  return null;
}

/**
 * An allow rule's `*` never stands for an option that changes what the program is (`find -delete`,
 * `git commit --no-verify`): the rule must name it (`Bash(find . -delete)`).
 */
function namesEveryGuardedOption(r: ParsedRule, part: Part): boolean {
  return (part.guardedOptions ?? []).every((o) => r.literals.includes(o));
}

function evaluate(
  loaded: Loaded,
  approvals: RuleEntry[],
  classifiers: Map<string, PathClassifier>,
  options: GateOptions,
  call: ToolCall,
  context: GateContext,
): Decision {
  if (typeof call !== 'object' || call === null || typeof call.tool !== 'string') throw new ShellgateError('input', 'a tool call is { tool: string, args: {…} }');
  const { policy, analyzer } = loaded; // decisions keep the policy they started with
  const { mode: ctxMode, channel: ctxChannel, ...analysisContext } = context;
  const ctx = resolveContext(context);
  const mode: Mode = ctxMode ?? policy.defaultMode ?? options.mode ?? 'default';
  if (!(MODES as readonly string[]).includes(mode)) throw new ShellgateError('options', `mode must be one of ${MODES.join(', ')}, not ${JSON.stringify(mode)}`);
  const channel = ctxChannel ?? 'cli';
  const trace: TraceStep[] = [];
  const spec = toolSpecOf(call.tool, call.agent);
  const family: ToolFamily = familyOf(call.tool, call.agent);

  const key = ctx.home + '\0' + ctx.roots.join('\0');
  let classifier = classifiers.get(key);
  if (!classifier) {
    classifier = new PathClassifier({ home: ctx.home, workspaceRoots: ctx.roots });
    if (classifiers.size > 64) classifiers.clear();
    classifiers.set(key, classifier);
  }
  const extraRoots = policy.additionalDirectories;
  const isExternal = (p: string) => !classifier.workspaceRoots.some((r) => isInside(p, r)) && !classifier.tempDirs.some((t) => isInside(p, t)) && !extraRoots.some((r) => isInside(p, r));

  // Rules in force: approvals first (session before persistent), then settings by source, presets last.
  const applies = (e: RuleEntry) => e.channels === null || e.channels.includes(channel);
  const rules = [...approvals, ...policy.rules.filter(applies), ...presetRulesFor(policy.presets, ctx, extraRoots)];

  // 1. Tool default
  let verdict: Verdict | undefined;
  let parts: Part[];
  let global: Finding[] = [];
  const shellCommand = family === 'shell' ? (argOf(call, ...(spec?.command ?? ['command'])) ?? null) : null;
  if (family === 'shell' && shellCommand !== null) {
    // The shell tool's own directory argument is where the command runs.
    const dir = argOf(call, ...(spec?.dir ?? []));
    const cwd = dir !== undefined && dir !== '' ? resolveToolPath(dir, ctx) : undefined;
    verdict = analyzer.analyze(shellCommand, cwd !== undefined ? { ...analysisContext, cwd } : analysisContext);
    ({ parts, global } = shellParts(verdict, isExternal));
  } else {
    // A shell call without a command string is read like any call with missing arguments: never allow.
    parts = toolParts(call, family === 'shell' ? { ...spec!, family: 'shell', required: [spec?.command ?? ['command']] } : spec, { classifier, cwd: ctx.cwd, home: ctx.home, isExternal });
  }
  const findings = verdict ? verdict.findings : parts.flatMap((p) => p.findings);
  const defaultLevel = stricter(strictestOf(global), strictestOf(parts.flatMap((p) => p.findings)));
  trace.push({ layer: 'tool-default', level: defaultLevel, reason: defaultReason(findings, defaultLevel, call.tool) });
  const done = (level: Level, layer: string, reason: string, decided: PartDecision[] = []): Decision => {
    trace.push({ layer, level, reason });
    trace.push({ layer: 'final', level, reason });
    return { level, reason, layer, findings, trace, parts: decided, verdict };
  };

  // 2. Whole-tool deny
  const toolDeny = rules.find((e) => e.level === 'deny' && e.rule.whole && parts.some((p) => matches(e, p, ctx.cwd, ctx.home)));
  if (toolDeny) return done('deny', 'whole-tool-deny', `${toolDeny.rule.text} denies the tool (${toolDeny.origin})`);
  trace.push({ layer: 'whole-tool-deny', level: 'allow', reason: 'no rule denies the whole tool' });

  // 3. Built-in guard deny: nothing later lifts it.
  const guardIds = new Set(analyzer.rules.map((r) => r.id));
  const guardDeny = findings.find((f) => f.level === 'deny' && guardIds.has(f.rule));
  if (guardDeny) return done('deny', 'guard-deny', `${guardDeny.rule}: ${guardDeny.message}`);
  trace.push({ layer: 'guard-deny', level: 'allow', reason: 'no built-in deny' });

  // 4. Parameter-level deny on any sub-command or operation.
  for (const p of parts) {
    const d = rules.find((e) => e.level === 'deny' && !e.rule.whole && matches(e, p, ctx.cwd, ctx.home));
    if (d) return done('deny', 'rule-deny', `${d.rule.text} denies ${p.label} (${d.origin})`);
  }
  trace.push({ layer: 'rule-deny', level: 'allow', reason: 'no deny rule matches' });

  // 5. Ask rules: an ask beats any allow.
  let askRule: { entry: RuleEntry; part: Part } | null = null;
  for (const p of parts) {
    const a = rules.find((e) => e.level === 'ask' && matches(e, p, ctx.cwd, ctx.home));
    if (a) {
      askRule = { entry: a, part: p };
      break;
    }
  }
  trace.push({ layer: 'rule-ask', level: askRule ? 'ask' : 'allow', reason: askRule ? `${askRule.entry.rule.text} asks for ${askRule.part.label} (${askRule.entry.origin})` : 'no ask rule matches' });

  // 6. Allow rules and approvals, part by part.
  const allowedBy = new Map<Part, RuleEntry>();
  for (const p of parts) {
    const a = rules.find((e) => e.level === 'allow' && matches(e, p, ctx.cwd, ctx.home));
    if (a) allowedBy.set(p, a);
  }
  const decided: PartDecision[] = [];
  let level: Level = strictestOf(global);
  let reason = global.find((f) => f.level === level && level !== 'allow');
  let reasonText = reason ? `${reason.rule}: ${reason.message}` : '';
  for (const p of parts) {
    const own = allowedBy.get(p) ?? (p.command !== undefined && p.kind === 'operation' ? allowedBy.get(parts.find((c) => c.kind === 'command' && c.command === p.command)!) : undefined);
    // An allow rule vouches for the argv it names, not for tricks around it (GIT_PAGER=…, $((…)), CR).
    const residual = own ? strictestOf(p.findings.filter((f) => NOT_LIFTABLE.has(f.rule))) : strictestOf(p.findings);
    decided.push({ kind: p.kind, label: p.label, command: p.command, level: residual, decidedBy: own && residual === 'allow' ? `allow rule ${own.rule.text} (${own.origin})` : residual === 'allow' ? 'tool default' : `tool default: ${p.findings.find((f) => f.level === residual)?.rule}` });
    if (residual !== 'allow' && stricter(level, residual) !== level) {
      level = residual;
      const f = p.findings.find((x) => x.level === residual);
      reasonText = f ? `${f.rule}: ${f.message}` : p.label;
      // Say so when an allow rule would have matched but for an option it does not name.
      const unnamed = own ? null : uncoveredOption(rules, p.kind === 'operation' ? (parts.find((c) => c.kind === 'command' && c.command === p.command) ?? p) : p);
      if (unnamed) reasonText = unnamed;
    }
  }
  if (askRule) {
    level = stricter(level, 'ask');
    reasonText = reasonText || `${askRule.entry.rule.text} asks for ${askRule.part.label}`;
  }
  trace.push({ layer: 'rule-allow', level, reason: allowedBy.size > 0 ? [...new Set([...allowedBy.values()].map((e) => `${e.rule.text} (${e.origin})`))].join(', ') + (level === 'allow' ? ': every part allowed' : `; still ${level}: ${reasonText}`) : level === 'allow' ? 'every part is allowed by default' : reasonText });

  let layer: string = askRule && level === 'ask' ? 'rule-ask' : allowedBy.size > 0 && (level === 'allow' || strictestOf(parts.flatMap((p) => p.findings)) !== level) ? 'rule-allow' : 'tool-default';
  const before7 = level;
  // 7. External directories: only a settings rule naming the path (or the bare tool) authorises it.
  for (const p of parts) {
    if (!p.external || p.path === undefined) continue;
    const named = policy.rules.filter(applies).some((e) => e.level === 'allow' && matches(e, p, ctx.cwd, ctx.home));
    if (!named) {
      if (level === 'allow') reasonText = `${p.label} is outside the workspace and no settings rule names it`;
      level = stricter(level, 'ask');
      decided.push({ kind: p.kind, label: p.label, command: p.command, level: 'ask', decidedBy: 'external-directory check' });
    }
  }
  trace.push({ layer: 'external-directory', level, reason: parts.some((p) => p.external) ? 'paths outside the workspace checked against settings rules' : 'no path outside the workspace' });

  if (level !== before7) layer = 'external-directory';
  // 8. Mode, then channel.
  const before8 = level;
  // An ask rule the user wrote is a question they want asked in every mode (Claude Code 2.1.98).
  if (askRule && level === 'ask' && (mode === 'yolo' || mode === 'auto-edit' || mode === 'auto')) {
    reasonText = `${askRule.entry.rule.text} asks for ${askRule.part.label} (${askRule.entry.origin}); an ask rule asks in ${mode} mode too`;
  } else ({ level, reasonText } = applyMode(mode, level, reasonText, parts, allowedBy, family));
  if (level !== before8) layer = 'mode';
  trace.push({ layer: 'mode', level, reason: `${mode} mode${level === 'allow' && mode === 'yolo' ? ': ask becomes allow' : ''}` });
  if (level === 'ask' && NON_INTERACTIVE_CHANNELS.has(channel)) {
    level = 'deny';
    layer = 'channel';
    reasonText = `${reasonText} — and on the ${channel} channel there is nobody to ask`;
  }
  trace.push({ layer: 'channel', level, reason: channel });
  if (level === 'allow' && !reasonText) reasonText = 'every part is allowed';
  trace.push({ layer: 'final', level, reason: reasonText });
  return { level, reason: reasonText, layer, findings, trace, parts: decided, verdict };
}

/** Findings an allow rule never lifts: the rule's pattern cannot see them (the catalog's `unliftable`). */
const NOT_LIFTABLE = findingsWith('unliftable');

function defaultReason(findings: Finding[], level: Level, tool: string): string {
  const f = findings.find((x) => x.level === level && level !== 'allow');
  return f ? `${f.rule}: ${f.message}` : `${tool}: read-only inside the workspace`;
}

/**
 * Edits and writes inside the workspace that auto-edit approves (the catalog's `edit`). `exec-config`
 * (a write to `.git/**`, `.envrc`, `.cargo/config.toml`… — paths/exec-config.ts) is not among them.
 */
const EDIT_RULES = findingsWith('edit');
const EDIT_PROGRAMS = new Set(['mkdir', 'touch', 'cp', 'mv', 'ln', 'install', 'tee', 'sed', 'patch', 'truncate']);

function applyMode(mode: Mode, level: Level, reasonText: string, parts: Part[], allowedBy: Map<Part, RuleEntry>, family: ToolFamily): { level: Level; reasonText: string } {
  if (level === 'deny') return { level, reasonText };
  switch (mode) {
    case 'plan': {
      const mutating = family === 'write' || family === 'edit' || parts.some((p) => p.mutating);
      if (mutating) {
        const what = parts.find((p) => p.mutating)?.label ?? family;
        return { level: 'deny', reasonText: `plan mode lets only read-only calls run, and ${what} changes something` };
      }
      return { level, reasonText };
    }
    case 'auto-edit': {
      if (level !== 'ask' || family === 'meta') return { level, reasonText };
      const editsOnly = parts.every((p) => {
        if (allowedBy.has(p) || p.findings.every((f) => f.level === 'allow')) return true;
        if (p.external) return false;
        if (p.kind === 'command') return p.argv !== undefined && EDIT_PROGRAMS.has(p.argv[0]) && p.findings.every((f) => f.level === 'allow' || EDIT_RULES.has(f.rule));
        return p.findings.every((f) => f.level === 'allow' || EDIT_RULES.has(f.rule));
      });
      if (editsOnly) return { level: 'allow', reasonText: 'auto-edit mode approves edits inside the workspace' };
      // A write that plants code for later commands is never an edit this mode approves: say so.
      const planted = parts.flatMap((p) => p.findings).find((f) => f.rule === 'exec-config');
      return { level, reasonText: planted ? `${planted.rule}: ${planted.message}` : reasonText };
    }
    case 'yolo':
      return level === 'ask' ? { level: 'allow', reasonText: `yolo mode: ${reasonText} (allowed without asking)` } : { level, reasonText };
    case 'auto':
      return level === 'ask' ? { level, reasonText: `${reasonText} (auto mode: no classifier configured, so a person decides)` } : { level, reasonText };
    default:
      return { level, reasonText };
  }
}

/**
 * Preset rules for a context, built once per (presets, cwd, roots, home, extra roots): building
 * them parses every sensitive pattern and, for the jail, reads the roots' realpaths — work a
 * hook or server repeats for every call otherwise.
 */
const presetCache = new Map<string, RuleEntry[]>();
function presetRulesFor(presets: PresetName[], ctx: { cwd: string; roots: string[]; home: string }, extraRoots: string[]): RuleEntry[] {
  if (presets.length === 0) return [];
  const key = [presets.join(','), ctx.cwd, ctx.home, ctx.roots.join('\u0001'), extraRoots.join('\u0001')].join('\u0000');
  let rules = presetCache.get(key);
  if (!rules) {
    if (presetCache.size >= 64) presetCache.clear();
    rules = presetRules(presets, ctx, extraRoots);
    presetCache.set(key, rules);
  }
  return rules;
}

/** The jail and sensitive presets as deny rules. */
function presetRules(presets: PresetName[], ctx: { cwd: string; roots: string[]; home: string }, extraRoots: string[]): RuleEntry[] {
  const out: RuleEntry[] = [];
  const anchors = { projectRoot: ctx.cwd, cwd: ctx.cwd, home: ctx.home };
  if (presets.includes('sensitive')) {
    for (const tool of ['Read', 'Edit', 'Write']) {
      for (const p of sensitivePatterns(ctx.home)) {
        const spec = p.startsWith('~') ? p : p.startsWith('/') ? '/' + p : p;
        const rule = parseRule(`${tool}(${spec})`, anchors);
        out.push({ rule, at: () => rule, level: 'deny', source: 'managed', origin: 'preset sensitive', channels: null, approval: false });
      }
    }
  }
  if (presets.includes('jail')) {
    const classifier = new PathClassifier({ home: ctx.home, workspaceRoots: ctx.roots });
    const inside = (p: string) => [...classifier.workspaceRoots, ...classifier.tempDirs, ...extraRoots].some((r) => isInside(posix.normalize(p), r));
    for (const tool of ['Read', 'Edit', 'Write'] as const) {
      const rule: ParsedRule = { text: `jail(${tool})`, tool, whole: false, bash: null, domain: null, mcp: null, toolName: null, subject: null, literals: [], path: (p) => !inside(p) };
      out.push({
        rule,
        at: () => rule,
        level: 'deny',
        source: 'managed',
        origin: 'preset jail',
        channels: null,
        approval: false,
      });
    }
  }
  return out;
}
