/**
 * A JSON string literal decoded with the file offset of every character it yields. alignValue
 * matches decoded characters to nearby file characters, which loses its place after a run of
 * `\uXXXX` escapes longer than its reach; JSON's escapes are few and fixed, so they are decoded
 * here exactly: plain characters map one to one, an escape's character maps to its backslash.
 */
import { MappedTextBuilder, type MappedText } from '../source-text.js';

const SIMPLE: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The string literal at file[start, end) (quotes included), or null when it is not one. */
export function jsonStringText(file: string, start: number, end: number): MappedText | null {
  if (end - start < 2 || file[start] !== '"' || file[end - 1] !== '"') return null;
  const b = new MappedTextBuilder();
  let run = start + 1;
  const flush = (to: number) => {
    if (to > run) b.verbatim(file.slice(run, to), run);
  };
  for (let i = start + 1; i < end - 1;) {
    if (file[i] !== '\\') {
      i++;
      continue;
    }
    flush(i);
    const e = file[i + 1] ?? '';
    const simple = SIMPLE[e];
    if (simple !== undefined) {
      b.synthetic(simple, i, i + 2);
      i += 2;
    } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(file.slice(i + 2, i + 6)) && i + 6 < end) {
      b.synthetic(String.fromCharCode(parseInt(file.slice(i + 2, i + 6), 16)), i, i + 6);
      i += 6;
    } else return null;
    run = i;
  }
  flush(end - 1);
  const text = b.build();
  // The value ends where the closing quote is.
  text.offsets[text.text.length] = end - 1;
  return text;
}
