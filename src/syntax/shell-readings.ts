/**
 * A text as one shell reads it, said as bash text shellgate can walk. bash's reading is the text
 * and its parse. dash's and zsh's start from it: zsh's word forms bash cannot parse are rewritten
 * first (zsh-words.ts), then every node of the parse is read as that shell reads it
 * (dash-reading.ts, zsh-reading.ts) — the same, rewritten, or a construct to ask about. What
 * cannot be said in bash stays as written: bash's parse of it fails or the node asks.
 */
import type { Span } from './ast.js';
import { applyRewrites, readDialect, type DialectDifference, type Rewrite } from './dialect-scan.js';
import { firstNode, isClean, type ParseResult } from './parse-result.js';
import { readsAsDash } from './dash-reading.js';
import { readsAsZsh } from './zsh-reading.js';
import { zshWordRewrites, type WordRewrite } from './zsh-words.js';

/** A shell whose reading shellgate knows: bash, dash (POSIX `sh` as on Debian and Ubuntu), zsh. */
export type Reader = 'bash' | 'dash' | 'zsh';

export interface ShellReading {
  reader: Reader;
  /** The bash text whose walk is this shell's reading: the text itself, or it rewritten. */
  text: string;
  parsed: ParseResult;
  /** Spans of `text` onto the text read; null when `text` is that text. */
  map: ((s: Span) => Span) | null;
  /** The first construct this shell may read to do more than the walk shows, on the text read. */
  difference: DialectDifference | null;
}

type Parse = (text: string) => ParseResult;

/** `text` (parsed by bash as `parsed`) as `reader` reads it. */
export function readAs(reader: Reader, text: string, parsed: ParseResult, parse: Parse): ShellReading {
  if (reader === 'bash') return { reader, text, parsed, map: null, difference: null };
  let current: Omit<ShellReading, 'reader' | 'difference'> = { text, parsed, map: null };
  let difference: DialectDifference | null = null;
  let made: Span[] = [];
  if (reader === 'zsh') {
    const words = wordsAsZsh(text, parse);
    if (words !== null) {
      current = { text: words.text, parsed: words.parsed, map: words.map };
      difference = words.ask;
      made = words.made;
    }
  }
  const nodes = readDialect(current.parsed.script, current.text, reader === 'zsh' ? readsAsZsh : readsAsDash, made);
  const onText = (s: Span): Span => (current.map === null ? s : current.map(s));
  if (nodes.difference !== null) difference ??= { what: nodes.difference.what, span: onText(nodes.difference.span) };
  if (nodes.rewrites.length > 0) {
    const rewritten = applyRewrites(current.text, nodes.rewrites);
    const reparsed = parse(rewritten.text);
    if (isClean(reparsed) && rewritten.clashes.length === 0) {
      const before = current.map;
      current = { text: rewritten.text, parsed: reparsed, map: (s) => (before === null ? rewritten.map(s) : before(rewritten.map(s))) };
    } else {
      difference ??= { what: 'a construct shellgate could not say in bash', span: onText(nodes.rewrites[0].span) };
    }
  }
  return { reader, ...current, difference };
}

/**
 * zsh's word forms in `text` rewritten, kept only where bash's parse of the result puts each one
 * where it was meant to be (a candidate inside a string, a comment or a quoted heredoc is not
 * one: it is dropped, and the rest tried again once). Null when there is none, or when the result
 * does not parse cleanly.
 */
function wordsAsZsh(
  text: string,
  parse: Parse,
): { text: string; parsed: ParseResult; map: (s: Span) => Span; made: Span[]; ask: DialectDifference | null } | null {
  let candidates: WordRewrite[] = zshWordRewrites(text);
  for (let attempt = 0; attempt < 2 && candidates.length > 0; attempt++) {
    const rewritten = applyRewrites(text, candidates);
    const parsed = parse(rewritten.text);
    if (!isClean(parsed)) return null;
    const sites = sitesOf(parsed);
    const placed = (r: Rewrite): Span => rewritten.placed.get(r)!;
    // made, and where it was meant to be (a `with-group` rewrite is where its group's first one is)
    const fits = (r: WordRewrite) => rewritten.placed.has(r) && (r.site === 'with-group' || sites.has(r, placed(r)));
    // a group is made whole or not at all (a loop's `done` goes with its header)
    const failed = new Set(candidates.filter((r) => !fits(r)).map((r) => r.group));
    const kept = candidates.filter((r) => fits(r) && (r.group === undefined || !failed.has(r.group)));
    if (kept.length === candidates.length) {
      const asking = kept.find((r) => r.ask !== undefined);
      return {
        text: rewritten.text,
        parsed,
        map: rewritten.map,
        made: kept.map(placed),
        ask: asking ? { what: asking.ask!, span: asking.span } : null,
      };
    }
    candidates = kept;
  }
  return null;
}

/** Where bash's parse puts words, parameters and substitutions: what a rewrite's site is checked against. */
function sitesOf(parsed: ParseResult): { has: (r: WordRewrite, at: Span) => boolean } {
  const wordEnds = new Set<number>();
  const parameters = new Set<string>();
  const substitutions = new Set<number>();
  const loops = new Set<number>();
  firstNode(parsed.script, (o) => {
    const span = o.span as Span | undefined;
    if (span === undefined) return null;
    if (o.type === 'Word') {
      const parts = o.parts as { type: string }[];
      const last = parts[parts.length - 1];
      if (last !== undefined && (last.type === 'Glob' || last.type === 'Literal')) wordEnds.add(span.end);
    } else if (o.type === 'ParamExp') parameters.add(`${span.start}:${span.end}`);
    else if (o.type === 'CmdSubst') substitutions.add(span.start);
    else if (o.type === 'For') loops.add(span.start);
    return null;
  });
  return {
    has: (r, at) => {
      if (r.site === 'word-end') return wordEnds.has(at.start);
      if (r.site === 'parameter') return parameters.has(`${at.start}:${at.end}`);
      if (r.site === 'loop') return loops.has(at.start);
      return substitutions.has(at.start);
    },
  };
}
