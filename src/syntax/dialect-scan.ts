/**
 * What both dialect readings share (dash-reading.ts, zsh-reading.ts): every node of bash's tree,
 * substitution bodies and heredocs included, in source order, asked what it means in the other
 * shell. A node means the same there (null); or something shellgate asks about (a string naming
 * the construct); or something it can say in bash: a rewrite of the node's text into bash text
 * whose reading is what the other shell does, or more (`$x:t` in zsh is `${x@A}`, a value derived
 * from x and unknown). The rewritten text is the shell's reading, and it is what gets walked.
 */
import type { Script, Span } from './ast.js';
import { visitNodes } from './parse-result.js';

/** A construct the other shell reads otherwise, as a finding names it, with where it is. */
export interface DialectDifference {
  what: string;
  span: Span;
}

/** Replace `text[span]` by `by` (an empty span inserts). */
export interface Rewrite {
  span: Span;
  by: string;
}

/**
 * What one node means in the other shell, beyond "the same" (null) or "ask" (a string):
 * `replace` is bash text for the node's span, or for `span` when given (which may reach past the
 * node: `$x:t` is a parameter and the literal after it), and its children are not asked about;
 * `append` is bash text to insert after the node (a call of a function zsh calls itself), whose
 * children are asked about as usual; `edits` are rewrites inside the node whose children are
 * still asked about (`noglob` dropped from a command); `ask` names a construct to ask about all
 * the same.
 */
export interface NodeRewrite {
  replace?: string;
  span?: Span;
  append?: string;
  edits?: Rewrite[];
  ask?: string;
}

export type NodeReading = null | string | NodeRewrite;

/** A node as the readings see it: its kind, its span, and its fields. */
export type ScannedNode = { type?: string; span?: Span } & Record<string, unknown>;

/** The other shell's reading of a whole script: the first construct to ask about, and the rewrites. */
export interface DialectReading {
  difference: DialectDifference | null;
  rewrites: Rewrite[];
}

/**
 * Read every node of `script` (parsed from `text`) with `reads`, in source order; nodes inside a
 * span of `skip` (bash text an earlier rewrite made) are not read.
 */
export function readDialect(script: Script, text: string, reads: (node: ScannedNode, text: string) => NodeReading, skip: readonly Span[] = []): DialectReading {
  let difference: DialectDifference | null = null;
  const rewrites: Rewrite[] = [];
  visitNodes(script, (o) => {
    const node = o as ScannedNode;
    const span = node.span;
    if (span === undefined) return;
    if (skip.some((s) => s.start <= span.start && span.end <= s.end)) return 'skip';
    if (typeof node.type !== 'string') return;
    const reading = reads(node, text);
    if (reading === null) return;
    if (typeof reading === 'string') {
      difference ??= { what: reading, span };
      return;
    }
    if (reading.ask !== undefined) difference ??= { what: reading.ask, span };
    if (reading.edits !== undefined) rewrites.push(...reading.edits);
    if (reading.append !== undefined) rewrites.push({ span: { start: span.end, end: span.end }, by: reading.append });
    if (reading.replace === undefined) return;
    rewrites.push({ span: reading.span ?? span, by: reading.replace });
    return 'skip';
  });
  return { difference, rewrites };
}

/** `text` with the rewrites made, and how a span of the new text maps back onto `text`. */
export interface RewrittenText {
  text: string;
  map: (s: Span) => Span;
}

/**
 * Make the rewrites (they come in source order and do not overlap; one that overlaps an earlier
 * one is returned in `clashes`, not made). A span of the new text maps to the same characters
 * outside the rewrites, and to the rewritten span from inside one; a span that starts or ends
 * where text was deleted takes the deleted text in.
 */
export function applyRewrites(text: string, rewrites: readonly Rewrite[]): RewrittenText & { clashes: Rewrite[]; placed: Map<Rewrite, Span> } {
  const sorted = [...rewrites].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  const clashes: Rewrite[] = [];
  const placed = new Map<Rewrite, Span>();
  /** Per rewrite made: where it starts and ends in the new text and in the old. */
  const pieces: { newStart: number; newEnd: number; old: Span }[] = [];
  let out = '';
  let at = 0;
  for (const r of sorted) {
    if (r.span.start < at) {
      clashes.push(r);
      continue;
    }
    out += text.slice(at, r.span.start);
    pieces.push({ newStart: out.length, newEnd: out.length + r.by.length, old: r.span });
    placed.set(r, { start: out.length, end: out.length + r.by.length });
    out += r.by;
    at = r.span.end;
  }
  out += text.slice(at);
  const back = (offset: number, end: boolean): number => {
    let shift = 0;
    for (const p of pieces) {
      // a deletion (nothing in the new text) belongs to the spans that start or end where it was
      const deleted = p.newStart === p.newEnd;
      if (end ? offset < p.newStart || (offset === p.newStart && !deleted) : offset < p.newStart) break;
      if (end ? offset <= p.newEnd : offset < p.newEnd || (deleted && offset === p.newStart)) return end ? p.old.end : p.old.start;
      shift = p.old.end - p.newEnd;
    }
    return offset + shift;
  };
  return { text: out, map: (s) => ({ start: back(s.start, false), end: Math.max(back(s.start, false), back(s.end, true)) }), clashes, placed };
}
