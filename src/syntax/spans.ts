import type { Span } from './ast.js';

/** A span moved by `f` (an offset map), never inverted. */
export function movedSpan(span: Span, f: (i: number) => number): Span {
  const start = f(span.start);
  return { start, end: Math.max(start, f(span.end)) };
}

/** Moving spans: every `span` object below a value is rewritten in place by `f`. */
export function mapSpans(value: unknown, f: (i: number) => number, seen = new Set<object>()): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  const o = value as Record<string, unknown>;
  const span = o.span as { start: number; end: number } | undefined;
  if (span && typeof span.start === 'number' && !seen.has(span)) {
    seen.add(span);
    span.start = f(span.start);
    span.end = Math.max(span.start, f(span.end));
  }
  for (const v of Object.values(o)) mapSpans(v, f, seen);
}
