/**
 * A JSON string literal decoded with the file offset of every character it yields. alignValue
 * matches decoded characters to nearby file characters, which loses its place after a run of
 * `\uXXXX` escapes longer than its reach; JSON's escapes are few and fixed, so they are decoded
 * here exactly: plain characters map one to one, an escape's character maps to its backslash.
 * package.json scripts and Dockerfile exec forms (`RUN ["sh", "-c", "…"]`) both use it.
 */
import type { MappedText } from '../source-text.js';

const SIMPLE: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * The string literal at t[start, end) (quotes included), or null when it is not one. `at` maps a
 * position in `t` to its file offset (`t` may itself be text mapped from the file).
 */
export function decodeJsonString(t: string, start: number, end: number, at: (i: number) => number = (i) => i): MappedText | null {
  if (end - start < 2 || t[start] !== '"' || t[end - 1] !== '"') return null;
  let text = '';
  const offs: number[] = [];
  for (let i = start + 1; i < end - 1;) {
    const c = t[i]!;
    if (c !== '\\') {
      text += c;
      offs.push(at(i));
      i++;
      continue;
    }
    const e = t[i + 1] ?? '';
    const simple = SIMPLE[e];
    if (simple !== undefined) {
      text += simple;
      offs.push(at(i));
      i += 2;
    } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(t.slice(i + 2, i + 6)) && i + 6 < end) {
      text += String.fromCharCode(parseInt(t.slice(i + 2, i + 6), 16));
      offs.push(at(i));
      i += 6;
    } else return null;
  }
  const offsets = new Int32Array(text.length + 1);
  offsets.set(offs);
  // The value ends where the closing quote is.
  offsets[text.length] = at(end - 1);
  return { text, offsets };
}

/** The end (after the closing quote) of the JSON string literal opening at t[open], or -1. */
export function jsonStringEnd(t: string, open: number): number {
  for (let i = open + 1; i < t.length; i++) {
    if (t[i] === '\\') i++;
    else if (t[i] === '"') return i + 1;
  }
  return -1;
}

/** The string literal at file[start, end) (quotes included), or null when it is not one. */
export function jsonStringText(file: string, start: number, end: number): MappedText | null {
  return decodeJsonString(file, start, end);
}
