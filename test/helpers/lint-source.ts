/** Reading a source kind's snippets back against the file, for test/lint/sources/. */
import { expect } from 'vitest';
import { LineIndex } from '../../src/lint/source-text.js';
import type { Snippet } from '../../src/lint/sources/types.js';

/** File line and column of the character the `nth` occurrence of `needle` in a snippet's text stands for. */
export function at(file: string, s: Snippet, needle: string, nth = 0): { line: number; column: number } {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = s.text.indexOf(needle, i + 1);
  expect(i, `${needle} (${nth}) in ${s.text}`).toBeGreaterThanOrEqual(0);
  return new LineIndex(file).position(s.offsets[i]!);
}

/** The snippet with this origin (failing with the origins there are). */
export function byOrigin(snippets: Snippet[], origin: string): Snippet {
  const s = snippets.find((x) => x.origin === origin);
  expect(s, `no snippet ${origin} in ${snippets.map((x) => x.origin).join(', ')}`).toBeDefined();
  return s!;
}
