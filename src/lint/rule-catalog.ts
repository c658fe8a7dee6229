/**
 * Every rule id a decision or a lint report can carry, described the same way: the guard rules
 * (built-in and the user's), the analyser's core findings and the linter's own rules. `shellgate
 * rules` shows them; a SARIF report lists them all in `tool.driver.rules`.
 */
import type { GuardRule } from '../guard/rule-types.js';
import { CORE_FINDINGS, type FindingMeta } from '../findings/catalog.js';
import { LINT_RULES, type LintRuleMeta } from './lint-rules.js';

/** A guard rule, a core finding or a lint rule, as `rules` shows it. */
export interface RuleInfo {
  id: string;
  category: string;
  level: string;
  /** The guard rule's message; a core finding's or lint rule's template (`{detail}`: what it is about). */
  message: string;
  rationale: string;
  safer?: string;
  /** MITRE ATT&CK technique ids (guard rules). */
  attack?: string[];
  /** `builtin` and `user` guard rules, a `core` finding of the analyser or the gate, or a `lint` rule. */
  source: 'builtin' | 'user' | 'core' | 'lint';
  examples?: GuardRule['examples'];
}

/** A catalogue entry (a core finding's or a lint rule's meta) as a RuleInfo. */
function fromMeta(id: string, m: Pick<FindingMeta, 'category' | 'level' | 'message' | 'rationale' | 'safer'>, source: 'core' | 'lint'): RuleInfo {
  return { id, category: m.category, level: m.level, message: m.message, rationale: m.rationale, ...(m.safer !== undefined ? { safer: m.safer } : {}), source };
}

export function coreFindings(): RuleInfo[] {
  return Object.entries(CORE_FINDINGS as Record<string, FindingMeta>).map(([id, m]) => fromMeta(id, m, 'core'));
}

export function lintRules(): RuleInfo[] {
  return Object.entries(LINT_RULES as Record<string, LintRuleMeta>).map(([id, m]) => fromMeta(id, m, 'lint'));
}

export function guardInfo(r: GuardRule): RuleInfo {
  return {
    id: r.id,
    category: r.category,
    level: r.level,
    message: r.message,
    rationale: r.rationale,
    ...(r.safer !== undefined ? { safer: r.safer } : {}),
    ...(r.attack !== undefined ? { attack: r.attack } : {}),
    source: r.builtin ? 'builtin' : 'user',
    examples: r.examples,
  };
}

/** Every id: guard rules first, then the core findings, then the linter's own rules. */
export function allRules(guards: readonly GuardRule[]): RuleInfo[] {
  return [...guards.map(guardInfo), ...coreFindings(), ...lintRules()];
}
