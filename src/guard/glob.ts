/**
 * Glob lists as the guard tests them: against every path and argument of every command. The
 * language is picomatch's with `dot: true` (linear-glob.ts says where it differs); the matching is
 * linear in pattern × input, because both are the attacker's to choose (a repository's rule file,
 * a command's words) and a backtracking expression can be made to run for hours.
 */
import { linearGlob } from './linear-glob.js';

/** A matcher for any of `patterns`; throws on a pattern with too many `{…}` alternatives. */
export function globMatcher(patterns: readonly string[]): (input: string) => boolean {
  if (patterns.length === 0) return () => false;
  const exact = new Set(patterns);
  const each = patterns.map((p) => linearGlob(p));
  return (input) => input !== '' && (exact.has(input) || each.some((m) => m(input)));
}
