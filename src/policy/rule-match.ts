/** Whether a settings rule, an approval or a preset speaks about one part of a tool call. */
import type { ParsedRule, RuleTool } from './rule-syntax.js';
import type { RuleEntry } from './settings.js';
import type { Part } from './tool-calls.js';

/** Does a rule (anchored to the call's cwd and home) speak about this part? */
export function matches(entry: RuleEntry, part: Part, cwd: string, home: string): boolean {
  const r: ParsedRule = entry.at(cwd, home);
  if (r.mcp) return part.toolName !== undefined && r.mcp(part.toolName);
  if (r.toolName !== null) return matchesNamedTool(entry, r, part);
  if (!part.tools.includes(r.tool as RuleTool)) return false;
  if (r.whole) return true;
  if (r.bash && part.argv) return r.bash(part.argv) && (entry.level !== 'allow' || namesEveryGuardedOption(r, part));
  if (r.path && part.path !== undefined) return r.path(part.path);
  if (r.domain && part.host !== undefined) return r.domain(part.host);
  return false;
}

/** A rule naming one tool (`Grep`, `Agent(Explore)`) speaks about that tool's calls only. */
function matchesNamedTool(entry: RuleEntry, r: ParsedRule, part: Part): boolean {
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
