/**
 * Gate files: the files that keep the gate on. Each agent registers its pre-tool hook in a file it
 * reads at start (or can switch every hook off there: `disableAllHooks`, `hooksConfig.enabled`),
 * and shellgate reads its own settings and runs its own code cache. An agent that rewrites one of
 * them turns shellgate off for every later call, so a write, edit or delete of one is a built-in
 * deny that no rule and no mode lifts (yolo included); reading them is judged as before.
 *
 * The list is derived from the agent profiles (agents/*.ts: `settings`, `hookFiles`, `init.file`),
 * never kept twice: a `~/x` entry is under the home, a `./x` entry under every workspace root, an
 * absolute one where it is. Paths are compared as written and as the kernel reaches them (links on
 * disk followed, so a workspace link to `~/.claude/settings.json` is that file), and without case
 * (a file system that folds case reaches the file through `.Claude/Settings.json`).
 */
import { posix } from 'node:path';
import { AGENTS } from '../agents/registry.js';
import { AGENT_IDS } from '../agents/types.js';
import { linearGlob } from '../guard/linear-glob.js';
import { globsMayMeet } from '../paths/glob-meet.js';
import { realpathNearest } from '../paths/resolve.js';
import type { ParsedRule } from './rule-syntax.js';
import type { RuleEntry } from './settings.js';

/** shellgate's own settings. */
const SHELLGATE_FILES = ['~/.config/shellgate/**', '~/.config/shellgate.json'];
/**
 * The code cache bin/shellgate.cjs runs (`$XDG_CACHE_HOME/shellgate`, by default under `~/.cache`):
 * a write there plants code, but deleting `~/.cache` only makes the launcher build it again, so
 * its folders are not gate files.
 */
const SHELLGATE_CACHE = ['~/.cache/shellgate/**'];

export interface GateFileContext {
  home: string;
  /** Workspace roots: a project's agent files (`./.claude/settings.json`) are under each. */
  roots: readonly string[];
  /** Files the gate itself loaded (`--config`, `--settings`, the approvals file), absolute. */
  loaded?: readonly string[];
}

/** Every agent's hook and settings files as written in the profiles (`~/…`, `./…`, absolute). */
export function agentGateFiles(): string[] {
  const out = new Set<string>();
  for (const id of AGENT_IDS) {
    const a = AGENTS[id];
    if (!a) continue;
    for (const s of a.settings) out.add(s.path);
    for (const f of a.hookFiles ?? []) out.add(f);
    out.add(a.init.file);
  }
  return [...out];
}

/** The gate files of a context as absolute path patterns (each anchor as written and as its realpath). */
export function gateFilePatterns(ctx: GateFileContext, cache = true): string[] {
  const homes = anchorsOf([ctx.home]);
  const roots = anchorsOf(ctx.roots);
  const out = new Set<string>();
  for (const f of [...agentGateFiles(), ...SHELLGATE_FILES, ...(cache ? SHELLGATE_CACHE : [])]) {
    if (f.startsWith('~/')) for (const h of homes) out.add(posix.join(h, f.slice(2)));
    else if (f.startsWith('./')) for (const r of roots) out.add(posix.join(r, f.slice(2)));
    // Windows paths (`C:\…`) are not this machine's: only absolute POSIX paths are kept.
    else if (f.startsWith('/')) out.add(f);
  }
  for (const f of ctx.loaded ?? []) for (const p of anchorsOf([f])) out.add(p);
  return [...out];
}

function anchorsOf(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const plain = posix.normalize(p).replace(/(.)\/+$/, '$1');
    out.add(plain);
    out.add(realpathNearest(plain));
  }
  return [...out];
}

/** The folders between an anchor and a gate file (`~/.claude` for `~/.claude/settings.json`): deleting or replacing one removes the file. */
function foldersOf(pattern: string, anchors: readonly string[]): string[] {
  const anchor = anchors.filter((a) => pattern.startsWith(a === '/' ? '/' : a + '/')).sort((a, b) => b.length - a.length)[0];
  // An absolute file's anchor is its top-level folder (`/etc`): the guard rules already watch `/etc` itself.
  const floor = anchor ?? '/' + (pattern.split('/')[1] ?? '');
  const out: string[] = [];
  for (let d = posix.dirname(pattern); d.length > floor.length && d !== '/'; d = posix.dirname(d)) {
    if (!/[*?[{]/.test(d)) out.push(d);
  }
  return out;
}

/** Tests of a path against the gate files. */
export interface GateFileMatcher {
  /** The path is a gate file, or a folder holding one below its anchor (the rule match tries each place it lands). */
  names(path: string): boolean;
  /** A glob that may reach a gate file or such a folder without naming it (`~/.claude/*.json`, `.c*`). */
  mayReach(glob: string): boolean;
}

export function gateFileMatcher(ctx: GateFileContext): GateFileMatcher {
  const patterns = gateFilePatterns(ctx);
  const anchors = [...anchorsOf([ctx.home]), ...anchorsOf(ctx.roots)];
  const folders = new Set(
    gateFilePatterns(ctx, false)
      .flatMap((p) => foldersOf(p, anchors))
      .map((d) => d.toLowerCase()),
  );
  const tests = patterns.map((p) => linearGlob(p.toLowerCase()));
  const hit = (p: string) => {
    const l = p.toLowerCase().replace(/(.)\/+$/, '$1');
    return folders.has(l) || tests.some((t) => t(l));
  };
  const targets = [...patterns, ...folders];
  return {
    // The name as given; where it lands through links is tried by the rule match itself, which
    // tests a deny on every landing of the part (policy/path-forms.ts) with the gate's resolver.
    names: hit,
    // The strictest reading of the glob: its wildcards may match dot names (`dotglob`, a tool's own
    // glob). A whole tree (`dir/**`: find's walk, chmod -R) is left to the findings, as a write of
    // the folder itself is (tar x, git checkout .): it names no file, and an allow rule for the
    // command (`Bash(find . -name *.o -delete)`) is the user's word on it.
    mayReach: (glob) => !/\/\*\*$/.test(glob) && targets.some((t) => globsMayMeet(glob, t, { dotA: true, dotB: true, nocase: true })),
  };
}

const GLOB = /[*?[]/;

/**
 * The gate-file rules for a context: a deny for a write, edit or delete that names a gate file (or
 * a folder holding one), and an ask — which asks in every mode, as a user's ask rule does — for a
 * glob that may reach one. Rule entries, so that the layer table applies them to shell operations
 * and file tools alike, before any allow rule or mode.
 */
const cache = new Map<string, RuleEntry[]>();
export function gateFileRules(ctx: GateFileContext): RuleEntry[] {
  const key = [ctx.home, ctx.roots.join('\u0001'), (ctx.loaded ?? []).join('\u0001')].join('\u0000');
  let rules = cache.get(key);
  if (!rules) {
    if (cache.size >= 64) cache.clear();
    const m = gateFileMatcher(ctx);
    rules = [
      entry('deny', 'gate-files(Edit)', (p) => (GLOB.test(p) ? false : m.names(p))),
      entry('ask', 'gate-files(Edit, glob)', (p) => GLOB.test(p) && (m.names(p) || m.mayReach(p))),
    ];
    cache.set(key, rules);
  }
  return rules;
}

export const GATE_FILES_ORIGIN =
  "built-in: an agent's hook and settings files and shellgate's own keep the gate on; no mode or rule lets a tool call change them — edit them yourself";

function entry(level: 'deny' | 'ask', text: string, path: (p: string) => boolean): RuleEntry {
  // Edit rules cover every part that writes (Write and Delete operations, write/edit/patch tools).
  const rule: ParsedRule = { text, tool: 'Edit', whole: false, bash: null, domain: null, mcp: null, toolName: null, subject: null, literals: [], path };
  return { rule, at: () => rule, level, source: 'managed', origin: GATE_FILES_ORIGIN, channels: null, approval: false };
}
