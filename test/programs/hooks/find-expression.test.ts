/**
 * find's expression is read as a tree (issue 27, class 12): a test narrows the files an action
 * sees only when it is a conjunct on that action's own path. A test in another `-o` branch, under
 * `!`, or read from a word that is another primary's value narrows nothing; `{}` inside a word
 * is the matched path too.
 */
import { describe, expect, it } from 'vitest';
import { parseFindExpression, requiredBefore, requiredTrue, type FindNode } from '../../../src/programs/hooks/find-expr.js';
import { findExecs } from '../../../src/programs/hooks/find.js';
import type { Arg } from '../../../src/expand/arg.js';
import { check, ops, rules } from '../../helpers/analyzer.js';

const args = (...v: string[]): Arg[] => v.map((value) => ({ value, dynamic: false, glob: false, span: { start: 0, end: 0 } }));
const arity = (v: string) =>
  ['-name', '-printf', '-type'].includes(v) ? 1 : ['-true', '-print', '-delete', '-prune'].includes(v) ? 0 : v === '-exec' ? ('exec' as const) : null;
const names = (ns: FindNode[]): string[] => ns.flatMap((n) => (n.kind === 'primary' && n.name === '-name' ? [n.operands[0].value] : []));

describe('find expression tree', () => {
  it('binds -o looser than the implied -a, and , loosest', () => {
    const a = args('-name', 'x', '-o', '-name', 'y', '-print');
    const t = parseFindExpression(a, 0, arity)!;
    expect(names(requiredBefore(t, 5))).toEqual(['y']);
    expect(names(requiredTrue(t))).toEqual([]);
    const c = args('-name', 'x', ',', '-print');
    expect(names(requiredBefore(parseFindExpression(c, 0, arity)!, 3))).toEqual([]);
  });

  it('takes each primary’s value as a value: -printf -name does not test a name', () => {
    const a = args('-printf', '-name', '(', '-true', ')', '-exec', 'cat', '{}', ';');
    const t = parseFindExpression(a, 0, arity)!;
    expect(names(requiredBefore(t, 5))).toEqual([]);
  });

  it('ends -exec at ; or at a + right after {}, never at another +', () => {
    const t = parseFindExpression(args('-exec', 'date', '+', '-delete', ';'), 0, arity)!;
    expect(t).toMatchObject({ kind: 'primary', name: '-exec' });
  });

  it('is unknown (null) with an unknown primary, a missing value or an unclosed group', () => {
    expect(parseFindExpression(args('-frobnicate'), 0, arity)).toBeNull();
    expect(parseFindExpression(args('-name'), 0, arity)).toBeNull();
    expect(parseFindExpression(args('(', '-true'), 0, arity)).toBeNull();
    expect(parseFindExpression(args('-exec', 'rm', '{}'), 0, arity)).toBeNull();
  });
});

describe('find narrowing and {} in a word', () => {
  const under = (...a: string[]) => findExecs(args('.', ...a))[0].args[1].value;
  it('narrows an -exec only by a -name on its own path', () => {
    expect(under('-name', '*.c', '-exec', 'cat', '{}', ';')).toBe('./**/*.c');
    expect(under('-name', '.env', '-o', '-name', '*.c', '-exec', 'cat', '{}', ';')).toBe('./**/*.c');
    expect(under('-printf', '-name', '(', '-true', ')', '-exec', 'cat', '{}', ';')).toBe('./**');
    expect(under('(', '-name', '*.c', '-o', '-true', ')', '-exec', 'cat', '{}', ';')).toBe('./**');
    expect(under('-name', '*.c', ',', '-exec', 'cat', '{}', ';')).toBe('./**');
  });

  it('reads {}/ and {}/name as paths under each match; other words holding {} are unknown', () => {
    expect(findExecs(args('/home/user', '-maxdepth', '0', '-exec', 'rm', '-rf', '{}/', ';'))[0].args[2].value).toBe('/home/user/**/');
    expect(under('-exec', 'cat', '{}/README', ';')).toBe('./**/README');
    expect(findExecs(args('.', '-exec', 'rm', '-rf', '{}/..', ';'))[0].args[2].dynamic).toBe(true);
    expect(findExecs(args('.', '-exec', 'mv', '{}', '{}.bak', ';'))[0].args[2].dynamic).toBe(true);
  });

  it('denies deleting home through {}/ and asks for every file another branch lets through', async () => {
    expect(rules(await check('find ~ -maxdepth 0 -exec rm -rf {}/ \\;'))).toContain('destructive-delete/rm-root-or-home');
    expect(rules(await check('find / -maxdepth 0 -execdir rm -rf {}// \\;'))).toContain('destructive-delete/rm-root-or-home');
    expect(ops(await check("find . -name .env -o -name '*.txt' | xargs cat"))).toContain('Read ./**');
    expect(ops(await check("find . -printf -name '(' -true ')' -exec cat {} \\;"))).toContain('Read ./**');
    expect((await check("find ~ -name '*.pyc' -o -delete")).level).not.toBe('allow');
  });

  it('keeps the common read-only finds allowed', async () => {
    for (const c of [
      "find . -name '*.ts' -not -path './node_modules/*'",
      "find . -type f -name '*.log' | xargs grep -l err",
      "find . -name '*.md' -exec cat {}/ \\;",
    ]) {
      expect((await check(c)).level, c).toBe('allow');
    }
  });
});
