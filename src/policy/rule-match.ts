/** Whether a settings rule, an approval or a preset speaks about one part of a tool call. */
import type { ParsedRule, RuleTool } from './rule-syntax.js';
import type { RuleEntry } from './settings.js';
import type { Part } from './tool-calls.js';
import { globsMayMeet } from '../paths/glob-meet.js';
import { statSync } from 'node:fs';
import { posix } from 'node:path';

/** Does a rule (anchored to the call's cwd and home) speak about this part? */
export function matches(entry: RuleEntry, part: Part, cwd: string, home: string): boolean {
  const r: ParsedRule = entry.at(cwd, home);
  if (r.mcp) return part.toolName !== undefined && r.mcp(part.toolName);
  if (r.toolName !== null) return matchesNamedTool(entry, r, part);
  if (!part.tools.includes(r.tool as RuleTool)) return false;
  if (r.whole) return true;
  if (r.bash && part.argv) return r.bash(part.argv) && (entry.level !== 'allow' || namesEveryGuardedOption(r, part));
  if (r.path && part.path !== undefined) return pathMatches(entry, r, part);
  if (r.domain && part.host !== undefined) return r.domain(part.host);
  return false;
}

/** A rule naming one tool (`Grep`, `Agent(Explore)`) speaks about that tool's calls only. */
function matchesNamedTool(entry: RuleEntry, r: ParsedRule, part: Part): boolean {
  if (part.kind !== 'call' || part.toolName !== r.toolName) return false;
  if (r.whole) return true;
  if (r.path) return part.path !== undefined && pathMatches(entry, r, part);
  if (r.subject) {
    // A tool whose subject shellgate does not know: a deny or ask naming it applies (stricter); an allow does not.
    if (part.subject === undefined) return entry.level !== 'allow';
    return part.subject.length > 0 && part.subject.every((v) => r.subject!(v));
  }
  return false;
}

/**
 * Does a path rule speak about the part's path? A path is where the kernel lands, not only its
 * name: a deny or ask holds when the rule matches the path as written or any place it lands
 * (the strictest reading), and when the part walks a tree or is a glob, when the rule may match
 * something it reaches. An allow covers the part only when it covers every place it lands, and
 * never a place that cannot be known; it never gets wider from a walk or a glob.
 */
function pathMatches(entry: RuleEntry, r: ParsedRule, part: Part): boolean {
  const test = r.path!;
  const landings = part.landings;
  if (entry.level === 'allow') {
    if (landings === null) return false;
    if (landings === undefined || landings.length === 0) return test(part.path!);
    return landings.every((forms) => forms.some(test));
  }
  const forms = [part.path!, ...(landings ?? []).flat()];
  if (forms.some(test)) return true;
  return reaches(r, part, forms);
}

/**
 * May a walk below the part's path, or its glob, reach a path the rule names? Compared pattern
 * against pattern (paths/glob-meet.ts), so "no" is a proof. A listing reads no file's content: it
 * reaches only what a rule says of a directory's contents (`Read(./secrets/**)`).
 */
function reaches(r: ParsedRule, part: Part, forms: readonly string[]): boolean {
  if (!part.walks && !part.glob) return false;
  // The tree as it is on the disk: a path reached that the rule names (for a listing: one inside a directory it names).
  const below = part.below?.();
  if (below) {
    const test = r.path!;
    return below.some((p) => test(p) && (!part.lists || test(posix.dirname(p))));
  }
  // A rule with no pattern to compare (a preset's function) is tested on the paths themselves only.
  if (!r.pathGlobs) return false;
  // A rule naming a path covers what is inside it only where it is a directory (`.env` is a file: no `.env/x.ts`).
  const named = r.pathGlobs.filter((g, i) => i === 0 || isDirectory(g.slice(0, -'/**'.length)));
  const globs = part.lists ? named.filter((g) => g.endsWith('/**')) : named;
  if (globs.length === 0) return false;
  const dot = part.walks !== undefined ? part.walks === 'all' : part.dotGlob === true;
  const options = { dotA: dot, dotB: true, nocase: false };
  return forms.some((f) => {
    const reached = part.walks !== undefined ? `${f.replace(/\/+$/, '')}/**` : f;
    return globs.some((g) => globsMayMeet(reached, g, options));
  });
}

/**
 * An allow rule's `*` never stands for an option that changes what the program is (`find -delete`,
 * `git commit --no-verify`): the rule must name it (`Bash(find . -delete)`).
 */
function namesEveryGuardedOption(r: ParsedRule, part: Part): boolean {
  return (part.guardedOptions ?? []).every((o) => r.literals.includes(o));
}

/** `named-option: …` when an allow rule matches the part's argv but does not name one of its guarded options. */
export function uncoveredOption(rules: RuleEntry[], p: Part): string | null {
  if (!p.argv || !p.guardedOptions?.length) return null;
  for (const e of rules) {
    if (e.level !== 'allow' || e.rule.toolName !== null || !e.rule.bash || !e.rule.bash(p.argv)) continue;
    const missing = p.guardedOptions.find((o) => !e.rule.literals.includes(o));
    const why = p.findings.find((f) => f.rule === 'named-option' && f.subject === missing)?.message;
    if (missing) return `named-option: ${e.rule.text} does not name \`${missing}\`${why ? ` — ${why}` : ''}`;
  }
  return null;
}

/** Is there a directory at `path` now (links followed)? */
function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}
