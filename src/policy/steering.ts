/**
 * The reason an agent reads: which rule decided, what was judged dangerous, and a safer way where
 * one is known — so the agent can change course instead of retrying the same call.
 */
import type { Decision } from './decision.js';

export interface Steering {
  text: string;
  /** The finding ids (and settings rule) behind the decision. */
  rules: string[];
}

/** The reason's opening words: what shellgate decided. */
function headline(level: Decision['level']): string {
  if (level === 'allow') return 'shellgate allows this';
  if (level === 'ask') return 'shellgate asks: approval is needed';
  return 'shellgate denies this';
}

/** `hint(ruleId)`: a safer alternative for a finding or guard rule, when one is known. */
export function steeringReason(d: Decision, hint?: (rule: string) => string | undefined): Steering {
  const decisive = d.level === 'allow' ? [] : d.findings.filter((f) => f.level === d.level);
  const rules = [...new Set(decisive.map((f) => f.rule))];
  const settingsRule = /^(\S+\(.*?\)|\S+) (?:denies|asks for)\b/.exec(d.reason)?.[1];
  if (settingsRule && (d.layer === 'rule-deny' || d.layer === 'rule-ask' || d.layer === 'whole-tool-deny')) rules.unshift(settingsRule);
  const head = headline(d.level);
  // The hint of the rule the reason names comes first, so the two agree.
  const named = rules.filter((r) => d.reason.startsWith(`${r}:`));
  const safer = [...named, ...rules].map((r) => hint?.(r)).find((h): h is string => typeof h === 'string' && h !== '');
  const parts = [`${head} (${d.layer}): ${d.reason}`];
  if (safer) parts.push(`Safer: ${safer}`);
  return { text: parts.join('. ').replace(/\.\./g, '.'), rules };
}
