/**
 * How both real-shell oracles judge a run: which verdicts excuse whatever the shell does (not an
 * allow, and a finding that says what shellgate could not know), and which programs the shell ran
 * that shellgate did not list.
 */
import { it } from 'vitest';
import type { Verdict } from '../../src/index.js';
import type { RunResult } from './sandbox.js';

const EXCUSING = new Set(['parse-error', 'parse-doubt', 'depth-limit', 'input-limit', 'expansion-limit', 'stdin-exec', 'internal-error', 'dialect-difference']);
/** Findings in the dynamic category (arithmetic-injection, prompt-expansion…) also say "not statically known". */
const DYNAMIC_CATEGORY = new Set(['arithmetic-injection', 'prompt-expansion', 'zsh-expansion']);
const excusing = (rule: string) => rule.startsWith('dynamic-') || rule.startsWith('unknown-') || EXCUSING.has(rule) || DYNAMIC_CATEGORY.has(rule);

/** Not allowed, with a finding that says what cannot be known: nothing the shell runs can contradict it. */
export const excusedVerdict = (v: Verdict): boolean => v.level !== 'allow' && v.findings.some((f) => excusing(f.rule));

export const IN_CI = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';

/**
 * A suite whose sandbox (or shell) is missing says so instead of passing silently: in CI, where
 * `required`, with a failing test; elsewhere with one printed line and a skipped test.
 */
export function unavailable(message: string, what: string, required = true): void {
  if (IN_CI && required) {
    it(`${what} (required in CI)`, () => {
      throw new Error(message);
    });
  } else {
    console.warn(`\n*** ${message} Skipped. ***\n`);
    it.skip(what, () => {});
  }
}

/** The result of a command not run because its verdict is excused. */
export const NOT_RUN: RunResult = { command: '', status: null, timedOut: false, records: [], logProblem: null };

/** Programs the shell ran (distinct; `NAME (missing)` when looked up and not found) that the verdict does not list. */
export function unlisted(v: Verdict, r: RunResult): string[] {
  const listed = new Set(v.commands.map((c) => c.program).filter((p): p is string => !!p));
  const ran = new Set<string>();
  for (const rec of r.records) if (!listed.has(rec.program)) ran.add(rec.kind === 'missing' ? `${rec.program} (missing)` : rec.program);
  return [...ran].sort();
}
