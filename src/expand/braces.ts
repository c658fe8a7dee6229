/** Bounded brace expansion: `{a,b}`, `{1..5}`, `{01..10..3}`, `{a..e}`, nested braces. */

/** Beyond this many results a word's brace expansion is cut (the word is then marked truncated). */
export const MAX_BRACE_RESULTS = 256;

export interface BraceResult {
  values: string[];
  truncated: boolean;
}

export function expandBrace(raw: string, limit = MAX_BRACE_RESULTS): BraceResult {
  const state = { truncated: false };
  const values = expandText(raw, limit, state, 0);
  return { values, truncated: state.truncated };
}

function expandText(text: string, limit: number, state: { truncated: boolean }, depth: number): string[] {
  if (depth > 20) {
    state.truncated = true;
    return [text];
  }
  const open = findBraceOpen(text);
  if (open < 0) return [text];
  const close = matchingClose(text, open);
  if (close < 0) return [text];
  const prefix = text.slice(0, open);
  const body = text.slice(open + 1, close);
  const suffixes = expandText(text.slice(close + 1), limit, state, depth + 1);
  let alternatives = sequence(body, limit, state);
  if (!alternatives) {
    const pieces = splitTopLevel(body);
    if (pieces.length < 2) {
      // `{x}` is not a brace expression: keep it literal and look further right.
      return expandText(text.slice(close + 1), limit, state, depth + 1).map((s) => prefix + '{' + body + '}' + s);
    }
    alternatives = pieces.flatMap((p) => expandText(p, limit, state, depth + 1));
  }
  const out: string[] = [];
  for (const a of alternatives) {
    for (const s of suffixes) {
      if (out.length >= limit) {
        state.truncated = true;
        return out;
      }
      out.push(prefix + a + s);
    }
  }
  return out;
}

function findBraceOpen(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '{' && text[i - 1] !== '$') return i;
  }
  return -1;
}

function matchingClose(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') i++;
    else if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

function sequence(body: string, limit: number, state: { truncated: boolean }): string[] | null {
  const num = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
  const chr = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!num && !chr) return null;
  const m = (num ?? chr)!;
  const from = num ? parseInt(m[1], 10) : m[1].charCodeAt(0);
  const to = num ? parseInt(m[2], 10) : m[2].charCodeAt(0);
  const step = Math.abs(parseInt(m[3] ?? '1', 10)) || 1;
  const width = num && (/^-?0\d/.test(m[1]) || /^-?0\d/.test(m[2])) ? Math.max(m[1].length, m[2].length) : 0;
  const out: string[] = [];
  const dir = from <= to ? 1 : -1;
  for (let v = from; dir > 0 ? v <= to : v >= to; v += dir * step) {
    if (out.length >= limit) {
      state.truncated = true;
      break;
    }
    out.push(num ? pad(v, width) : String.fromCharCode(v));
  }
  return out;
}

function pad(v: number, width: number): string {
  const s = String(Math.abs(v)).padStart(width - (v < 0 ? 1 : 0), '0');
  return v < 0 ? '-' + s : s;
}
