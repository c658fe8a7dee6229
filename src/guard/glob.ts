/**
 * Glob lists as the guard tests them: against every path and argument of every command. The
 * answers are picomatch's (`picomatch(patterns, { dot: true })`); only the cost differs.
 */
import picomatch from 'picomatch';

/**
 * A matcher for `patterns` with picomatch's `dot: true` semantics. picomatch's own matcher
 * builds result objects on every call and runs one expression per pattern; this tests the whole
 * list with one expression made of picomatch's own (as paths/classify.ts does), after the exact
 * comparison picomatch makes first. With no ignore, format or basename options and POSIX paths,
 * picomatch matches a non-empty input that equals a pattern or that its expression accepts.
 * Throws as picomatch does on a bad pattern.
 */
export function globMatcher(patterns: readonly string[]): (input: string) => boolean {
  if (patterns.length === 0) return () => false;
  // Windows paths are rewritten by picomatch before matching: leave that to it.
  if (process.platform === 'win32') return picomatch([...patterns], { dot: true });
  const exact = new Set(patterns);
  const sources = patterns.map((p) => picomatch.makeRe(p, { dot: true, windows: false }).source);
  // Joined expressions renumber groups, which only back-references and named groups would notice
  // (picomatch writes neither): should one appear, test the expressions one by one.
  const separate = sources.some((s) => /\\[1-9k]|\(\?<(?![=!])/.test(s));
  if (separate) {
    const each = sources.map((s) => new RegExp(s));
    return (input) => input !== '' && (exact.has(input) || each.some((r) => r.test(input)));
  }
  const joined = new RegExp(sources.join('|'));
  return (input) => input !== '' && (exact.has(input) || joined.test(input));
}
