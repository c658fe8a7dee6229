/**
 * Byte-level fuzzing of the parser itself (the analyser's fuzzers go through it too): for any text
 * it returns a tree, never throws; every span lies inside the text; every `Unparsed` node comes with
 * an error issue, so nothing the parser could not read is ever silently clean.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBash } from '../../src/syntax/parser/index.js';
import { firstUnparsed } from '../../src/syntax/parse-result.js';

/** Every span object below a node. */
function spans(root: unknown): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const stack: unknown[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object' || seen.has(x)) continue;
    seen.add(x);
    const o = x as Record<string, unknown>;
    const s = o.span as { start: number; end: number } | undefined;
    if (s && typeof s.start === 'number') out.push(s);
    for (const v of Object.values(o)) stack.push(v);
  }
  return out;
}

/** Shell-flavoured bytes: operators, quotes, expansions and keywords are likelier than in random text. */
const PIECES = [
  '\n',
  ' ',
  ';',
  '&',
  '|',
  '(',
  ')',
  '{',
  '}',
  '<',
  '>',
  '<<',
  'EOF',
  "'",
  '"',
  '`',
  '\\',
  '$',
  '${',
  '$(',
  '$((',
  '))',
  '[[',
  ']]',
  'if',
  'then',
  'fi',
  'do',
  'done',
  'case',
  'in',
  'esac',
  ';;',
  'for',
  'x',
  '=',
  '#',
  '*',
  '!',
  '\r',
  '\t',
  '~',
  'rm -rf /',
];
const shellish = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 3 }), fc.string({ unit: 'grapheme', maxLength: 2 })), { maxLength: 60 })
  .map((xs) => xs.join(''));

describe('parser properties', () => {
  it('never throws, keeps every span inside the text, and reports every Unparsed node', () => {
    fc.assert(
      fc.property(fc.oneof(shellish, fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 80 })), (text) => {
        const r = parseBash(text);
        for (const s of spans(r.script)) {
          expect(s.start).toBeGreaterThanOrEqual(0);
          expect(s.end).toBeGreaterThanOrEqual(s.start);
          expect(s.end).toBeLessThanOrEqual(text.length);
        }
        if (firstUnparsed(r.script) !== null) expect(r.issues.some((i) => i.kind === 'error')).toBe(true);
      }),
      { numRuns: 3000, seed: 20261203 },
    );
  });

  it('reads a command the same after a backslash-newline bash removes', () => {
    fc.assert(
      fc.property(fc.constantFrom('echo hello', 'ls -la src', 'grep -rn x .', 'cat f | wc -l'), fc.nat(), (cmd, k) => {
        const at = 1 + (k % (cmd.length - 1));
        if (cmd[at - 1] === ' ' || cmd[at] === ' ') return; // a blank beside it is still a blank
        const joined = parseBash(cmd.slice(0, at) + '\\\n' + cmd.slice(at));
        expect(joined.issues).toEqual([]);
        const words = (t: typeof joined) => t.script.body.items.map((c) => (c.type === 'SimpleCommand' ? c.words.map((w) => w.raw) : c.type));
        expect(words(joined)).toEqual(words(parseBash(cmd)));
      }),
    );
  });
});
