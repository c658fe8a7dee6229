/**
 * The gatekeeper for every tool call: it loads the policy (settings, presets, approvals) and runs
 * the layer table (policy/layers.ts) over each call — 1 tool default · 2 whole-tool deny ·
 * 3 built-in guard deny · 4 parameter-level deny · 5 ask rules · 6 allow rules and approvals ·
 * 7 external directories · 8 mode · 9 channel — each recorded in the trace.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { ShellDialect } from '../syntax/dialects.js';
import { createAnalyzer, type Analyzer, type AnalysisContext, type AnalyzerOptions } from '../analyzer.js';
import { PathClassifier } from '../paths/classify.js';
import { isInside } from '../paths/resolve.js';
import { ShellgateError } from '../errors.js';
import { loadSource, mergePolicies, SOURCE_ORDER, type Policy, type RuleEntry, type SettingsSource } from './settings.js';
import { parseRule } from './rule-syntax.js';
import { MODES, type Mode } from './modes.js';
import type { PresetName } from './presets.js';
import { familyOf, type ToolCall } from './tool-calls.js';
import { toolSpecOf } from '../agents/registry.js';
import { approvalRules } from './approvals.js';
import type { Decision } from './decision.js';
import { decisionOf, runLayers, type Evaluation, type EvaluationInput } from './layers.js';
import { presetRulesFor } from './preset-rules.js';
import { gateFileRules } from './gate-files.js';

export type { Decision, PartDecision, LayerName, GateLayerName, AutoLayerName, AutoStepName } from './decision.js';
export type { Evaluation } from './layers.js';

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
  /**
   * The shell the agent runs its commands in as far as its hook can tell (its profile: documented
   * default, `$SHELL`, `CLAUDE_CODE_SHELL`): used when neither `shell` nor the settings name one.
   */
  agentShell?: ShellDialect;
  mode?: Mode;
  /** `cli`, `ide`, `chat`, `api`, `non-interactive`… (default `cli`). */
  channel?: string;
}

export interface Gate {
  evaluate(call: ToolCall, context?: GateContext): Decision;
  /**
   * The evaluation behind `evaluate`: the state the layer table reached, for a caller that appends
   * layers of its own (auto mode); `decisionOf` (policy/layers.ts) turns it into the decision.
   */
  evaluation(call: ToolCall, context?: GateContext): Evaluation;
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
  /** The settings and approvals files the gate reads: gate files (policy/gate-files.ts) like the agents' own. */
  files: string[];
}

async function load(options: GateOptions): Promise<Loaded> {
  const sources = [...(options.settings ?? [])].sort((a, b) => SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source));
  for (const s of sources) {
    if (!(SOURCE_ORDER as readonly string[]).includes(s.source))
      throw new ShellgateError('options', `settings source must be one of ${SOURCE_ORDER.join(', ')}, not ${JSON.stringify(s.source)}`);
  }
  const cwd = process.cwd();
  const policy = mergePolicies(sources.map((s) => loadSource(s, cwd, homedir())));
  for (const p of options.presets ?? []) if (!policy.presets.includes(p)) policy.presets.push(p);
  if (options.mode !== undefined && !(MODES as readonly string[]).includes(options.mode))
    throw new ShellgateError('options', `mode must be one of ${MODES.join(', ')}`);
  const analyzer = await createAnalyzer({ ...options.analyzerDefaults, ...policy.analyzer, ...options.analyzer });
  const files = [...sources.map((s) => s.file), options.approvalsFile].filter((f): f is string => f !== undefined).map((f) => resolve(cwd, f));
  return { policy, analyzer, files };
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
    evaluation(call, context = {}) {
      return runLayers(evaluationInput(current, [...approvals, ...persistent], classifiers, options, call, context));
    },
    evaluate(call, context = {}) {
      return decisionOf(gate.evaluation(call, context));
    },
    approve(call, context = {}, scope = 'session') {
      const d = gate.evaluate(call, context);
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

/** The path classifier for a (home, roots) pair, kept across calls: building one reads realpaths. */
function classifierFor(classifiers: Map<string, PathClassifier>, home: string, roots: string[]): PathClassifier {
  const key = home + '\0' + roots.join('\0');
  let classifier = classifiers.get(key);
  if (!classifier) {
    classifier = new PathClassifier({ home, workspaceRoots: roots });
    if (classifiers.size > 64) classifiers.clear();
    classifiers.set(key, classifier);
  }
  return classifier;
}

/** What the layers need to know about a call before the first one runs. */
function evaluationInput(
  loaded: Loaded,
  approvals: RuleEntry[],
  classifiers: Map<string, PathClassifier>,
  options: GateOptions,
  call: ToolCall,
  context: GateContext,
): EvaluationInput {
  if (typeof call !== 'object' || call === null || typeof call.tool !== 'string')
    throw new ShellgateError('input', 'a tool call is { tool: string, args: {…} }');
  const { policy, analyzer } = loaded; // decisions keep the policy they started with
  const { mode: ctxMode, channel: ctxChannel, agentShell, ...analysisContext } = context;
  // The shell: the caller's (`--shell`), else the user's settings, else what the agent's hook saw.
  if (analysisContext.shell === undefined && policy.analyzer.shell === undefined && agentShell !== undefined) analysisContext.shell = agentShell;
  const ctx = resolveContext(context);
  const mode: Mode = ctxMode ?? policy.defaultMode ?? options.mode ?? 'default';
  if (!(MODES as readonly string[]).includes(mode)) throw new ShellgateError('options', `mode must be one of ${MODES.join(', ')}, not ${JSON.stringify(mode)}`);
  const channel = ctxChannel ?? 'cli';
  // Shared temp is outside like any other folder: other users and programs leave files there
  // (`/tmp/krb5cc_0`), and a predictable name there may be a link planted to anywhere. The
  // agent's own scratch directories, declared in user settings, are read as workspace roots, by
  // the analyser as well (else its own outside-workspace finding would ask for them).
  // The user's additional directories are workspace for the analysis as for the file tools: one
  // boundary, so `cat` of a file there is judged as the Read tool's call of it is.
  const extraRoots = policy.additionalDirectories;
  const roots = [...ctx.roots, ...policy.scratchDirs, ...extraRoots];
  const classifier = classifierFor(classifiers, ctx.home, roots);
  // Paths are judged where they land (policy/path-forms.ts): the classifier holds the roots as the
  // disk has them (the additional directories among them); those are also inside as written.
  const isExternal = (p: string) => !classifier.workspaceRoots.some((r) => isInside(p, r)) && !extraRoots.some((r) => isInside(p, r));
  if (roots.length > ctx.roots.length) analysisContext.workspaceRoots = roots;
  const settingsRules = policy.rules.filter((e) => e.channels === null || e.channels.includes(channel));
  return {
    call,
    mode,
    channel,
    cwd: ctx.cwd,
    home: ctx.home,
    family: familyOf(call.tool, call.agent),
    spec: toolSpecOf(call.tool, call.agent),
    analyzer,
    analysisContext,
    classifier,
    isExternal,
    // Approvals first (session before persistent), then settings by source, presets, and the
    // gate files' built-in deny (and ask for a glob that may reach one) in every mode.
    rules: [
      ...approvals,
      ...settingsRules,
      ...presetRulesFor(policy.presets, { ...ctx, roots }, extraRoots),
      ...gateFileRules({ home: ctx.home, roots: ctx.roots, loaded: loaded.files }),
    ],
    settingsRules,
  };
}
