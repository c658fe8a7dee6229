/**
 * `for` over known words: the body is judged with each value, and a glob's match stands for every
 * path the pattern may match — quoted only: split unquoted, a name with a blank may become any path.
 */
import { describe, expect, it } from 'vitest';
import { argvs, check, rules } from '../helpers/analyzer.js';

const level = async (c: string) => (await check(c)).level;

describe('for loops over known words', () => {
  it('walks the body once per literal value', async () => {
    const v = await check('for f in a.txt b.txt; do cat "$f"; done');
    expect(v.level).toBe('allow');
    expect(argvs(v)).toEqual(['cat a.txt', 'cat b.txt']);
    expect(rules(await check('for f in a ~/.ssh/id_rsa; do cat "$f"; done'))).toContain('sensitive-path');
  });

  it('a glob value is every path the pattern matches', async () => {
    for (const c of ['for f in src/*.ts; do wc -l "$f"; done', 'for d in */; do ls "$d"; done', 'for f in ./*; do sed -n 1p "$f"; done'])
      expect(await level(c), c).toBe('allow');
    for (const c of ['for f in ~/.ssh/*; do cat "$f"; done', 'for f in .*; do cat "$f"; done', 'shopt -s dotglob; for f in *; do cat "$f"; done'])
      expect(await level(c), c).toBe('ask');
  });

  it('never more than it knows', async () => {
    for (const c of [
      'for f in src/*.ts; do wc -l $f; done', // unquoted: split, a piece may be any path
      'for f in *; do sed -n 1p "$f"; done', // a match `-i` is an option
      'for f in a b; do f=/etc/passwd; cat "$f"; done',
      'for f in *.c; do read f; cat "$f"; done',
      'for f in "$@"; do cat "$f"; done',
      'for f in $(ls); do cat "$f"; done',
      'for f in src/*; do export f; bash -c "cat \\$f"; done',
      'for f in *; do rm "$f"; done',
    ])
      expect(await level(c), c).toBe('ask');
  });

  it('past the bound, the variable is unknown', async () => {
    const many = Array.from({ length: 20 }, (_, i) => `f${i}`).join(' ');
    expect(await level(`for f in ${many}; do cat "$f"; done`)).toBe('ask');
  });

  it('while read over a producer: each value is one name it prints', async () => {
    for (const c of [
      'while read -r f; do head -1 "$f"; done < <(git ls-files)',
      'git ls-files | while read -r f; do wc -l "$f"; done',
      'find . -print0 | while IFS= read -r -d "" f; do wc -l "$f"; done',
      'find src -name "*.c" | sort | while read -r f; do grep -c x "$f"; done',
    ])
      expect(await level(c), c).toBe('allow');
    for (const c of [
      'git ls-files | while read -r f; do rm "$f"; done',
      'find ~/.ssh | while read -r f; do cat "$f"; done',
      'while read -r f; do cat "$f"; done < list.txt', // names from a file: anything
      'git ls-files | while read -r a b; do cat "$b"; done', // split into fields
      'git ls-files | while read -r f; do f=/etc/passwd; cat "$f"; done',
      'git ls-files | until read -r f; do cat "$f"; done',
      'git ls-files | while read -r f; do sed -n 1p "$f"; done', // a name `-i` is an option
    ])
      expect(await level(c), c).toBe('ask');
  });
});
