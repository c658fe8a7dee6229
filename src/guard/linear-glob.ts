/**
 * Glob matching in time linear in pattern × input. picomatch compiles a glob to a regular
 * expression whose lazy `[^/]*?` groups backtrack: `a*a*a*…c` against a long run of `a`s takes
 * longer than any hook may wait, and both sides are the attacker's — a repository's settings hold
 * the rules (`Bash(git a*a*a*…c)`), the command line holds the words. Here a pattern is a list of
 * tokens and matching is one table of (token, position) answers, filled once each.
 *
 * The language is picomatch's (`dot: true`) for what the rules use: literal characters, `\x`,
 * `?`, `*` (not across `/`, unless `slashStar`), `**` as a whole segment (any segments, none
 * included), `[…]` classes with ranges, and `{a,b}` alternatives (expanded, at most
 * MAX_ALTERNATIVES). In a path, wildcards never consume a `.` or `..` segment (as in picomatch):
 * only a segment of literals names `.` or `..`. Deliberate differences from picomatch: `[!a]` is a
 * negated class, as in bash (picomatch reads it as `!` or `a`); `.*` matches neither `.` nor `..`;
 * `x/**` matches `x` whatever `x` is (picomatch: only when its last segment is literal); and in a
 * path, `//` is `/`. Extended globs (`+(…)`, `@(…)`) are not read: their characters are
 * literal, as in bash without `extglob`. An unclosed `[` or `{` is a literal character.
 */

/** More alternatives than this in one pattern: an error (a pattern, not a word list). */
export const MAX_ALTERNATIVES = 1024;

export interface LinearGlobOptions {
  /** `*` crosses `/` too (a Bash rule's word, where `/` is just a character). */
  slashStar?: boolean;
  /** Wildcards may start a segment with `.` (default true: picomatch's `dot: true`). */
  dot?: boolean;
}

type Token =
  /** `literal`: this character itself; `plain`: in a segment of literals only (which alone may name `.` or `..`). */
  | { t: 'char'; test: (c: string) => boolean; literal: boolean; text?: string; plain?: boolean }
  | { t: 'star' }
  /** `**` as a whole pattern: anything. */
  | { t: 'all' }
  /** `**` + `/` at the start: nothing, or segments each ending with `/`. */
  | { t: 'lead' }
  /** `/` + `**` + `/` inside: `/`, or `/` + segments + `/`. */
  | { t: 'mid' }
  /** `/` + `**` at the end: nothing, or `/` + anything. */
  | { t: 'tail' };

/** `{a,b}` alternatives expanded (nested too); a brace without a top-level comma stays literal. */
export function expandBraces(pattern: string): string[] {
  const open = findBrace(pattern);
  if (open === null) return [pattern];
  const { start, end, parts } = open;
  const out: string[] = [];
  for (const p of parts) {
    for (const rest of expandBraces(pattern.slice(0, start) + p + pattern.slice(end + 1))) {
      out.push(rest);
      if (out.length > MAX_ALTERNATIVES) throw new Error(`more than ${MAX_ALTERNATIVES} alternatives in ${JSON.stringify(pattern.slice(0, 60))}`);
    }
  }
  return out;
}

/** The first `{…}` with a top-level comma (escapes and classes skipped). */
function findBrace(p: string): { start: number; end: number; parts: string[] } | null {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') {
      i++;
      continue;
    }
    if (p[i] !== '{') continue;
    let depth = 0;
    const cuts: number[] = [];
    for (let j = i; j < p.length; j++) {
      const c = p[j];
      if (c === '\\') {
        j++;
        continue;
      }
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          if (cuts.length === 0) break; // `{x}`: literal
          const bounds = [i, ...cuts, j];
          const parts = bounds.slice(1).map((b, k) => p.slice(bounds[k] + 1, b));
          return { start: i, end: j, parts };
        }
      } else if (c === ',' && depth === 1) cuts.push(j);
    }
  }
  return null;
}

/** `[…]` at `i`: the class and where it ends, or null when it does not close (then `[` is literal). */
function readClass(p: string, i: number): { test: (c: string) => boolean; end: number } | null {
  let j = i + 1;
  const negate = p[j] === '!' || p[j] === '^';
  if (negate) j++;
  const ranges: [string, string][] = [];
  let first = true;
  for (; j < p.length; j++) {
    let c = p[j];
    if (c === ']' && !first) {
      const test = (x: string) => x !== '/' && ranges.some(([lo, hi]) => x >= lo && x <= hi) !== negate;
      return { test, end: j };
    }
    first = false;
    if (c === '\\' && j + 1 < p.length) c = p[++j];
    if (p[j + 1] === '-' && j + 2 < p.length && p[j + 2] !== ']') {
      let hi = p[j + 2];
      j += 2;
      if (hi === '\\' && j + 1 < p.length) hi = p[++j];
      ranges.push([c, hi]);
    } else ranges.push([c, c]);
  }
  return null;
}

function tokenize(pattern: string, o: LinearGlobOptions): Token[] {
  if (pattern === '**') return [{ t: 'all' }];
  const out: Token[] = [];
  let i = 0;
  if (pattern.startsWith('**/')) {
    out.push({ t: 'lead' });
    i = 3;
  }
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '/' && pattern.startsWith('/**/', i)) {
      out.push({ t: 'mid' });
      i += 4;
      // `a/**/**/b`: the same as one.
      while (pattern.startsWith('**/', i)) i += 3;
      continue;
    }
    if (c === '/' && pattern.slice(i) === '/**') {
      out.push({ t: 'tail' });
      break;
    }
    if (c === '*') {
      const segStart = i === 0 || pattern[i - 1] === '/';
      while (pattern[i] === '*') i++; // `**` inside a segment is `*`
      // A star that is a whole segment (`/x/*`) names something: at least one character, as in picomatch.
      if (!o.slashStar && segStart && (i === pattern.length || pattern[i] === '/')) out.push({ t: 'char', test: (x) => x !== '/', literal: false });
      out.push(o.slashStar ? { t: 'all' } : { t: 'star' });
      continue;
    }
    if (c === '?') {
      out.push({ t: 'char', test: (x) => x !== '/' || o.slashStar === true, literal: false });
      i++;
      continue;
    }
    if (c === '[') {
      const cls = readClass(pattern, i);
      if (cls) {
        out.push({ t: 'char', test: cls.test, literal: false });
        i = cls.end + 1;
        continue;
      }
    }
    const lit = c === '\\' && i + 1 < pattern.length ? pattern[++i] : c;
    out.push({ t: 'char', test: (x) => x === lit, literal: true, text: lit });
    i++;
  }
  markPlainSegments(out);
  return out;
}

/** Literal characters of a segment without wildcards are `plain`: only they may spell `.` or `..`. */
function markPlainSegments(tokens: Token[]): void {
  let start = 0;
  for (let k = 0; k <= tokens.length; k++) {
    const t = tokens[k];
    const ends = t === undefined || t.t === 'lead' || t.t === 'mid' || t.t === 'tail' || (t.t === 'char' && t.literal && t.text === '/');
    if (!ends) continue;
    const seg = tokens.slice(start, k);
    const plain = seg.every((x) => x.t === 'char' && x.literal);
    if (t !== undefined && t.t === 'char') t.plain = true; // the `/` itself
    for (const x of seg) if (x.t === 'char') x.plain = plain;
    start = k + 1;
  }
}

/**
 * For each input position, whether a wildcard may consume that character: not inside a `.` or
 * `..` segment, and (without `dot`) not a `.` that starts a segment.
 */
function wildOk(s: string, dot: boolean, words: boolean): Uint8Array {
  const ok = new Uint8Array(s.length);
  if (words) return ok.fill(1); // a word, not a path: no segments
  let start = 0;
  for (let k = 0; k <= s.length; k++) {
    if (k < s.length && s[k] !== '/') continue;
    const seg = s.slice(start, k);
    const dots = seg === '.' || seg === '..';
    for (let x = start; x < k; x++) ok[x] = dots || (!dot && x === start && s[x] === '.') ? 0 : 1;
    if (k < s.length) ok[k] = 1; // a `/` itself
    start = k + 1;
  }
  return ok;
}

/** Does the token list match all of `s`? One pass of a (tokens + 1) × (length + 1) table. */
function run(tokens: Token[], s: string, dot: boolean, words: boolean): boolean {
  const n = s.length;
  const ok = wildOk(s, dot, words);
  // next[j]: tokens i+1… match s[j…]; cur[j]: tokens i… match s[j…].
  let next = new Uint8Array(n + 1);
  next[n] = 1;
  let cur = new Uint8Array(n + 1);
  for (let i = tokens.length - 1; i >= 0; i--) {
    const tok = tokens[i];
    cur.fill(0);
    // reach: some k ≥ j where the wildcard's run may stop (for star/all/lead/mid).
    let reach = 0;
    for (let j = n; j >= 0; j--) {
      switch (tok.t) {
        case 'char':
          cur[j] = j < n && (tok.plain === true || ok[j] === 1) && tok.test(s[j]) && next[j + 1] === 1 ? 1 : 0;
          break;
        case 'star':
          // Zero characters, or one that is not `/` and the star again.
          cur[j] = next[j] === 1 || (j < n && s[j] !== '/' && ok[j] === 1 && cur[j + 1] === 1) ? 1 : 0;
          break;
        case 'all':
          cur[j] = next[j] === 1 || (j < n && ok[j] === 1 && cur[j + 1] === 1) ? 1 : 0;
          break;
        case 'lead':
          // Nothing, or wildcard characters up to a `/` after which the rest matches.
          if (j < n) reach = ok[j] === 1 && ((s[j] === '/' && next[j + 1] === 1) || reach === 1) ? 1 : 0;
          cur[j] = next[j] === 1 || (j < n && reach === 1) ? 1 : 0;
          break;
        case 'mid':
          break; // midPass, below
        case 'tail':
          cur[j] = j === n || (s[j] === '/' && allWild(ok, j + 1)) ? 1 : 0;
          break;
      }
    }
    if (tok.t === 'mid') midPass(cur, next, s, ok);
    [next, cur] = [cur, next];
  }
  return next[0] === 1;
}

/** `mid` at j: s[j] is `/` and (the rest matches at j+1, or wildcard chars from j+1 reach a `/` at k after which the rest matches). */
function midPass(cur: Uint8Array, next: Uint8Array, s: string, ok: Uint8Array): void {
  const n = s.length;
  // stop[j]: from j, wildcard characters (any, `/` included) lead to a `/` at k ≥ j with next[k+1].
  let stop = 0;
  for (let j = n; j >= 0; j--) {
    const after = stop; // stop value for j+1
    if (j < n) stop = (s[j] === '/' && next[j + 1] === 1) || (ok[j] === 1 && stop === 1) ? 1 : 0;
    cur[j] = j < n && s[j] === '/' && (next[j + 1] === 1 || after === 1) ? 1 : 0;
  }
}

/** Every character from `from` on may be a wildcard's. */
function allWild(ok: Uint8Array, from: number): boolean {
  for (let k = from; k < ok.length; k++) if (ok[k] !== 1) return false;
  return true;
}

/** The longest run of literal characters every match contains ('' when none). */
function longestLiteral(tokens: Token[]): string {
  let best = '';
  let run = '';
  for (const t of tokens) {
    if (t.t === 'char' && t.literal && t.text !== undefined) {
      run += t.text;
      if (run.length > best.length) best = run;
    } else run = '';
  }
  return best;
}

/** Segments of a token list split at its `/` characters. */
function segmentsOf(tokens: Token[]): Token[][] {
  const out: Token[][] = [[]];
  for (const t of tokens) {
    if (t.t === 'char' && t.literal && t.text === '/') out.push([]);
    else out[out.length - 1].push(t);
  }
  return out;
}

/**
 * One segment against one pattern segment (characters and stars only): the greedy match that
 * backs up to the last star, which is exact for `*` within a segment — O(pattern × segment) at
 * worst, no table.
 */
function segmentMatch(pat: Token[], seg: string, dot: boolean): boolean {
  if (seg === '.' || seg === '..') return pat.length === seg.length && pat.every((t) => t.t === 'char' && t.literal && t.text === '.');
  if (!dot && seg.startsWith('.') && !(pat[0]?.t === 'char' && pat[0].literal)) return false;
  const m = pat.length;
  let p = 0;
  let i = 0;
  let starP = -1;
  let starI = 0;
  while (i < seg.length) {
    const t = pat[p];
    if (t !== undefined && t.t === 'char' && t.test(seg[i])) {
      p++;
      i++;
    } else if (t !== undefined && t.t === 'star') {
      starP = p++;
      starI = i;
    } else if (starP >= 0) {
      p = starP + 1;
      i = ++starI;
    } else return false;
  }
  while (p < m && pat[p].t === 'star') p++;
  return p === m;
}

/** A segment a globstar may pass through: not `.` or `..` (nor, without `dot`, a dot name). */
const passable = (seg: string, dot: boolean) => seg !== '.' && seg !== '..' && (dot || !seg.startsWith('.'));

/**
 * The common shapes (no globstar, a leading globstar segment, or a trailing one) segment by
 * segment: a star never crosses `/`, so the pattern's segments meet the input's in order. Null
 * for the others.
 */
interface SegmentPlan {
  lead: boolean;
  tail: boolean;
  pats: Token[][];
}

/** The segment plan of an alternative, made once; null when its shape needs the table. */
function segmentPlan(tokens: Token[]): SegmentPlan | null {
  const lead = tokens[0]?.t === 'lead';
  const tail = tokens[tokens.length - 1]?.t === 'tail';
  if (lead && tail) return null;
  const body = tokens.slice(lead ? 1 : 0, tail ? tokens.length - 1 : tokens.length);
  if (body.some((t) => t.t !== 'char' && t.t !== 'star')) return null;
  return { lead, tail, pats: segmentsOf(body) };
}

function segmentRun(plan: SegmentPlan, segs: readonly string[], dot: boolean): boolean {
  const { lead, tail, pats } = plan;
  if (segs.length < pats.length || (!lead && !tail && segs.length !== pats.length)) return false;
  const off = lead ? segs.length - pats.length : 0;
  for (let k = 0; k < pats.length; k++) if (!segmentMatch(pats[k], segs[off + k], dot)) return false;
  for (let k = lead ? 0 : pats.length, end = lead ? off : segs.length; k < end; k++) if (segs[k] !== '' && !passable(segs[k], dot)) return false;
  return true;
}

/** A test of one glob (braces expanded) in linear time per alternative; never true for ''. */
export function linearGlob(pattern: string, options: LinearGlobOptions = {}): (input: string) => boolean {
  return globTest(pattern, options, true);
}

/** The same test filled as one table only (`fast` false): what the segment-by-segment shortcut must agree with. */
export function globTest(pattern: string, options: LinearGlobOptions, fast: boolean): (input: string) => boolean {
  const dot = options.dot ?? true;
  const words = options.slashStar === true;
  const alternatives = expandBraces(pattern).map((p) => {
    const tokens = tokenize(p, options);
    return { tokens, needs: longestLiteral(tokens), plan: words || !fast ? null : segmentPlan(tokens) };
  });
  // picomatch lets a pattern that ends in a wildcard match a name written with a trailing `/` (`*` → `a/`).
  const trailing = (t: Token[]) => t.length > 0 && t[t.length - 1].t !== 'char';
  const once = (a: (typeof alternatives)[number], input: string) => (a.plan ? segmentRun(a.plan, input.split('/'), dot) : run(a.tokens, input, dot, words));
  const test = (a: (typeof alternatives)[number], input: string) =>
    once(a, input) || (!words && trailing(a.tokens) && input.length > 1 && input.endsWith('/') && once(a, input.slice(0, -1)));
  // In a path `a//b` is `a/b`, as the kernel reads it.
  return (raw) => {
    if (raw === '') return false;
    const input = words ? raw : raw.replace(/\/{2,}/g, '/');
    return raw === pattern || input === pattern || alternatives.some((a) => input.includes(a.needs) && test(a, input));
  };
}
