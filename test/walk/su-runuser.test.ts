/**
 * Issue 27, class 15: su and runuser read their options with getopt_long, which permutes: `-c`
 * may follow the user name, and the words after the user go to the user's shell. What they run
 * is walked as privileged.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../src/walk/unwrap-wrappers.js';
import type { Arg } from '../../src/walk/types.js';
import { argvs, check } from '../helpers/analyzer.js';

const SPAN = { start: 0, end: 0 };
const args = (...words: string[]): Arg[] => words.map((value) => ({ value, dynamic: false, glob: false, span: SPAN }));
const script = (program: string, ...words: string[]): string[] | string => {
  const inner = unwrap(program, args(...words))?.inner;
  return inner?.kind === 'shell' ? inner.script.map((a) => a.value) : (inner?.kind ?? 'none');
};

describe('su and runuser find the command wherever getopt does', () => {
  it('reads -c before or after the user, and after `-`', () => {
    expect(script('su', 'root', '-c', 'rm -rf /')).toEqual(['rm -rf /']);
    expect(script('su', '-', 'root', '-c', 'id')).toEqual(['id']);
    expect(script('su', '-c', 'id', 'root')).toEqual(['id']);
    expect(script('su', '--command=id')).toEqual(['id']);
    expect(script('su', 'root', '--session-command', 'id')).toEqual(['id']);
    expect(script('runuser', 'bob', '-l', '-c', 'id')).toEqual(['id']);
    // The last -c wins, as getopt overwrites it.
    expect(script('su', '-c', 'true', 'root', '-c', 'id')).toEqual(['id']);
  });

  it("hands the words after the user to the user's shell", () => {
    expect(script('su', 'root', '--', '-c', 'id')).toEqual(['id']);
    expect(script('su', 'root', 'x.sh')).toBe('script-file');
    expect(script('su', 'root')).toBe('stdin-shell');
    expect(script('su')).toBe('stdin-shell');
  });

  it('a shell named with -s that is not a POSIX-like shell runs something not known here', () => {
    expect(script('su', '-s', '/bin/sh', 'root', '-c', 'id')).toEqual(['id']);
    expect(script('su', '-s', './x.py', 'root', '-c', 'id')).toBe('stdin-shell');
  });

  it('runuser -u USER runs the command itself', () => {
    expect(unwrap('runuser', args('-u', 'bob', '--', 'rm', '-rf', '/'))?.inner).toEqual({ kind: 'argv', start: 3 });
    expect(unwrap('runuser', args('-u', 'bob', 'ls'))?.inner).toEqual({ kind: 'argv', start: 2 });
  });

  it.each([
    "su root -c 'rm -rf /'",
    "su - root -c 'rm -rf /'",
    "su -c 'rm -rf /' root",
    "su --command='rm -rf /'",
    "su -s /bin/bash root -c 'rm -rf /'",
    "su root -- -c 'rm -rf /'",
    'runuser -u bob -- rm -rf /',
    "runuser -l bob -c 'rm -rf /'",
    "runuser bob -l -c 'rm -rf /'",
  ])('%s walks the command inside, privileged, and denies', async (c) => {
    const v = await check(c);
    expect(argvs(v)).toContain('rm -rf /');
    expect(v.commands.find((x) => x.program === 'rm')?.context.privileged).toBe(true);
    expect(v.level).toBe('deny');
  });

  it('a plain su still asks', async () => {
    for (const c of ['su', 'su - root', 'su -c ls root', 'su root x.sh']) expect((await check(c)).level, c).toBe('ask');
  });
});
