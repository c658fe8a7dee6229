/**
 * The linear-time glob matcher: the same answers as picomatch (`dot: true`) on the patterns the
 * rules use, and an answer (not a hang) on patterns written to make a backtracking matcher explode.
 * The time is measured in bench/walk-budget.mjs, not asserted here.
 */
import { describe, expect, it } from 'vitest';
import picomatch from 'picomatch';
import { expandBraces, globTest, linearGlob } from '../../src/guard/linear-glob.js';

const PATTERNS = [
  '*.txt',
  '**/*.pem',
  '**/.env*',
  '/etc/**',
  '~/.ssh/*',
  '/home/*/.aws/credentials',
  'a/**/b',
  'a/**',
  '**',
  '*',
  '.*',
  '[a-c]x',
  'x?z',
  '**/id_{rsa,ed25519}*',
  '/dev/tcp/**',
  '**/{cron,systemd-*}',
  'src/*/index.ts',
  'a\\*b',
];
const INPUTS = [
  'a.txt',
  'dir/a.txt',
  '.txt',
  'k.pem',
  'x/y/k.pem',
  '.env',
  'a/.env.local',
  '/etc/passwd',
  '/etc',
  '/etcx',
  '~/.ssh/id_rsa',
  '/home/u/.aws/credentials',
  'a/b',
  'a/x/b',
  'a/x/y/b',
  'a',
  'a/',
  'ax',
  'bx',
  'dx',
  'xyz',
  'x/z',
  'id_rsa',
  'k/id_ed25519.pub',
  '/dev/tcp/h/1',
  'cron',
  'x/systemd-logind',
  'src/a/index.ts',
  'src/a/b/index.ts',
  'a*b',
  'aXb',
  'a/../b',
  'a/./b',
  '../x.txt',
];

describe('linearGlob', () => {
  it('answers as picomatch does on the patterns rules use', () => {
    for (const p of PATTERNS) {
      const ours = linearGlob(p);
      const theirs = picomatch(p, { dot: true });
      for (const s of INPUTS) expect(ours(s), `${p} on ${s}`).toBe(theirs(s));
    }
  });

  it('gives the same answers segment by segment as with the whole table', () => {
    const extra = ['**/a/*.x', '/etc/*/y/**', 'x/**', '**/*', '*/*', 'a/*b*c/d'];
    const inputs = [...INPUTS, 'a/q.x', 'z/a/q.x', '/etc/k/y', '/etc/k/y/z/w', 'x', 'x/.git', 'a/bbc/d', 'a/bc/d', '.a/b'];
    for (const p of [...PATTERNS, ...extra]) {
      const fast = globTest(p, {}, true);
      const table = globTest(p, {}, false);
      for (const s of inputs) expect(fast(s), `${p} on ${s}`).toBe(table(s));
    }
  });

  it('reads `[!a]` as a negated class, as bash does', () => {
    expect(linearGlob('[!a]x')('bx')).toBe(true);
    expect(linearGlob('[!a]x')('ax')).toBe(false);
  });

  it('never lets a path wildcard make up `..`', () => {
    expect(linearGlob('/ws/*/x')('/ws/../x')).toBe(false);
    expect(linearGlob('/ws/**')('/ws/../etc/passwd')).toBe(false);
    expect(linearGlob('/ws/../x')('/ws/../x')).toBe(true);
  });

  it('expands braces, nested, and leaves a brace without a comma alone', () => {
    expect(expandBraces('a{b,c{d,e}}f')).toEqual(['abf', 'acdf', 'acef']);
    expect(expandBraces('a{b}c')).toEqual(['a{b}c']);
    expect(() => expandBraces('{a,b}'.repeat(11))).toThrow(/alternatives/);
  });

  it('lets a Bash rule word star cross `/`', () => {
    expect(linearGlob('src/*', { slashStar: true })('src/a/b')).toBe(true);
    expect(linearGlob('src/*')('src/a/b')).toBe(false);
  });

  it('answers a pattern built to backtrack, on a long input', () => {
    const pattern = 'a*'.repeat(40) + 'c';
    const input = 'a'.repeat(5000);
    expect(linearGlob(pattern)(input)).toBe(false);
    expect(linearGlob(pattern)(input + 'c')).toBe(true);
    expect(linearGlob('**/' + '*a'.repeat(40) + '/x', { slashStar: false })('/'.repeat(1) + 'a/'.repeat(2000))).toBe(false);
  });
});
