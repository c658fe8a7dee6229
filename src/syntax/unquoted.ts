/**
 * Unquoted literal text cut into the pieces expansion treats differently: a leading tilde, glob
 * patterns, brace expressions and plain text. Shared by every front end, so all of them hand the
 * same parts to expand/.
 */
import type { WordPart } from './ast.js';

/**
 * Split unquoted literal text into Literal, Glob, Brace and Tilde parts. Backslash-escaped
 * characters stay literal; the backslashes are removed later, in expand/.
 */
export function splitUnquoted(raw: string, offset: number, atStart: boolean): WordPart[] {
  const out: WordPart[] = [];
  let lit = '';
  let litStart = 0;
  const flushLit = (i: number) => {
    if (lit) out.push({ type: 'Literal', raw: lit, span: { start: offset + litStart, end: offset + i } });
    lit = '';
  };
  let i = 0;
  if (atStart && raw.startsWith('~')) {
    let j = 1;
    while (j < raw.length && /[A-Za-z0-9._-]/.test(raw[j])) j++;
    if (j === raw.length || raw[j] === '/' || raw[j] === ':') {
      out.push({ type: 'Tilde', user: raw.slice(1, j), span: { start: offset, end: offset + j } });
      i = j;
    }
  }
  litStart = i;
  while (i < raw.length) {
    const ch = raw[i];
    if (ch === '\\' && i + 1 < raw.length) {
      if (!lit) litStart = i;
      lit += raw.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (ch === '*' || ch === '?' || ch === '[') {
      const end = ch === '[' ? bracketEnd(raw, i) : i + 1;
      if (end > i) {
        flushLit(i);
        out.push({ type: 'Glob', raw: raw.slice(i, end), span: { start: offset + i, end: offset + end } });
        i = end;
        litStart = i;
        continue;
      }
    }
    if (ch === '{') {
      const end = braceEnd(raw, i);
      if (end > i) {
        flushLit(i);
        out.push({ type: 'Brace', raw: raw.slice(i, end), span: { start: offset + i, end: offset + end } });
        i = end;
        litStart = i;
        continue;
      }
    }
    if (!lit) litStart = i;
    lit += ch;
    i++;
  }
  flushLit(i);
  return out;
}

function bracketEnd(raw: string, i: number): number {
  let j = i + 1;
  if (raw[j] === '!' || raw[j] === '^') j++;
  if (raw[j] === ']') j++;
  for (; j < raw.length; j++) {
    if (raw[j] === '\\') j++;
    else if (raw[j] === ']') return j + 1;
  }
  return i; // no closing bracket: a literal '['
}

/** End of a brace expression starting at i, or i when it is not one (`{}`, `{a}`, `${`). */
function braceEnd(raw: string, i: number): number {
  let depth = 0;
  let comma = false;
  for (let j = i; j < raw.length; j++) {
    const ch = raw[j];
    if (ch === '\\') {
      j++;
      continue;
    }
    if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) {
        const body = raw.slice(i + 1, j);
        if (comma || /^(-?\d+\.\.-?\d+|[A-Za-z]\.\.[A-Za-z])(\.\.-?\d+)?$/.test(body)) return j + 1;
        return i;
      }
    } else if (ch === ',' && depth === 1) comma = true;
  }
  return i;
}
