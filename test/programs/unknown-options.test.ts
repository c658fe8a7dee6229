/**
 * Issue 11, class 4: an option the spec in force does not list is never a harmless flag. These
 * tests pin how argv is read against a spec (bundles, attached and optional values, numbers,
 * `+` options, bash's echo, operand-only programs, several-word options, words only known at
 * run time) and that what is not known reaches the verdict as `unknown-option`.
 */
import { describe, expect, it } from 'vitest';
import { parseArgv } from '../../src/programs/argv.js';
import type { CommandSpec } from '../../src/programs/spec-types.js';
import type { Arg } from '../../src/walk/types.js';
import { check, ops, rules } from '../helpers/analyzer.js';

const args = (...v: string[]): Arg[] => v.map((value) => ({ value, dynamic: false, glob: false, span: { start: 0, end: 0 } }));
const dyn = (value: string): Arg => ({ value, dynamic: true, glob: false, span: { start: 0, end: 0 } });
const unknown = (spec: CommandSpec, a: Arg[]) =>
  parseArgv(spec, a)
    .options.filter((o) => !o.spec)
    .map((o) => o.name);

const reader: CommandSpec = {
  summary: 't',
  class: 'read-only',
  operands: ['read'],
  options: {
    '-l': {},
    '-a': {},
    '-n': { value: true },
    '--color': { value: 'optional' },
    '--output': { value: true, role: 'write', class: 'mutating' },
    '--outline': {},
    '-NUM': {},
  },
};

describe('options a spec does not list', () => {
  it('are kept as unknown, letter by letter in a bundle, long ones with or without =value', () => {
    expect(unknown(reader, args('-la', 'f'))).toEqual([]);
    expect(unknown(reader, args('-lax', 'f'))).toEqual(['-x']);
    expect(unknown(reader, args('-xal', 'f'))).toEqual(['-x']);
    expect(unknown(reader, args('--frob=1', 'f'))).toEqual(['--frob']);
    expect(unknown(reader, args('--frob', 'f'))).toEqual(['--frob']);
  });

  it('read the letters after an unknown one as options, so what they do stays visible', () => {
    const p = parseArgv(reader, args('-xn', '5', 'f'));
    expect(p.options.map((o) => o.name)).toEqual(['-x', '-n']);
    expect(p.options[1].value?.value).toBe('5');
    expect(p.operands.map((o) => o.value)).toEqual(['f']);
  });

  it('accept a unique long prefix only from a complete table', () => {
    expect(unknown({ ...reader, source: 'x 1.0 (x --help)', complete: true }, args('--outp=o', 'f'))).toEqual([]);
    // An incomplete table may leave out the option the prefix names (`--outp` could be another one).
    expect(unknown(reader, args('--outp=o', 'f'))).toEqual(['--outp']);
    // Ambiguous between two options with different effects: unknown even when complete.
    expect(unknown({ ...reader, source: 'x 1.0 (x --help)', complete: true }, args('--out', 'f'))).toEqual(['--out']);
  });

  it('read -NUM as a number option, and after it never take the next word as a value', () => {
    expect(unknown(reader, args('-5', 'f'))).toEqual([]);
    const p = parseArgv(reader, args('-5n', 'f'));
    expect(p.operands.map((o) => o.value)).toEqual(['f']);
    expect(unknown({ ...reader, options: { '-l': {} } }, args('-5', 'f'))).toEqual(['-5']);
  });

  it('give an optional value only when attached: the next word stays an operand', () => {
    const p = parseArgv(reader, args('--color', '/etc'));
    expect(p.operands.map((o) => o.value)).toEqual(['/etc']);
    expect(parseArgv(reader, args('--color=never', 'f')).options[0].value?.value).toBe('never');
  });

  it('read `+` words as options only when the table lists them', () => {
    const set: CommandSpec = { summary: 's', class: 'read-only', options: { '-e': {}, '+e': {}, '-x': {}, '+x': {}, '+NUM': {} } };
    expect(parseArgv(set, args('+ex')).options.map((o) => o.name)).toEqual(['+e', '+x']);
    expect(parseArgv(set, args('+3')).options.map((o) => o.name)).toEqual(['+NUM']);
    expect(parseArgv(reader, args('+5')).operands.map((o) => o.value)).toEqual(['+5']);
  });

  it('take every word of a several-word option (jq --rawfile NAME FILE)', () => {
    const jq: CommandSpec = { summary: 'j', class: 'read-only', operands: ['text', 'read'], options: { '--rawfile': { values: ['text', 'read'] } } };
    const p = parseArgv(jq, args('--rawfile', 'a', 'secret', '-n', '.'));
    expect(p.options[0].value?.value).toBe('a');
    expect(p.options[0].more.map((m) => m.value)).toEqual(['secret']);
  });

  it('follow bash echo: a word is options only when every letter is one', () => {
    const echo: CommandSpec = { summary: 'e', class: 'read-only', optionSyntax: 'echo', optionsFirst: true, options: { '-n': {}, '-e': {}, '-E': {} } };
    expect(parseArgv(echo, args('-ne', 'x')).options.map((o) => o.name)).toEqual(['-n', '-e']);
    expect(parseArgv(echo, args('-x', '--', 'y')).operands.map((o) => o.value)).toEqual(['-x', '--', 'y']);
  });

  it('read no option at all for operand-only programs (test, [, expr)', () => {
    const test: CommandSpec = { summary: 't', class: 'read-only', optionSyntax: 'none' };
    expect(parseArgv(test, args('-f', 'x', '-a', '-d', 'y')).options).toEqual([]);
  });

  it('note words only known at run time where an option may stand', () => {
    expect(parseArgv(reader, [dyn('$x'), ...args('f')]).maybeOptions.map((m) => m.arg.value)).toEqual(['$x']);
    expect(parseArgv(reader, [...args('--'), dyn('$x')]).maybeOptions).toEqual([]);
    expect(parseArgv(reader, [dyn('a$x')]).maybeOptions).toEqual([]);
  });
});

describe('the verdict on options it does not know', () => {
  it('asks, naming the option and the program', async () => {
    const v = await check('ls --frobnicate');
    expect(v.level).toBe('ask');
    const f = v.findings.find((x) => x.rule === 'unknown-option')!;
    expect(f.message).toContain('`--frobnicate`');
    expect(f.message).toContain('ls');
    expect(f.message).toContain('GNU coreutils');
  });

  it('keeps common read-only use allowed', async () => {
    for (const c of [
      'ls -la src',
      'head -5 README.md',
      'tail -n 20 -f log.txt',
      'grep -rn --color=auto TODO src',
      'sort -u -k2,2 f | uniq -c',
      'git log --oneline -5',
      'echo -n hi',
      "printf '%s\\n' x",
      'test -f x && echo y',
      'ps -eo pid,user,%cpu',
      'wc -l *.ts',
    ]) {
      expect((await check(c)).level, c).toBe('allow');
    }
  });

  it('asks for a word only known at run time that may be an option with an effect', async () => {
    expect(rules(await check('read -r p < pat.txt; grep "$p" notes.txt'))).toContain('unknown-option');
    // (p is the line's own: a variable of the environment would ask for itself, secret-variable)
    expect((await check('read -r p < pat.txt; grep -- "$p" notes.txt')).level).toBe('allow');
    expect((await check('read -r p < pat.txt; grep -e "$p" notes.txt')).level).toBe('allow');
  });

  it('keeps the roles of option values in programs a handler reads (awk -i, tar -T)', async () => {
    expect(ops(await check("awk -i ./lib.awk '{print}' f"))).toContain('Exec ./lib.awk');
    expect(ops(await check('tar -tf a.tar -T ~/list'))).toContain('Read ~/list');
  });
});
