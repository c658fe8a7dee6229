/**
 * The shell state the walker follows (issue 11 classes 2, 3 and 10): what xargs makes of its
 * input, where a glob can reach, and $PWD/$OLDPWD taken from the analysed directory, never from
 * the environment the caller passes. Command-level cases are in corpus/bypasses.jsonl.
 */
import { describe, expect, it } from 'vitest';
import { xargsItems, MAX_XARGS_RUNS } from '../../src/walk/xargs-input.js';
import { parentReadings } from '../../src/paths/glob-reach.js';
import { bashReading } from '../../src/syntax/tree-sitter/alternative-readings.js';
import { assignedNames } from '../../src/walk/assigned-names.js';
import { check, CONTEXT } from '../helpers/analyzer.js';
import type { Arg } from '../../src/index.js';

const args = (...v: string[]): Arg[] => v.map((value) => ({ value, dynamic: false, glob: false, span: { start: 0, end: 0 } }));

describe('xargs input, as GNU xargs reads it', () => {
  it('splits on blanks and removes quotes and backslashes itself', () => {
    expect(xargsItems(`a 'b c' "d e" f\\ g\n h`, args(), false).items).toEqual(['a', 'b c', 'd e', 'f g', 'h']);
  });
  it('stops at an unmatched quote, after the items before it', () => {
    expect(xargsItems(`a b\n'c d\ne`, args(), false).items).toEqual(['a', 'b']);
  });
  it('-0 and -d split on one character and keep quotes', () => {
    expect(xargsItems(`'a b'\0c\0`, args('-0'), false).items).toEqual([`'a b'`, 'c']);
    expect(xargsItems('a,b c,', args('-d', ','), false).items).toEqual(['a', 'b c']);
    expect(xargsItems('a\nb', args('-d\\n'), false).items).toEqual(['a', 'b']);
  });
  it('-I takes whole lines, leading blanks dropped, quotes still removed', () => {
    expect(xargsItems(`  a b\n"c d"\n`, args('-I{}'), true).items).toEqual(['a b', 'c d']);
  });
  it('-E ends the input at its string', () => {
    expect(xargsItems('a b END c', args('-E', 'END'), false).items).toEqual(['a', 'b']);
  });
  it('says when the input is longer than followed, and is unknown without stdin or with -a', () => {
    const lines = Array.from({ length: MAX_XARGS_RUNS + 1 }, (_, i) => `l${i}`).join('\n');
    expect(xargsItems(lines, args('-I{}'), true)).toMatchObject({ cut: true });
    expect(xargsItems(null, args(), false).items).toBeNull();
    expect(xargsItems('a', args('-a', 'f'), false).items).toBeNull();
  });
});

describe('where a glob can reach', () => {
  it('a segment that may match .. gives the parent as another reading', () => {
    expect(parentReadings('/ws/project/.*')).toEqual(['/ws']);
    expect(parentReadings('/ws/project/.?')).toEqual(['/ws']);
    expect(parentReadings('/ws/project/*')).toEqual([]);
    expect(parentReadings('/ws/project/.env*')).toEqual([]);
  });
});

describe('other readings of the text', () => {
  it('blanks coproc and its name at the same offsets, and joins backslash-newlines', () => {
    expect(bashReading('coproc w { rm x; }')?.text).toBe('         { rm x; }');
    expect(bashReading('echo coproc')).toBeNull();
    expect(bashReading('r\\\nm x')?.text).toBe('rm x');
    expect(bashReading('coproc \\\n rm x')?.text).toBe('        rm x');
  });
});

describe('$PWD and $OLDPWD', () => {
  it('come from the analysed directory, not from the env the caller passes', async () => {
    const v = await check('cat "$PWD/a"', { ...CONTEXT, env: { PWD: '/etc', OLDPWD: '/etc' } });
    expect(v.operations.map((o) => o.path)).toEqual(['/ws/project/a']);
    expect(v.level).toBe('allow');
    const old = await check('cat "$OLDPWD/shadow"', { ...CONTEXT, env: { OLDPWD: '/ws/project' } });
    expect(old.findings.map((f) => f.rule)).toContain('dynamic-path');
  });
});

describe('names a builtin assigns', () => {
  const names = (program: string, ...v: string[]) => assignedNames(program, args(...v)).names.map((a) => a.value);
  it("reads each builtin's own options: values that are names, values that are not", () => {
    expect(names('read', '-r', '-p', 'PATH', 'x', 'y')).toEqual(['x', 'y']);
    expect(names('read', '-rpPROMPT', '-a', 'arr')).toEqual(['arr']);
    expect(names('mapfile', '-t', '-C', 'cb', 'LINES', 'extra')).toEqual(['LINES']);
    expect(names('printf', '-v', 'PATH[1]', '%s', 'x')).toEqual(['PATH']);
    expect(names('wait', '-n', '-p', 'HOME')).toEqual(['HOME']);
    expect(names('getopts', 'ab:', 'opt', '-a')).toEqual(['opt']);
    expect(names('let', 'i+=1', 'PATH=2', 'j==3')).toEqual(['i', 'PATH']);
    expect(names('unset', '-f', 'PATH')).toEqual([]);
    expect(names('echo', 'PATH')).toEqual([]);
  });
  it('a name only known at run time may be any variable', () => {
    expect(assignedNames('read', [{ value: '$x', dynamic: true, glob: false, span: { start: 0, end: 0 } }]).unknown).toBe(true);
  });
});
