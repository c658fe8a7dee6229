/**
 * May two path globs match a common path? Deciding "can `src/**\/*.c` be `.env`?" by the patterns
 * themselves, not by a few example paths: an example list misses what it does not list (`*.local`
 * matches `.env.local`, which no example named).
 *
 * Both are absolute patterns over `/`-separated segments: `**` alone is any number of segments
 * (none included), and inside a segment `*`, `?` and `[…]` are bash's wildcards. A side whose
 * wildcards skip dot names (bash without `dotglob`) never matches a name starting with `.` by a
 * wildcard; find's `{}` and a producer's output match them (find's `-name '*'` matches `.env`).
 *
 * The answer over-approximates: whatever this module cannot read (extglob, braces, an odd class)
 * may match anything, so "no" is always a proof.
 */

export interface MeetOptions {
  /** The first pattern's wildcards match names that start with a dot. */
  dotA: boolean;
  /** The second pattern's wildcards match names that start with a dot. */
  dotB: boolean;
  /** Names compare without case (`nocaseglob`, a file system that folds case). */
  nocase: boolean;
}

/** One element of a segment pattern: a literal character, any one character, a class, or a star. */
type Element = { k: 'lit'; c: string } | { k: 'one' } | { k: 'class'; negated: boolean; chars: string } | { k: 'star' };

/** A segment pattern: its elements, or `any` for what this module does not read. */
type Segment = { globstar: true } | { globstar: false; any: boolean; elements: Element[]; prefix: string; suffix: string };

/** At most this many segments per pattern are compared element by element (cost stays bounded). */
const MAX_SEGMENTS = 64;

export function globsMayMeet(a: string, b: string, options: MeetOptions): boolean {
  const A = segments(options.nocase ? a.toLowerCase() : a);
  const B = segments(options.nocase ? b.toLowerCase() : b);
  if (A === null || B === null) return true;
  // The last segments always face each other (unless one is `**`): a cheap test of their fixed
  // text first, since most comparisons end there (`*.c` against `.env`).
  const la = A[A.length - 1];
  const lb = B[B.length - 1];
  if (la && lb && !la.globstar && !lb.globstar && !affixesMeet(la, lb)) return false;
  const memo = new Map<number, boolean>();
  const meet = (i: number, j: number): boolean => {
    const key = i * (B.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    memo.set(key, false); // no cycles: every step advances i or j
    const r = meetFrom(i, j);
    memo.set(key, r);
    return r;
  };
  const meetFrom = (i: number, j: number): boolean => {
    if (i === A.length && j === B.length) return true;
    const sa = A[i];
    const sb = B[j];
    if (sa?.globstar && (meet(i + 1, j) || (sb !== undefined && globstarTakes(sb, options.dotA) && meet(i, j + 1)))) return true;
    if (sb?.globstar && (meet(i, j + 1) || (sa !== undefined && globstarTakes(sa, options.dotB) && meet(i + 1, j)))) return true;
    if (sa === undefined || sb === undefined || sa.globstar || sb.globstar) return false;
    return segmentsMeet(sa, sb, options) && meet(i + 1, j + 1);
  };
  return meet(0, 0);
}

/** Can a `**` whose side skips dot names (unless `dot`) stand for a name the other segment matches? */
function globstarTakes(other: Segment, dot: boolean): boolean {
  if (dot || other.globstar || other.any) return true;
  const first = other.elements[0];
  return !(first?.k === 'lit' && first.c === '.');
}

/** Parsed patterns: the sensitive list is compared with every glob, and a line's globs recur. */
const parsed = new Map<string, Segment[] | null>();

function segments(pattern: string): Segment[] | null {
  let out = parsed.get(pattern);
  if (out === undefined) {
    const parts = pattern.split('/').filter((s, i) => s !== '' || i === 0);
    out = parts.length > MAX_SEGMENTS ? null : parts.map((s): Segment => (s === '**' ? { globstar: true } : readSegment(s)));
    if (parsed.size >= 4096) parsed.clear();
    parsed.set(pattern, out);
  }
  return out;
}

/** extglob (`@(…)`, `!(…)`…) and braces are not read: such a segment may match anything. */
const UNREAD = /[@!+*?]\(|[{}]/;

/** Can two segments' fixed starts and ends both hold (one a prefix, one a suffix, of the other)? */
function affixesMeet(a: Segment & { globstar: false }, b: Segment & { globstar: false }): boolean {
  if (a.any || b.any) return true;
  const pre = a.prefix.startsWith(b.prefix) || b.prefix.startsWith(a.prefix);
  return pre && (a.suffix.endsWith(b.suffix) || b.suffix.endsWith(a.suffix));
}

/** The literal characters before the first and after the last wildcard (the whole text when it has none). */
function affixes(elements: Element[]): { prefix: string; suffix: string } {
  let prefix = '';
  for (const e of elements) {
    if (e.k !== 'lit') break;
    prefix += e.c;
  }
  let suffix = '';
  for (let i = elements.length - 1; i >= 0; i--) {
    const e = elements[i];
    if (e.k !== 'lit') break;
    suffix = e.c + suffix;
  }
  return { prefix, suffix };
}

function readSegment(s: string): Segment {
  if (UNREAD.test(s)) return { globstar: false, any: true, elements: [], prefix: '', suffix: '' };
  const elements: Element[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '*') {
      if (elements.at(-1)?.k !== 'star') elements.push({ k: 'star' });
    } else if (c === '?') elements.push({ k: 'one' });
    else if (c === '\\' && i + 1 < s.length) elements.push({ k: 'lit', c: s[++i] });
    else if (c === '[') {
      const end = classEnd(s, i);
      if (end < 0) elements.push({ k: 'lit', c });
      else {
        const body = s.slice(i + 1, end);
        const negated = body.startsWith('!') || body.startsWith('^');
        elements.push({ k: 'class', negated, chars: negated ? body.slice(1) : body });
        i = end;
      }
    } else elements.push({ k: 'lit', c });
  }
  return { globstar: false, any: false, elements, ...affixes(elements) };
}

/** Where a `[…]` class that opens at `start` closes (a `]` right after `[` or `[!` is a member); -1: none. */
function classEnd(s: string, start: number): number {
  let i = start + 1;
  if (s[i] === '!' || s[i] === '^') i++;
  if (s[i] === ']') i++;
  for (; i < s.length; i++) if (s[i] === ']') return i;
  return -1;
}

/**
 * May one name match both segment patterns? The product of the two patterns, element against
 * element; a star either steps aside or takes one character of the other side.
 */
function segmentsMeet(a: Segment & { globstar: false }, b: Segment & { globstar: false }, o: MeetOptions): boolean {
  if (a.any || b.any) return true;
  const P = a.elements;
  const Q = b.elements;
  const memo = new Set<number>();
  const go = (i: number, j: number, start: boolean): boolean => {
    const key = ((i * (Q.length + 1) + j) << 1) | (start ? 1 : 0);
    if (memo.has(key)) return false;
    memo.add(key);
    if (i === P.length && j === Q.length) return true;
    if (P[i]?.k === 'star' && go(i + 1, j, start)) return true;
    if (Q[j]?.k === 'star' && go(i, j + 1, start)) return true;
    const p = P[i];
    const q = Q[j];
    if (p === undefined || q === undefined) return false;
    // Both take one character: one the two allow, and not a leading `.` a wildcard may not match.
    const noLeadingDot = start && ((!o.dotA && p.k !== 'lit') || (!o.dotB && q.k !== 'lit'));
    if (!charsMeet(p, q, noLeadingDot)) return false;
    return go(p.k === 'star' ? i : i + 1, q.k === 'star' ? j : j + 1, false);
  };
  return go(0, 0, true);
}

/** Is there a character both elements accept (not `.` when `noDot`)? Unsure: yes. */
function charsMeet(p: Element, q: Element, noDot: boolean): boolean {
  if (p.k === 'lit' || q.k === 'lit') {
    const [lit, other] = p.k === 'lit' ? [p, q] : [q as Element & { k: 'lit' }, p];
    if (noDot && lit.c === '.') return false;
    return accepts(other, lit.c);
  }
  // Neither is a literal: a star, `?` or a class each accept many characters; a class that
  // accepts only `.` when a dot is not allowed is the one case that surely fails.
  if (noDot) for (const e of [p, q]) if (e.k === 'class' && !e.negated && /^\.+$/.test(e.chars)) return false;
  return true;
}

function accepts(e: Element, c: string): boolean {
  switch (e.k) {
    case 'lit':
      return e.c === c;
    case 'one':
    case 'star':
      return c !== '/';
    case 'class':
      return classHas(e.chars, c) !== e.negated;
  }
}

/** Members of a class body (`a-z`, `[:alpha:]` and plain characters); a named class: unsure, yes. */
function classHas(body: string, c: string): boolean {
  if (body.includes('[:')) return true;
  for (let i = 0; i < body.length; i++) {
    if (body[i + 1] === '-' && i + 2 < body.length) {
      if (c >= body[i] && c <= body[i + 2]) return true;
      i += 2;
    } else if (body[i] === c) return true;
  }
  return false;
}
