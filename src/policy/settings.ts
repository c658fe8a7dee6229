/**
 * Settings sources and their layering: managed → user → project → local → session. shellgate's
 * own JSON (schema: rules/settings.schema.json) and importers for the `permissions` blocks of
 * Claude Code (.claude/settings.json, settings.local.json) and Qwen Code (.qwen/settings.json).
 * A bad file is an error naming the file, the JSON pointer and line, and the rule. An agent's file
 * in the repository (project or local) may narrow what shellgate decides, never widen it: its allow
 * rules, extra directories and wider modes are set aside with a warning.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, posix, resolve } from 'node:path';
import { ShellgateError } from '../errors.js';
import type { AnalyzerOptions } from '../analyzer.js';
import { SETTINGS_OPTION_KEYS } from '../analyzer-options.js';
import { parseRule, RuleSyntaxError, type ParsedRule, type ParseRuleOptions, type PathAnchors } from './rule-syntax.js';
import { AGENTS, modeNamed, settingsFormatOf } from '../agents/registry.js';
import { parseJsonc } from '../agents/jsonc.js';
import { MODES, type Mode } from './modes.js';
import { PRESETS, type PresetName } from './presets.js';
import { readConfigText } from '../config-file.js';
import { TrustedInstallers } from '../guard/installer-urls.js';
import { defaultTempDirs } from '../paths/classify.js';
import { isInside, realpathNearest } from '../paths/resolve.js';

export const SOURCE_ORDER = ['managed', 'user', 'project', 'local', 'session'] as const;
export type SourceName = (typeof SOURCE_ORDER)[number];
export type SettingsFormat = 'shellgate' | 'claude' | 'qwen';
export type RuleLevel = 'allow' | 'ask' | 'deny';

export interface SettingsSource {
  source: SourceName;
  /** A JSON file, or `settings` given inline. */
  file?: string;
  settings?: unknown;
  /** Default: from the path (`.claude/` → claude, `.qwen/` → qwen), else shellgate. */
  format?: SettingsFormat;
  /**
   * A file that may not exist: skipped when missing. Default: true for the `user` and `local`
   * layers (a user config, `settings.local.json`), false for the others.
   */
  optional?: boolean;
}

/** How a rule's tool name is read: agent tools are known; imported files may name tools shellgate does not. */
function ruleOptions(format: SettingsFormat): ParseRuleOptions {
  return { unknownTools: format === 'shellgate' ? 'error' : 'accept' };
}

export interface RuleEntry {
  /** Parsed with the load-time cwd and home: for validation and listing. */
  rule: ParsedRule;
  /** The rule as it applies to a call's cwd and home (`./x` and `~/x` are relative to them). */
  at(cwd: string, home: string): ParsedRule;
  level: RuleLevel;
  source: SourceName;
  /** File and JSON pointer the rule came from (or `approval`). */
  origin: string;
  /** Channels the rule applies to; null for all. */
  channels: string[] | null;
  /** An approval given at run time ("always allow"), not a settings rule. */
  approval: boolean;
}

export interface Policy {
  rules: RuleEntry[];
  additionalDirectories: string[];
  /**
   * The agent's own scratch directories (`scratchDirs`, absolute): read like the workspace although
   * they sit in shared temp. Only managed and user settings may declare one: a repository's file
   * may narrow what is allowed, never widen it.
   */
  scratchDirs: string[];
  presets: PresetName[];
  defaultMode: Mode | null;
  analyzer: AnalyzerOptions;
  /** What was read but not applied, and why (an imported allow rule shellgate cannot read). */
  warnings: string[];
}

const ANALYZER_KEYS: ReadonlySet<string> = new Set(SETTINGS_OPTION_KEYS);
const OWN_KEYS = new Set(['$schema', 'permissions', 'presets', 'defaultMode', 'audit', 'scratchDirs', ...ANALYZER_KEYS]);
const PERMISSION_KEYS = new Set(['allow', 'ask', 'deny', 'additionalDirectories', 'defaultMode']);

/** The importer a file needs: the agent folder it sits in decides (agents/registry.ts), else shellgate's own. */
export function detectFormat(file: string | undefined): SettingsFormat {
  if (!file) return 'shellgate';
  const f = settingsFormatOf(file);
  if (f === null) return 'shellgate';
  // Gemini CLI's settings carry the same permission keys as Qwen Code's (its fork).
  return f === 'gemini' ? 'qwen' : f;
}

/**
 * The layer of an agent's settings file named on the command line (`--settings FILE`): where it is
 * one of an agent's user or managed files it is that layer, as the hook reads it; else
 * `settings.local.json` is the local layer and any other the project's (which narrows, never widens).
 */
export function commandLineSource(file: string, home: string): SourceName {
  const path = resolve(file);
  for (const agent of Object.values(AGENTS)) {
    for (const s of agent?.settings ?? []) {
      if (s.source !== 'user' && s.source !== 'managed') continue;
      if ((s.path.startsWith('~/') ? join(home, s.path.slice(2)) : s.path) === path) return s.source;
    }
  }
  return /\.local\.json$/.test(file) ? 'local' : 'project';
}

/** Project root for `/x` patterns: the folder that holds `.claude/`, `.qwen/` or `.gemini/`, else the file's folder. */
function projectRootOf(file: string | undefined, cwd: string): string {
  if (!file) return cwd;
  const dir = dirname(resolve(file));
  return /^\.(claude|qwen|gemini|shellgate)$/.test(basename(dir)) ? dirname(dir) : dir;
}

function lineOf(text: string, needle: string): number | null {
  const at = text.indexOf(JSON.stringify(needle));
  return at < 0 ? null : text.slice(0, at).split('\n').length;
}

const emptyPolicy = (): Policy => ({ rules: [], additionalDirectories: [], scratchDirs: [], presets: [], defaultMode: null, analyzer: {}, warnings: [] });

/** One settings source as it is read: its name and text for error messages, its format and anchors. */
interface Reading {
  src: SettingsSource;
  name: string;
  text: string;
  format: SettingsFormat;
  anchors: PathAnchors;
  /** Throws the error for a JSON pointer, with the line of `needle` in the file when found. */
  fail(pointer: string, what: string, needle?: string): never;
}

/**
 * An agent's settings file that belongs to the repository (`.claude/settings.json`,
 * `settings.local.json`, `.gemini/settings.json`…): the repository's to write, so it may narrow
 * what shellgate decides (deny and ask rules, plan mode) and never widen it.
 */
function repositoryAgentFile(src: SettingsSource, format: SettingsFormat): boolean {
  return format !== 'shellgate' && (src.source === 'project' || src.source === 'local');
}

/** Modes a repository's file may set: they ask or deny at least what the default asks. */
const NARROWING_MODES: ReadonlySet<Mode> = new Set(['plan', 'default']);

export function loadSource(src: SettingsSource, cwd: string, home: string): Policy {
  const name = src.file ?? `(inline ${src.source} settings)`;
  const format = src.format ?? detectFormat(src.file);
  const file = src.file
    ? readSettingsFile(src.file, src.optional ?? (src.source === 'user' || src.source === 'local'), format === 'qwen')
    : { text: '', data: src.settings };
  if (file === null) return emptyPolicy();
  const { text, data } = file;
  const fail = (pointer: string, what: string, needle?: string): never => {
    const line = needle !== undefined ? lineOf(text, needle) : null;
    throw new ShellgateError('config', `${name}: ${pointer}${line !== null ? ` (line ${line})` : ''}: ${what}`);
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail('/', 'expected a JSON object');
  const obj = data as Record<string, unknown>;
  if (format === 'shellgate') for (const k of Object.keys(obj)) if (!OWN_KEYS.has(k)) fail(`/${k}`, `unknown setting (known: ${[...OWN_KEYS].join(', ')})`);
  const reading: Reading = { src, name, text, format, anchors: { projectRoot: projectRootOf(src.file, cwd), cwd, home }, fail };
  const policy = emptyPolicy();

  const perms = (obj.permissions ?? {}) as Record<string, unknown>;
  if (typeof perms !== 'object' || perms === null || Array.isArray(perms)) fail('/permissions', 'must be an object');
  if (format === 'shellgate')
    for (const k of Object.keys(perms)) if (!PERMISSION_KEYS.has(k)) fail(`/permissions/${k}`, `unknown key (known: ${[...PERMISSION_KEYS].join(', ')})`);
  const narrowOnly = repositoryAgentFile(src, format);
  for (const [level, list, pointer] of ruleLists(obj, perms, format)) if (list !== undefined) loadRuleList(reading, level, list, pointer, policy);
  if (narrowOnly) dropWidening(reading, policy);
  const dirs = perms.additionalDirectories;
  if (dirs !== undefined) {
    if (!Array.isArray(dirs) || dirs.some((d) => typeof d !== 'string')) fail('/permissions/additionalDirectories', 'must be a list of folders');
    if (narrowOnly) policy.warnings.push(`${name}: /permissions/additionalDirectories skipped: ${NEVER_WIDEN}`);
    else policy.additionalDirectories = (dirs as string[]).map((d) => (d.startsWith('~') ? home + d.slice(1) : resolve(reading.anchors.projectRoot, d)));
  }
  const mode = obj.defaultMode ?? perms.defaultMode;
  if (mode !== undefined) {
    const pointer = obj.defaultMode !== undefined ? '/defaultMode' : '/permissions/defaultMode';
    const m = modeNamed(String(mode))?.mode ?? mode;
    if (!(MODES as readonly unknown[]).includes(m)) fail(pointer, `unknown mode ${JSON.stringify(mode)} (known: ${MODES.join(', ')})`);
    if (narrowOnly && !NARROWING_MODES.has(m as Mode)) policy.warnings.push(`${name}: ${pointer} ${JSON.stringify(mode)} skipped: ${NEVER_WIDEN}`);
    else policy.defaultMode = m as Mode;
  }
  if (format === 'shellgate') loadOwnKeys(reading, obj, policy);
  return policy;
}

const NEVER_WIDEN = "a repository's settings may narrow what shellgate decides, never widen it";

/**
 * A repository's agent file keeps its deny and ask rules; its allow rules are read (a bad one still
 * fails as before) but lift nothing: the repository would be approving its own commands. One
 * warning says how many were set aside.
 */
function dropWidening({ name }: Reading, policy: Policy): void {
  const allows = policy.rules.filter((r) => r.level === 'allow');
  if (allows.length === 0) return;
  policy.rules = policy.rules.filter((r) => r.level !== 'allow');
  const shown = allows
    .slice(0, 3)
    .map((r) => r.rule.text)
    .join(', ');
  policy.warnings.push(`${name}: ${allows.length} allow rule(s) not applied (${shown}${allows.length > 3 ? ', …' : ''}): ${NEVER_WIDEN}`);
}

/**
 * The file's text and JSON; null for an optional file that does not exist. Gemini CLI's and Qwen
 * Code's files (`jsonc`) may hold comments, as those agents read them.
 */
function readSettingsFile(file: string, optional: boolean, jsonc: boolean): { text: string; data: unknown } | null {
  if (optional && !existsSync(file)) return null;
  const text = readConfigText(file);
  try {
    return { text, data: jsonc ? parseJsonc(text) : JSON.parse(text) };
  } catch (e) {
    throw new ShellgateError('config', `${file}: not valid JSON${jsonc ? ' (comments allowed)' : ''} (${(e as Error).message})`);
  }
}

/** The lists of rules a format holds, with their level and JSON pointer. */
function ruleLists(obj: Record<string, unknown>, perms: Record<string, unknown>, format: SettingsFormat): [RuleLevel, unknown, string][] {
  const lists: [RuleLevel, unknown, string][] = [
    ['allow', perms.allow, '/permissions/allow'],
    ['ask', perms.ask, '/permissions/ask'],
    ['deny', perms.deny, '/permissions/deny'],
  ];
  if (format === 'qwen') {
    // Older Qwen Code / Gemini CLI settings name tools to allow or exclude.
    const tools = (obj.tools ?? {}) as Record<string, unknown>;
    lists.push(['allow', tools.allowed, '/tools/allowed'], ['deny', tools.exclude, '/tools/exclude'], ['deny', obj.excludeTools, '/excludeTools']);
  }
  return lists;
}

function loadRuleList({ src, name, format, anchors, fail }: Reading, level: RuleLevel, list: unknown, pointer: string, policy: Policy): void {
  if (!Array.isArray(list)) fail(pointer, 'must be a list of rules');
  (list as unknown[]).forEach((item, i) => {
    const entry = typeof item === 'object' && item !== null && format === 'shellgate' ? (item as Record<string, unknown>) : { rule: item };
    const ruleText = entry.rule;
    if (typeof ruleText !== 'string') fail(`${pointer}/${i}`, 'a rule is a string (or { "rule": …, "channels": […] })');
    const channels = entry.channels ?? null;
    if (channels !== null && (!Array.isArray(channels) || channels.some((c) => typeof c !== 'string')))
      fail(`${pointer}/${i}/channels`, 'must be a list of channel names', ruleText as string);
    const text = format === 'qwen' ? qwenToClaude(ruleText as string) : (ruleText as string);
    let rule: ParsedRule;
    try {
      rule = parseRule(text, anchors, ruleOptions(format));
    } catch (e) {
      if (!(e instanceof RuleSyntaxError)) throw e;
      // An agent's own file may hold allow rules shellgate's syntax cannot read (Claude Code's
      // old "always allow" entries such as `Bash(cd x && npm test)`). Skipping an allow never
      // widens; failing would block every call of that agent. A deny or ask is never skipped.
      if (format !== 'shellgate' && level === 'allow') {
        policy.warnings.push(`${name}: ${pointer}/${i}: allow rule ${JSON.stringify(ruleText)} skipped: ${e.message}`);
        return;
      }
      return fail(`${pointer}/${i}`, `rule ${JSON.stringify(ruleText)}: ${e.message}`, ruleText as string);
    }
    policy.rules.push({
      rule,
      at: anchoredRule(text, anchors.projectRoot, ruleOptions(format)),
      level,
      source: src.source,
      origin: `${name}#${pointer}/${i}`,
      channels: channels as string[] | null,
      approval: false,
    });
  });
}

/** shellgate's own keys: audit, presets, scratch directories and analyser options. */
function loadOwnKeys(reading: Reading, obj: Record<string, unknown>, policy: Policy): void {
  const { src, fail } = reading;
  if (obj.audit !== undefined) {
    const a = obj.audit as Record<string, unknown>;
    if (typeof a !== 'object' || a === null || Array.isArray(a)) fail('/audit', 'must be an object like { "file": "audit.jsonl" }');
    for (const k of Object.keys(a)) if (k !== 'file' && k !== 'maxBytes') fail(`/audit/${k}`, 'unknown key (known: file, maxBytes)');
    if (typeof a.file !== 'string' || a.file === '') fail('/audit/file', 'must be a file name');
    if (a.maxBytes !== undefined && (typeof a.maxBytes !== 'number' || !(a.maxBytes > 0))) fail('/audit/maxBytes', 'must be a positive number of bytes');
  }
  const presets = obj.presets ?? [];
  if (!Array.isArray(presets) || presets.some((p) => !Object.prototype.hasOwnProperty.call(PRESETS, p)))
    fail('/presets', `must list presets among ${Object.keys(PRESETS).join(', ')}`);
  policy.presets = presets as PresetName[];
  loadScratchDirs(reading, obj.scratchDirs, policy);
  checkTrustedInstallers(obj.trustedInstallers, fail);
  for (const k of ANALYZER_KEYS) if (obj[k] !== undefined) (policy.analyzer as Record<string, unknown>)[k] = obj[k];
  // Which shell reads the commands: a repository's file may make it `auto` (every reading), never
  // name one shell, which could drop the reading of the shell that really runs them.
  if (obj.shell !== undefined && obj.shell !== 'auto' && !usersOwnFile(src, reading.anchors.cwd)) {
    delete policy.analyzer.shell;
    policy.warnings.push(
      `${reading.name}: /shell skipped: only the user's settings may name the shell; a repository's file may set "auto", which reads every shell`,
    );
  }
  for (const key of ['commandSpecDirs', 'ruleFiles'] as const) {
    const list = policy.analyzer[key];
    if (Array.isArray(list) && src.file) policy.analyzer[key] = list.map((d) => (typeof d === 'string' ? resolve(dirname(src.file!), d) : d));
  }
}

/** Sources that may declare a scratch directory: the user's own files, never the repository's. */
const SCRATCH_SOURCES: ReadonlySet<SourceName> = new Set(['managed', 'user']);

/**
 * Is this settings file the user's rather than the repository's? A managed or user source is. A
 * `--config` file (loaded as a project source by the CLI, the hook and the server) is when it lies
 * neither inside the working directory nor in a folder above it (`~/.config/shellgate.json`, not
 * `./.shellgate.json` or the repository root's): a repository's own file may narrow, never widen.
 */
function usersOwnFile(src: SettingsSource, cwd: string): boolean {
  if (SCRATCH_SOURCES.has(src.source)) return true;
  if (src.file === undefined) return false;
  const dir = realpathNearest(dirname(resolve(cwd, src.file)));
  const here = realpathNearest(resolve(cwd));
  return !isInside(dir, here) && !isInside(here, dir);
}

/**
 * `scratchDirs`: folders only this user's agent writes (its background task outputs), absolute or
 * under `~/`. One in a repository's settings (usersOwnFile) is skipped with a warning (a repository may narrow,
 * never widen). A temp root itself, the root, the home or a folder above one of them is refused:
 * that would make all of shared temp, or everything, read like the workspace.
 */
function loadScratchDirs({ src, name, anchors, fail }: Reading, list: unknown, policy: Policy): void {
  if (list === undefined) return;
  if (!Array.isArray(list) || list.some((d) => typeof d !== 'string' || d === ''))
    fail('/scratchDirs', 'must be a list of absolute folders (or ~/…) the agent alone writes');
  if (!usersOwnFile(src, anchors.cwd)) {
    policy.warnings.push(
      `${name}: /scratchDirs skipped: only the user's settings (user or managed, or a --config file outside the working directory and the folders above it) may declare a scratch directory; a repository may narrow, never widen`,
    );
    return;
  }
  (list as string[]).forEach((d, i) => {
    const dir = d === '~' || d.startsWith('~/') ? posix.join(anchors.home, d.slice(1)) : d;
    if (!posix.isAbsolute(dir)) fail(`/scratchDirs/${i}`, `${JSON.stringify(d)} must be absolute or start with ~/`, d);
    const norm = posix.normalize(dir).replace(/(.)\/+$/, '$1');
    // Compared as written and through links (macOS: /tmp is /private/tmp).
    const broad = ['/', anchors.home, ...defaultTempDirs()].find((t) => isInside(t, norm) || isInside(realpathNearest(t), realpathNearest(norm)));
    if (broad !== undefined) fail(`/scratchDirs/${i}`, `${JSON.stringify(d)} holds ${broad}: a scratch directory must be a folder of its own inside it`, d);
    policy.scratchDirs.push(norm);
  });
}

/** `trustedInstallers`: a list of `https://HOST[/PATH]` prefixes; a bad entry fails naming it and its line. */
function checkTrustedInstallers(list: unknown, fail: Reading['fail']): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) fail('/trustedInstallers', 'must be a list of URL prefixes such as "https://sh.rustup.rs"');
  TrustedInstallers.from(list as unknown[], (entry, i, problem) =>
    fail(`/trustedInstallers/${i}`, `${JSON.stringify(entry)} ${problem}`, typeof entry === 'string' ? entry : undefined),
  );
}

/** A rule re-anchored to each call's cwd and home, parsed once per pair. */
export function anchoredRule(text: string, projectRoot: string, options: ParseRuleOptions = {}): (cwd: string, home: string) => ParsedRule {
  const cache = new Map<string, ParsedRule>();
  return (cwd, home) => {
    const key = cwd + '\0' + home;
    let r = cache.get(key);
    if (!r) {
      if (cache.size > 256) cache.clear();
      r = parseRule(text, { projectRoot, cwd, home }, options);
      cache.set(key, r);
    }
    return r;
  };
}

/** Qwen Code: a Bash pattern without `*` matches as a prefix (`npm run build --verbose` too). */
function qwenToClaude(rule: string): string {
  const m = /^(Bash|run_shell_command|Shell|ShellTool)\((.*)\)$/s.exec(rule.trim());
  if (!m || m[2].includes('*')) return rule;
  return `Bash(${m[2].trim()} *)`;
}

/** Merge sources in layering order; later sources add rules, the first defaultMode set wins from the top. */
export function mergePolicies(policies: Policy[]): Policy {
  const out: Policy = { rules: [], additionalDirectories: [], scratchDirs: [], presets: [], defaultMode: null, analyzer: {}, warnings: [] };
  for (const p of policies) {
    out.rules.push(...p.rules);
    out.additionalDirectories.push(...p.additionalDirectories);
    out.scratchDirs.push(...p.scratchDirs);
    for (const x of p.presets) if (!out.presets.includes(x)) out.presets.push(x);
    out.defaultMode = out.defaultMode ?? p.defaultMode;
    out.warnings.push(...p.warnings);
    // Trusted installers add up across layers (a project's list does not drop the user's); other options are replaced.
    const trusted = [...(out.analyzer.trustedInstallers ?? []), ...(p.analyzer.trustedInstallers ?? [])];
    Object.assign(out.analyzer, p.analyzer);
    if (trusted.length > 0) out.analyzer.trustedInstallers = trusted;
  }
  return out;
}
