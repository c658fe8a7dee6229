/**
 * find's command line is read once, by programs/hooks/find.ts, for both the commands `-exec`
 * runs (the walker) and find's own operations: the two always agree on the starting points.
 */
import { describe, expect, it } from 'vitest';
import { findCommandLine, findExecs } from '../../../src/programs/hooks/find.js';
import type { Arg } from '../../../src/expand/arg.js';
import { check, ops } from '../../helpers/analyzer.js';

const args = (...v: string[]): Arg[] => v.map((value) => ({ value, dynamic: false, glob: false, span: { start: 0, end: 0 } }));

describe('find command line', () => {
  it('skips the options before the starting points, bundled as BSD find allows', () => {
    expect(findCommandLine(args('-L', '-x', '/var', '-name', 'x')).roots.map((a) => a.value)).toEqual(['/var']);
    expect(findCommandLine(args('-HL', 'a', 'b', '-print')).roots.map((a) => a.value)).toEqual(['a', 'b']);
    expect(findCommandLine(args('-D', 'tree', 'a', '-print')).roots.map((a) => a.value)).toEqual(['a']);
    expect(findCommandLine(args('-f', '-odd', '-print')).roots.map((a) => a.value)).toEqual(['-odd']);
  });
  it('ends the starting points where the expression starts: a dash word, (, ! or ,', () => {
    for (const w of ['-name', '(', '!', ',']) expect(findCommandLine(args('a', w, 'x')).exprStart).toBe(1);
  });
  it('gives each -exec command with {} standing for the paths under the one starting point, narrowed by -name', () => {
    const execs = findExecs(args('/tmp/', '-name', '*.o', '-exec', 'rm', '{}', ';', '-execdir', 'cat', '{}', '+'));
    expect(execs.map((e) => [e.primary, ...e.args.map((a) => a.value)])).toEqual([
      ['-exec', 'rm', '/tmp/**/*.o'],
      ['-execdir', 'cat', '/tmp/**/*.o'],
    ]);
    expect(execs[0].args[1].produced).toBe(true);
    expect(findExecs(args('/tmp', '-exec', 'rm', '{}', ';'))[0].args[1].value).toBe('/tmp/**');
    // Only a -name every match passes narrows: not one in another branch, negated or in parentheses.
    const under = (...a: string[]) => findExecs(args('.', ...a, '-exec', 'cat', '{}', '+'))[0].args[1].value;
    expect(under('-name', '*.c', '-o', '-type', 'f')).toBe('./**');
    expect(under('-type', 'f', '-o', '-name', '*.c')).toBe('./**/*.c');
    expect(under('!', '-name', '*.c')).toBe('./**');
    expect(under('-not', '-name', '*.c')).toBe('./**');
    expect(under('(', '-name', '*.c', '-o', '-name', '*.h', ')')).toBe('./**');
    expect(under('-iname', '*.md')).toBe('./**/*.[mM][dD]');
    expect(under('-name', 'a/b')).toBe('./**');
    // Two starting points: {} is not one known path.
    expect(findExecs(args('a', 'b', '-exec', 'rm', '{}', ';'))[0].args[1].dynamic).toBe(true);
  });
});

describe('find operations and the walker agree', () => {
  it('lists and deletes under the starting point named after BSD -x and -d', async () => {
    expect(ops(await check('find -x / -name foo'))).toContain('List /');
    expect(ops(await check('find -d /tmp/x -delete'))).toContain('Delete /tmp/x/**');
  });
  it('does not report bundled leading options as unknown primaries', async () => {
    const v = await check('find -ds . -type f');
    expect(v.findings.map((f) => f.rule)).not.toContain('unknown-option');
  });
});

/**
 * An `-exec` with no `;` or `{} +` after its command: GNU findutils 4.9 prints "missing argument
 * to `-exec'" and runs nothing, not even an earlier, terminated `-exec`. The line asks (find was
 * not given what its author meant); it is never a deletion, which cannot happen.
 */
describe('find with an -exec that has no end', () => {
  it('runs no -exec command at all', () => {
    expect(findExecs(args('.', '-name', 'x', '-exec', 'rm', '{}'))).toEqual([]);
    expect(findExecs(args('.', '-exec', 'echo', '{}', ';', '-exec', 'rm', '{}'))).toEqual([]);
    // A `+` ends it only right after `{}`; a trailing `\` is a word of its own.
    expect(findExecs(args('.', '-exec', 'rm', '+', '{}'))).toEqual([]);
    expect(findExecs(args('.', '-exec', 'rm', '{}', '\\'))).toEqual([]);
  });
  it('still runs the command when the end may come from a word not known here, or -exec is an operand', () => {
    const dyn = (value: string): Arg => ({ value, dynamic: true, glob: false, span: { start: 0, end: 0 } });
    const glob = (value: string): Arg => ({ value, dynamic: false, glob: true, span: { start: 0, end: 0 } });
    expect(findExecs([...args('.', '-exec', 'rm', '{}'), dyn('$end')])).toHaveLength(1);
    // A file named `;` in the workspace ends it: the glob may match one.
    expect(findExecs([...args('.', '-exec', 'rm', '{}'), glob('*')])).toHaveLength(1);
    // `-name -exec` is a pattern, not an -exec with no end: the terminated rm runs.
    expect(findExecs(args('.', '-exec', 'rm', '{}', ';', '-name', '-exec'))[0].args[0].value).toBe('rm');
  });
  it('asks, and is not a deletion', async () => {
    for (const c of ["find ~/ -name 'core*' -exec rm {} \\", 'find / -name "*.old" -exec /bin/rm {} \\', 'find ~/ -atime +100 -exec rm -i {} ;']) {
      const v = await check(c);
      expect(v.level, c).toBe('ask');
      expect(v.findings.map((f) => f.rule)).toContain('unknown-option');
      expect(
        ops(v).some((o) => o.startsWith('Delete')),
        c,
      ).toBe(false);
    }
    // Terminated, the same line is still a deletion.
    expect((await check("find ~/ -name 'core*' -exec rm {} \\;")).level).not.toBe('allow');
  });
});
