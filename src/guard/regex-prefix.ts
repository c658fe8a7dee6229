/**
 * The fixed text a regular expression's matches start with, read from its source: the prefilter
 * turns it into an argument-start bit (features.ts `startOf`), so a rule on `^--donate-level` is
 * skipped for commands with no argument starting `--d`.
 */

/**
 * Text every match of the regular expression `source` (as compile.ts builds it: a leading `(?i)`
 * ignores case) starts the input with, or '' when none is known: `^--donate-level(=|$)` gives
 * `--donate-level`, `^(stratum\+tcp|stratum)://` gives `stratum`. Read conservatively: anything
 * not plainly literal ends the prefix. Only ASCII is kept (case folding beyond it is not ours to guess).
 */
export function regexPrefix(source: string): string {
  const src = source.startsWith('(?i)') ? source.slice(4) : source;
  const alternatives = splitTop(src);
  if (alternatives === null) return '';
  let common: string | null = null;
  for (const alt of alternatives) {
    if (!alt.startsWith('^')) return '';
    const p = literalStart(alt.slice(1));
    common = common === null ? p : commonPrefix(common, p);
    if (common === '') return '';
  }
  return common ?? '';
}

const REGEX_SPECIAL = new Set([...'\\^$.|?*+()[]{}']);
const QUANTIFIER = new Set(['?', '*', '{']);

/** The literal text `src` must start with (no `^`, no top-level `|`). */
function literalStart(src: string): string {
  let out = '';
  for (let i = 0; i < src.length;) {
    let ch: string | null = null;
    let next = i + 1;
    const c = src[i];
    if (c === '\\') {
      const e = src[i + 1];
      if (e === undefined || /[A-Za-z0-9]/.test(e)) return out; // \d, \b, \1…: not a literal
      ch = e;
      next = i + 2;
    } else if (c === '(') {
      if (src.startsWith('(?', i) && !src.startsWith('(?:', i)) return out; // lookaround, named group
      const close = groupEnd(src, i);
      if (close < 0) return out;
      const body = src.slice(src.startsWith('(?:', i) ? i + 3 : i + 1, close);
      const alts = splitTop(body);
      if (alts === null) return out;
      const after = src[close + 1];
      if (after !== undefined && QUANTIFIER.has(after)) return out;
      let common: string | null = null;
      for (const a of alts) common = common === null ? literalStart(a) : commonPrefix(common, literalStart(a));
      return out + (common ?? '');
    } else if (!REGEX_SPECIAL.has(c)) ch = c;
    if (ch === null || ch.charCodeAt(0) > 127) return out;
    const after = src[next];
    if (after !== undefined && QUANTIFIER.has(after)) return out;
    out += ch;
    if (after === '+') return out;
    i = next;
  }
  return out;
}

/** `src` split at its top-level `|`; null when its brackets do not balance. */
function splitTop(src: string): string[] | null {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const end = classEnd(src, i);
      if (end < 0) return null;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')') {
      if (--depth < 0) return null;
    } else if (c === '|' && depth === 0) {
      out.push(src.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return null;
  out.push(src.slice(start));
  return out;
}

/** Index of the `)` closing the group opened at `open`, or -1. */
function groupEnd(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const end = classEnd(src, i);
      if (end < 0) return -1;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Index of the `]` closing the character class opened at `open`, or -1. */
function classEnd(src: string, open: number): number {
  let i = open + 1;
  if (src[i] === '^') i++;
  if (src[i] === ']') i++; // a literal `]` first
  for (; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === ']') return i;
  }
  return -1;
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}
