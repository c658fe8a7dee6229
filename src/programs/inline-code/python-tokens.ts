/**
 * A tokenizer for Python one-liners: names, numbers, operators and string literals (every prefix
 * and quote form, f-strings' `{…}` expressions read as tokens of their own). What it does not
 * know — a non-ASCII name (NFKC folds `ｅｖａｌ` to `eval`), `@`, `$`, a backquote — gives null:
 * code it cannot read is never proven.
 */

export type PyTokenKind = 'name' | 'number' | 'string' | 'op';

export interface PyToken {
  kind: PyTokenKind;
  text: string;
  /** Where it starts in the code (-1 for the parentheses put around an f-string's expression). */
  start: number;
  /** A string literal's value when it has no escape we cannot read; null for f-strings and such. */
  value?: string | null;
}

const OPS = ['**=', '//=', '>>=', '<<=', '**', '//', '==', '!=', '<=', '>=', '->', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', ':=', '<<', '>>'];
const SINGLE = new Set('()[]{},:.;+-*/%<>=~|&^'.split(''));
const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0' };

/** Tokens of `code` (which starts at `base` in the whole program), or null when some part cannot be read. */
export function pythonTokens(code: string, base = 0): PyToken[] | null {
  const out: PyToken[] = [];
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '\\' && (code[i + 1] === '\n' || (code[i + 1] === '\r' && code[i + 2] === '\n'))) {
      i += code[i + 1] === '\n' ? 2 : 3;
      continue;
    }
    if (c === '#') {
      // Python ends a line, and so a comment, at a carriage return too.
      while (i < code.length && code[i] !== '\n' && code[i] !== '\r') i++;
      continue;
    }
    const str = /^([rRbBuUfF]{0,2})('''|"""|'|")/.exec(code.slice(i, i + 5));
    if (str) {
      const end = readString(code, i + str[1].length, str[2], str[1], out, base);
      if (end < 0) return null;
      i = end;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(code.slice(i));
    if (name) {
      out.push({ kind: 'name', text: name[0], start: base + i });
      i += name[0].length;
      continue;
    }
    const num = /^(?:[0-9][0-9A-Za-z_]*(?:\.[0-9A-Za-z_]*)?|\.[0-9][0-9A-Za-z_]*)/.exec(code.slice(i));
    if (num) {
      out.push({ kind: 'number', text: num[0], start: base + i });
      i += num[0].length;
      continue;
    }
    const op = OPS.find((o) => code.startsWith(o, i)) ?? (SINGLE.has(c) ? c : undefined);
    if (op === undefined) return null;
    out.push({ kind: 'op', text: op, start: base + i });
    i += op.length;
  }
  return out;
}

/** Reads one string literal from its opening quote; pushes it (and an f-string's expressions). The index after it, or -1. */
function readString(code: string, start: number, quote: string, prefix: string, out: PyToken[], base: number): number {
  const raw = /[rR]/.test(prefix);
  const f = /[fF]/.test(prefix);
  let i = start + quote.length;
  let value: string | null = '';
  while (i < code.length && !code.startsWith(quote, i)) {
    const c = code[i];
    if (quote.length === 1 && (c === '\n' || c === '\r')) return -1;
    if (c === '\\') {
      const next = code[i + 1];
      if (next === undefined) return -1;
      if (raw) value = value === null ? null : value + c + next;
      else if (next in SIMPLE_ESCAPES) value = value === null ? null : value + SIMPLE_ESCAPES[next];
      else value = null; // \x41, \N{…}, \u0041: the path is not read here
      i += 2;
      continue;
    }
    value = value === null ? null : value + c;
    i++;
  }
  if (i >= code.length) return -1;
  const end = i + quote.length;
  out.push({ kind: 'string', text: code.slice(start - prefix.length, end), start: base + start - prefix.length, value: f ? null : value });
  if (f && !fStringExpressions(code.slice(start + quote.length, i), out, base + start + quote.length)) return -1;
  return end;
}

/** The `{…}` parts of an f-string body, tokenized in parentheses; `{{` is a brace. False when unreadable. */
function fStringExpressions(body: string, out: PyToken[], base: number): boolean {
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{' && body[i + 1] === '{') {
      i++;
      continue;
    }
    if (body[i] !== '{') continue;
    let depth = 1;
    let j = i + 1;
    for (; j < body.length && depth > 0; j++) {
      if (body[j] === '{') depth++;
      else if (body[j] === '}') depth--;
      else if (body[j] === "'" || body[j] === '"' || body[j] === '\\') return false; // nested quotes: not read here
    }
    if (depth !== 0) return false;
    // `{x!r:>10}`: the conversion and format spec are not code, except nested `{…}`, which the depth kept.
    const inner = body.slice(i + 1, j - 1).replace(/![rsa](?=:|$)/, '');
    const colon = topLevelColon(inner);
    const tokens = pythonTokens(colon < 0 ? inner : inner.slice(0, colon), base + i + 1);
    if (tokens === null) return false;
    out.push({ kind: 'op', text: '(', start: -1 }, ...tokens, { kind: 'op', text: ')', start: -1 });
    if (colon >= 0 && /[{}]/.test(inner.slice(colon))) return false;
    i = j - 1;
  }
  return true;
}

function topLevelColon(s: string): number {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if ('([{'.includes(s[i])) depth++;
    else if (')]}'.includes(s[i])) depth--;
    else if (s[i] === ':' && depth === 0 && s[i + 1] !== '=') return i;
  }
  return -1;
}
