/**
 * Issue 28: a shell's reading said in bash (src/syntax/shell-readings.ts). The rewrites keep spans
 * (every character they leave alone maps back onto itself), a zsh form is rewritten only where zsh
 * reads it as one (never in quotes, comments or a quoted heredoc), and a glob qualifier is dropped
 * only when it can only choose among the names the pattern matches: whatever else a qualifier list
 * holds — code, other names (dot files, no match), words added, modifiers — asks or worse.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyRewrites, type Rewrite } from '../../src/syntax/dialect-scan.js';
import { analyzer, CONTEXT } from '../helpers/analyzer.js';

const a = await analyzer();
const zsh = (command: string) => a.analyze(command, { ...CONTEXT, shell: 'zsh' });

describe('rewrites', () => {
  it('map every character they leave alone back onto itself, and a rewritten one onto what it replaced', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(4), fc.string({ maxLength: 6 })), { maxLength: 4 }),
        (text, raw) => {
          // non-overlapping rewrites, in order
          const rewrites: Rewrite[] = [];
          let at = 0;
          for (const [gap, length, by] of raw) {
            const start = at + (gap % 5);
            const end = Math.min(text.length, start + length);
            if (start > text.length) break;
            rewrites.push({ span: { start, end }, by });
            at = end + 1;
          }
          const out = applyRewrites(text, rewrites);
          expect(out.clashes).toEqual([]);
          let oldAt = 0;
          let newAt = 0;
          let after = 0;
          for (const r of [...rewrites, { span: { start: text.length, end: text.length }, by: '' }]) {
            for (; oldAt < r.span.start; oldAt++, newAt++) {
              expect(out.text[newAt]).toBe(text[oldAt]);
              // the character itself, and at most the deleted text next to it
              const back = out.map({ start: newAt, end: newAt + 1 });
              expect(back.start).toBeLessThanOrEqual(oldAt);
              expect(back.start).toBeGreaterThanOrEqual(after);
              expect(back.end).toBe(oldAt + 1 === r.span.start && r.by === '' ? r.span.end : oldAt + 1);
            }
            after = r.by === '' ? r.span.start : r.span.end;
            if (r.by.length > 0) expect(out.map({ start: newAt, end: newAt + r.by.length })).toEqual(r.span);
            if (r.span.start === text.length) break;
            newAt += r.by.length;
            oldAt = r.span.end;
          }
          expect(out.map({ start: 0, end: out.text.length })).toEqual({ start: 0, end: text.length });
        },
      ),
      { numRuns: 400, seed: 28 },
    );
  });
});

describe("zsh's word forms", () => {
  const FORMS = ["*(e:'rm -rf ~':)", '*(+f)', '$HOME:h', '${HOME:h}', '${(e)x}', '${(P)x}', '*(D)', '*(.)'];

  it('are text inside quotes, comments and quoted heredocs, as zsh reads them there', () => {
    for (const form of FORMS) {
      for (const command of [`echo '${form}'`, `echo hi # ${form}`, `cat <<'EOF'\n${form}\nEOF`]) expect(zsh(command).level, command).toBe('allow');
    }
  });

  // Qualifiers that choose names (`.`, `/`, `om`, `[1,3]`…) and those that do anything else: run
  // code (`e`, `+`), reach other names (`D` dot files, `N` no match: no word at all), add words
  // (`P`), change the names (`:` modifiers), or mark them (`M`, `T`).
  const CHOOSING = ['.', '/', '@', '*', 'r', 'w', 'x', 'om', 'On', 'L+1', 'mh-1', '[1,3]', '^', '-', ','];
  const OTHER = ["e:'rm -rf ~':", '+f', 'D', 'N', 'P:-rf:', ':h', 'M', 'T', 'Y1', "oe:'x':", 'e:x:', 'f'];

  it('drop a qualifier list only when every qualifier in it chooses among the names', () => {
    const base = zsh('cat *').level;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CHOOSING), { minLength: 1, maxLength: 4 }), (qs) => {
        const command = `cat *(${qs.join('')})`;
        // `,` alone or at an end is still a list of choices
        expect(zsh(command).level, command).toBe(base);
      }),
      { numRuns: 200, seed: 28 },
    );
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...CHOOSING), { maxLength: 3 }),
        fc.constantFrom(...OTHER),
        fc.array(fc.constantFrom(...CHOOSING), { maxLength: 3 }),
        (before, other, after) => {
          const command = `cat *(${[...before, other, ...after].join('')})`;
          expect(zsh(command).level, command).not.toBe('allow');
        },
      ),
      { numRuns: 300, seed: 28 },
    );
  });
});
