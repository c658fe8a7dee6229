/**
 * Compile a declarative Matcher into a predicate over a Subject, once, at load time: lists are
 * resolved, globs and regular expressions compiled, and every field checked, so a bad rule fails
 * with its file, rule and field named, not when a command happens to reach it. What each field
 * means and costs is its entry in match-fields.ts.
 */
import { own } from '../own.js';
import type { Matcher } from './rule-types.js';
import { fail, type CompileEnv, type Compiled } from './compile-parts.js';
import { MATCH_FIELDS, type FieldCompile, type MatchField } from './match-fields.js';

export type { CompileEnv, Compiled } from './compile-parts.js';

const FIELD_NAMES = Object.keys(MATCH_FIELDS).join(', ');

export function compileMatcher(m: Matcher, env: CompileEnv, path = 'match'): Compiled {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) fail(env, path, 'must be an object');
  for (const k of Object.keys(m)) if (!own(MATCH_FIELDS, k)) fail(env, `${path}.${k}`, `is not a matcher field (known: ${FIELD_NAMES})`);
  // Checks run cheapest first (a program name before a predicate); each is pure, so order is free.
  // Fields are compiled in the table's order, so the first bad one is the one reported.
  const staged: { cost: number; check: Compiled }[] = [];
  for (const [name, field] of Object.entries(MATCH_FIELDS) as [keyof Matcher, MatchField<unknown>][]) {
    const value = m[name];
    if (value === undefined) continue;
    const cx: FieldCompile = {
      env,
      path: `${path}.${name}`,
      sub: (x, at) => compileMatcher(x, env, `${path}.${at}`),
      matcher: compileMatcher,
    };
    const check = field.compile(value, cx);
    staged.push({ cost: typeof field.cost === 'number' ? field.cost : field.cost(value), check });
  }
  if (staged.length === 0) fail(env, path, 'matches everything: give at least one condition');
  const checks = staged.sort((a, b) => a.cost - b.cost).map((x) => x.check);
  if (checks.length === 1) return checks[0];
  return (s) => {
    for (const c of checks) if (!c(s)) return false;
    return true;
  };
}
