/** The jail and sensitive presets (policy/presets.ts) as deny rules for one call's context. */
import { posix } from 'node:path';
import { PathClassifier, sensitivePatterns } from '../paths/classify.js';
import { isInside, staticPrefix } from '../paths/resolve.js';
import { globsMayMeet } from '../paths/glob-meet.js';
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

/**
 * Read, Edit and Write of every sensitive pattern denied, wherever the path is. A `**\/x` pattern
 * names that file in any folder (as the classifier reads it, paths/classify.ts), so it is anchored
 * at the root: anchored at the cwd, `cd src && cat ../.env` stepped past it, and a `.env` in another
 * workspace root, the home, a scratch or an additional directory was not covered. `~/x` is the
 * home's and `/x` is absolute, as written. Besides the paths themselves (sensitiveMatcher):
 * - a glob that may match a sensitive path (`cat ~/.ss*\/id_rsa`);
 * - a folder that holds a fixed sensitive path (`~` holds `~/.ssh/**`, `/etc` holds
 *   `/etc/shadow`): a recursive read of it (`grep -r x ~`, `tar czf x ~`) reads them, and the
 *   operation names only the folder.
 */
function sensitiveRules(ctx: PresetContext): RuleEntry[] {
  const out: RuleEntry[] = [];
  const anchors = { projectRoot: '/', cwd: '/', home: ctx.home };
  const classifier = new PathClassifier({ home: ctx.home, workspaceRoots: ctx.roots });
  for (const tool of ['Read', 'Edit', 'Write'] as const) {
    for (const p of sensitivePatterns(ctx.home)) {
      // An absolute pattern is written `//path` in a rule (a single `/` is relative to the project).
      const spec = p.startsWith('/') || p.startsWith('**/') ? '//' + p.replace(/^\//, '') : p;
      const rule = parseRule(`${tool}(${spec})`, anchors);
      out.push(presetEntry({ ...rule, path: sensitiveMatcher(rule.path!, absolutePattern(p, ctx.home)) }, 'sensitive'));
    }
    // A glob, by what it may match on disk: the classifier's own reading (links, the names in the
    // workspace, bash's default glob options), read afresh for each call.
    const glob = (p: string) => {
      if (!GLOB.test(p)) return false;
      classifier.startAnalysis();
      return classifier.classify(p, true).includes('sensitive');
    };
    const text = `sensitive(${tool}, glob)`;
    out.push(
      presetEntry({ text, tool, whole: false, bash: null, domain: null, mcp: null, toolName: null, subject: null, literals: [], path: glob }, 'sensitive'),
    );
  }
  return out;
}

function absolutePattern(p: string, home: string): string {
  if (p === '~' || p.startsWith('~/')) return posix.join(home, p.slice(1));
  return p.startsWith('/') ? p : '/' + p;
}

const GLOB = /[*?[]/;

/**
 * The pattern's own test, widened to the folders above its fixed part, named or matched by a glob
 * (bash's default wildcards, which skip dot names). A `**\/x` pattern has no fixed folder: every
 * folder may hold a `.env`, and which ones do is the disk's to say.
 */
function sensitiveMatcher(own: (p: string) => boolean, pattern: string): (p: string) => boolean {
  const fixed = GLOB.test(pattern) ? staticPrefix(pattern) : pattern;
  const above: string[] = [];
  for (let d = fixed; d !== '/' && !pattern.startsWith('/**');) above.push((d = posix.dirname(d)));
  const meets = (glob: string, target: string) => globsMayMeet(glob, target, { dotA: false, dotB: true, nocase: false });
  return (p) => {
    if (own(p)) return true;
    if (GLOB.test(p)) return above.some((a) => meets(p, a));
    return above.includes(posix.normalize(p).replace(/(.)\/+$/, '$1'));
  };
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
