/**
 * The parser's limits: any nesting, of any construct, ends in an `Unparsed` node and an error
 * issue, never a thrown error or a stack overflow; what parses at a sane depth parses cleanly.
 */
import { describe, expect, it } from 'vitest';
import { parseBash } from '../../src/syntax/parser/index.js';
import type { Command, List } from '../../src/syntax/ast.js';
import { analyzer, CONTEXT } from '../helpers/analyzer.js';

/** A construct nested `n` deep around `ls`. */
const NESTINGS: Record<string, (n: number) => string> = {
  'command substitution': (n) => 'echo ' + '$('.repeat(n) + 'ls' + ')'.repeat(n),
  subshell: (n) => '('.repeat(n) + 'ls' + ')'.repeat(n),
  group: (n) => '{ '.repeat(n) + 'ls' + '; }'.repeat(n),
  if: (n) => 'if true; then '.repeat(n) + 'ls' + '; fi'.repeat(n),
  while: (n) => 'while true; do '.repeat(n) + 'ls' + '; done'.repeat(n),
  'process substitution': (n) => 'cat ' + '<('.repeat(n) + 'ls' + ')'.repeat(n),
  'double quotes and substitutions': (n) => 'echo ' + '"$('.repeat(n) + 'ls' + ')"'.repeat(n),
  'parameter defaults': (n) => 'echo ' + '${x:-'.repeat(n) + '$(ls)' + '}'.repeat(n),
  arithmetic: (n) => 'echo $((' + '('.repeat(n) + '1' + ')'.repeat(n) + '))',
  case: (n) => 'case x in x) '.repeat(n) + 'ls' + ';; esac'.repeat(n),
  functions: (n) => 'f() { '.repeat(n) + 'ls' + '; }'.repeat(n),
};

function unparsed(list: List): Command[] {
  const out: Command[] = [];
  const visit = (c: Command) => {
    if (c.type === 'Unparsed') out.push(c);
    else if (c.type === 'List') c.items.forEach(visit);
  };
  list.items.forEach(visit);
  return out;
}

describe('parser limits', () => {
  for (const [name, make] of Object.entries(NESTINGS)) {
    it(`${name}: 50 deep parses cleanly, 20,000 deep is an error, never a throw`, () => {
      const shallow = parseBash(make(50));
      expect(shallow.issues).toEqual([]);
      const deep = make(20_000);
      const r = parseBash(deep);
      expect(r.issues.length).toBeGreaterThan(0);
      expect(r.issues.some((i) => i.kind === 'error')).toBe(true);
      // Arithmetic nests inside one expansion: no command is nested, only its text is long.
      if (name !== 'arithmetic') expect(unparsed(r.script.body).length).toBeGreaterThan(0);
    });
  }

  it('a deep nesting is never allowed by the analyser', async () => {
    const a = await analyzer();
    for (const [name, make] of Object.entries(NESTINGS)) {
      // Nested parentheses in arithmetic are one expression (bash's own limit rejects it later).
      if (name === 'arithmetic') continue;
      const v = a.analyze(make(5_000), CONTEXT);
      expect(v.level, make(3)).not.toBe('allow');
    }
  });

  it('a long flat list, pipeline and argument list are no nesting at all', () => {
    for (const text of ['true && '.repeat(30_000) + 'ls', 'cat | '.repeat(30_000) + 'ls', 'echo ' + 'a '.repeat(100_000), 'ls\n'.repeat(30_000)]) {
      const r = parseBash(text);
      expect(r.issues).toEqual([]);
    }
  });
});

describe('a quote never closed', () => {
  // bash refuses the line; the reading that matters is the one with the quote closed at the end.
  for (const q of ["'", '"', '`']) {
    it(`${q}: what stands before it is still read, and the quoted text stays data`, async () => {
      const a = await analyzer();
      expect(a.analyze(`rm -rf / ${q}oops`, CONTEXT).level).toBe('deny');
      expect(a.analyze(`true && rm -rf ~ ${q}x y`, CONTEXT).level).toBe('deny');
      const quoted = a.analyze(`echo ${q}rm -rf /`, CONTEXT);
      expect(quoted.findings.some((f) => f.rule === 'parse-error')).toBe(true);
      if (q !== '`') expect(quoted.level).toBe('ask');
    });
  }
});
