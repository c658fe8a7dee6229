/** The jail and sensitive presets (policy/presets.ts) as deny rules for one call's context. */
import { posix } from 'node:path';
import { PathClassifier, sensitivePatterns } from '../paths/classify.js';
import { isInside } from '../paths/resolve.js';
import { parseRule, type ParsedRule } from './rule-syntax.js';
import type { PresetName } from './presets.js';
import type { RuleEntry } from './settings.js';

export interface PresetContext {
  cwd: string;
  roots: string[];
  home: string;
}

/**
 * Preset rules for a context, built once per (presets, cwd, roots, home, extra roots): building
 * them parses every sensitive pattern and, for the jail, reads the roots' realpaths — work a
 * hook or server repeats for every call otherwise.
 */
const presetCache = new Map<string, RuleEntry[]>();
export function presetRulesFor(presets: PresetName[], ctx: PresetContext, extraRoots: string[]): RuleEntry[] {
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

function presetRules(presets: PresetName[], ctx: PresetContext, extraRoots: string[]): RuleEntry[] {
  return [...(presets.includes('sensitive') ? sensitiveRules(ctx) : []), ...(presets.includes('jail') ? jailRules(ctx, extraRoots) : [])];
}

function presetEntry(rule: ParsedRule, preset: PresetName): RuleEntry {
  return { rule, at: () => rule, level: 'deny', source: 'managed', origin: `preset ${preset}`, channels: null, approval: false };
}

/** Read, Edit and Write of every sensitive pattern denied. */
function sensitiveRules(ctx: PresetContext): RuleEntry[] {
  const out: RuleEntry[] = [];
  const anchors = { projectRoot: ctx.cwd, cwd: ctx.cwd, home: ctx.home };
  for (const tool of ['Read', 'Edit', 'Write']) {
    for (const p of sensitivePatterns(ctx.home)) {
      // An absolute pattern is written `//path` in a rule (a single `/` is relative to the project).
      const spec = p.startsWith('/') ? '/' + p : p;
      out.push(presetEntry(parseRule(`${tool}(${spec})`, anchors), 'sensitive'));
    }
  }
  return out;
}

/**
 * Read, Edit and Write of any path outside the workspace roots (scratch directories included) and
 * extra roots denied. Shared temp is outside: a jail that let the agent read `/tmp/krb5cc_0`, or
 * write through a link planted at a predictable `/tmp` name, would not hold it.
 */
function jailRules(ctx: PresetContext, extraRoots: string[]): RuleEntry[] {
  const classifier = new PathClassifier({ home: ctx.home, workspaceRoots: ctx.roots });
  const inside = (p: string) => [...classifier.workspaceRoots, ...extraRoots].some((r) => isInside(posix.normalize(p), r));
  return (['Read', 'Edit', 'Write'] as const).map((tool) =>
    presetEntry(
      { text: `jail(${tool})`, tool, whole: false, bash: null, domain: null, mcp: null, toolName: null, subject: null, literals: [], path: (p) => !inside(p) },
      'jail',
    ),
  );
}
