/** Fail closed: no input throws, hangs or comes back allow when shellgate is in doubt. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VerdictCache } from '../../src/verdict-cache.js';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzer, check, CONTEXT } from '../helpers/analyzer.js';
import { ShellgateError, createAnalyzer } from '../../src/index.js';

describe('any input', () => {
  it('never throws and always gives a well-formed verdict (fast-check)', async () => {
    const a = await analyzer();
    const alphabet = fc.constantFrom(...'ab $\'"`\\(){}[]<>|&;*?~#=!\n\r\t\v\0\u200b\u00a0-/.'.split(''));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200, unit: 'binary' }), fc.string({ unit: alphabet, maxLength: 200 })), (s) => {
        const v = a.analyze(s, CONTEXT);
        expect(['allow', 'ask', 'deny']).toContain(v.level);
        for (const f of v.findings) expect(f.span.end).toBeLessThanOrEqual(s.length);
        if (v.findings.some((f) => f.rule === 'parse-error')) expect(v.level).not.toBe('allow');
        // The analyser turns its own exceptions into `ask`; none may happen at all.
        expect(v.findings.filter((f) => f.rule === 'internal-error')).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });

  it('asks on every kind of doubt', async () => {
    for (const c of [
      'echo "unterminated',
      'if true; then',
      '$x -rf /',
      '$(echo rm) -rf /',
      '/???/r? x',
      'eval "$CMD"',
      'cat $FILE',
      'bash -c "$X"',
      'ls <file>',
    ]) {
      expect((await check(c)).level, c).not.toBe('allow');
    }
  });

  it('analyses a 1 MB command and a deeply nested one without blowing the stack', async () => {
    const big = 'echo ' + 'a'.repeat(1024 * 1024) + ' && rm -rf x';
    const v = await check(big);
    expect(v.level).toBe('ask');
    expect(v.commands.map((c) => c.program)).toEqual(['echo', 'rm']);
    const deep = '$('.repeat(1000) + 'ls' + ')'.repeat(1000);
    expect((await check(deep)).level).not.toBe('allow');
    const subshells = '('.repeat(1000) + 'rm x' + ')'.repeat(1000);
    expect((await check(subshells)).level).toBe('ask');
  });

  it('cuts input past maxInputLength and says so', async () => {
    const a = await createAnalyzer({ maxInputLength: 100 });
    const v = a.analyze('ls ' + 'x '.repeat(100), CONTEXT);
    expect(v.findings.some((f) => f.rule === 'input-limit')).toBe(true);
    expect(v.level).toBe('ask');
  });
});

describe('bad options and input', () => {
  it('rejects them with a typed, clear error', async () => {
    await expect(createAnalyzer({ chaining: 'loud' } as never)).rejects.toThrow(/chaining/);
    await expect(createAnalyzer({ nope: 1 } as never)).rejects.toThrow(ShellgateError);
    await expect(createAnalyzer({ maxScriptDepth: 0 })).rejects.toThrow(/maxScriptDepth/);
    const a = await analyzer();
    expect(() => a.analyze(42 as never)).toThrow(/must be a string/);
    expect(() => a.analyze('ls', { cwd: 'relative' })).toThrow(/absolute path/);
    expect(() => a.analyze('ls', { cwdd: '/x' } as never)).toThrow(/unknown context field/);
  });
});

describe('chaining option', () => {
  it('keeps structure findings informative by default and raises them with chaining: ask', async () => {
    expect((await check('ls | wc -l')).level).toBe('allow');
    const strict = await createAnalyzer({ chaining: 'ask' });
    expect(strict.analyze('ls | wc -l', CONTEXT).level).toBe('ask');
    expect(strict.analyze('ls', CONTEXT).level).toBe('allow');
  });
});

describe('verdict cache', () => {
  it('returns the same verdict for the same command and context, and can be turned off', async () => {
    const a = await createAnalyzer();
    const first = a.analyze('cat README.md | wc -l', CONTEXT);
    expect(a.analyze('cat README.md | wc -l', CONTEXT)).toBe(first);
    expect(a.analyze('cat README.md | wc -l', { ...CONTEXT, cwd: '/elsewhere' })).not.toBe(first);
    const off = await createAnalyzer({ cacheSize: 0 });
    const v = off.analyze('ls', CONTEXT);
    expect(off.analyze('ls', CONTEXT)).not.toBe(v);
    expect(off.analyze('ls', CONTEXT)).toEqual(v);
  });

  it('notices a context object whose fields changed since the last call', async () => {
    const a = await createAnalyzer();
    const ctx = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user' };
    expect(a.analyze('cat notes.txt', ctx).level).toBe('allow');
    ctx.cwd = '/etc'; // same object, another directory: notes.txt is now outside the workspace
    expect(a.analyze('cat notes.txt', ctx).level).toBe('ask');
    ctx.cwd = '/ws/project';
    ctx.workspaceRoots[0] = '/ws/other'; // the list changed in place
    expect(a.analyze('cat notes.txt', ctx).level).toBe('ask');
    expect(() => a.analyze('ls', { ...ctx, cwd: 'relative' })).toThrow(/absolute path/);
  });

  it('sees a symlink made after an earlier analysis of the same command (no stale realpath or verdict)', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'sg-ws-'));
    const ctx = { cwd: ws, workspaceRoots: [ws], home: '/home/nobody' };
    const uncached = await createAnalyzer({ cacheSize: 0 });
    const cached = await createAnalyzer({ cacheTtlMs: 5 });
    expect(uncached.analyze('cat x/shadow', ctx).level).toBe('allow');
    expect(cached.analyze('cat x/shadow', ctx).level).toBe('allow');
    symlinkSync('/etc', join(ws, 'x')); // what the previous command may have done
    expect(uncached.analyze('cat x/shadow', ctx).level).not.toBe('allow');
    await new Promise((r) => setTimeout(r, 20));
    expect(cached.analyze('cat x/shadow', ctx).level).not.toBe('allow');
    await expect(createAnalyzer({ cacheTtlMs: 0 })).rejects.toThrow(/cacheTtlMs/);
  });

  it('lets a cached verdict expire after its time to live', () => {
    let now = 0;
    const c = new VerdictCache<number>(10, 100, () => now);
    c.set('a', 1);
    now = 100;
    expect(c.get('a')).toBe(1);
    now = 101;
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('keeps a working set that fits, evicting what was not used again', () => {
    const c = new VerdictCache<number>(3);
    c.set('a', 1);
    c.set('b', 2);
    c.set('c', 3);
    expect(c.get('a')).toBe(1); // a is used: it survives the next insertion
    c.set('d', 4);
    expect([c.get('a'), c.get('b'), c.get('c'), c.get('d')]).toEqual([1, undefined, 3, 4]);
    expect(c.size).toBe(3);
    for (let round = 0; round < 3; round++) for (const k of ['a', 'c', 'd']) expect(c.get(k)).toBeDefined();
    c.set('e', 5);
    c.set('f', 6);
    expect(c.size).toBe(3);
  });
});
