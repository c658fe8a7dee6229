/**
 * Issue 27, class 17: shared temp is not the workspace. `/tmp/krb5cc_0` holds Kerberos tickets
 * and other users leave files there, so a read there asks through every tool, an allow rule for
 * the program does not cover it, and the jail denies it. The agent's own scratch directory is
 * read like the workspace once the user declares it (`scratchDirs`, the user's settings only: a
 * repository may narrow, never widen).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGate, type GateContext, type ToolCall } from '../../src/index.js';
import { loadSource } from '../../src/policy/settings.js';

const WS = '/ws/project';
const CTX: GateContext = { cwd: WS, workspaceRoots: [WS], home: '/home/user', env: {} };
const sh = (command: string): ToolCall => ({ tool: 'shell', args: { command } });
const read = (path: string): ToolCall => ({ tool: 'read_file', args: { path } });

const base = mkdtempSync(join(tmpdir(), 'sg-scratch-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const SCRATCH = join(base, 'tasks');

describe('shared temp is outside the workspace in the gate', () => {
  it('asks for a read there through the file tool and the shell', async () => {
    const g = await createGate({});
    for (const call of [read('/tmp/krb5cc_0'), read('/var/tmp/x.log'), sh('cat /tmp/krb5cc_0'), sh('grep -r password /tmp'), read(join(tmpdir(), 'a.txt'))]) {
      const d = g.evaluate(call, CTX);
      expect(d.level, JSON.stringify(call)).toBe('ask');
    }
    expect(g.evaluate(read(`${WS}/a.ts`), CTX).level).toBe('allow');
  });
  it('an allow rule for the program does not authorise temp: only a rule naming the path does', async () => {
    const g = await createGate({ settings: [{ source: 'user', settings: { permissions: { allow: ['Bash(cat *)', 'Read(./**)'] } } }] });
    const d = g.evaluate(sh('cat /tmp/krb5cc_0'), CTX);
    expect(d.level).toBe('ask');
    expect(d.layer).toBe('external-directory');
    expect(g.evaluate(read('/tmp/krb5cc_0'), CTX).level).toBe('ask');
    const named = await createGate({ settings: [{ source: 'user', settings: { permissions: { allow: ['Bash(cat *)', 'Read(//tmp/build/**)'] } } }] });
    expect(named.evaluate(sh('cat /tmp/build/out.txt'), CTX).level).toBe('allow');
  });
  it('auto-edit mode does not approve a write to a predictable temp name (a link planted there leads anywhere)', async () => {
    const g = await createGate({ mode: 'auto-edit' });
    expect(g.evaluate(sh('echo hi > /tmp/x'), CTX).level).toBe('ask');
    expect(g.evaluate({ tool: 'write_file', args: { path: '/tmp/x' } }, CTX).level).toBe('ask');
    expect(g.evaluate({ tool: 'write_file', args: { path: `${WS}/x` } }, CTX).level).toBe('allow');
  });
  it('the jail denies temp like any other folder outside', async () => {
    const g = await createGate({ presets: ['jail'] });
    for (const call of [read('/tmp/krb5cc_0'), sh('cat /tmp/krb5cc_0'), sh('echo x > /tmp/x'), { tool: 'write_file', args: { path: '/var/tmp/x' } }]) {
      expect(g.evaluate(call, CTX).level, JSON.stringify(call)).toBe('deny');
    }
  });
});

describe('scratchDirs: the agent scratch directory the user declares', () => {
  const user = { source: 'user' as const, settings: { scratchDirs: [SCRATCH] } };
  it('reads there like the workspace, through the file tool and the shell, and only there', async () => {
    const g = await createGate({ settings: [user] });
    expect(g.policy.scratchDirs).toEqual([SCRATCH]);
    expect(g.evaluate(read(join(SCRATCH, 'b1.output')), CTX).level).toBe('allow');
    expect(g.evaluate(sh(`tail -n 50 ${join(SCRATCH, 'b1.output')}`), CTX).level).toBe('allow');
    // Its neighbours in shared temp are still outside.
    expect(g.evaluate(sh(`cat ${join(base, 'other')}`), CTX).level).toBe('ask');
    expect(g.evaluate(sh('cat /tmp/krb5cc_0'), CTX).level).toBe('ask');
    const jail = await createGate({ settings: [user], presets: ['jail'] });
    expect(jail.evaluate(read(join(SCRATCH, 'b1.output')), CTX).level).toBe('allow');
    expect(jail.evaluate(read('/tmp/krb5cc_0'), CTX).level).toBe('deny');
  });
  it('a repository settings file cannot declare one: skipped with a warning', async () => {
    for (const source of ['project', 'local'] as const) {
      const g = await createGate({ settings: [{ source, settings: { scratchDirs: ['/tmp'] } }] });
      expect(g.policy.scratchDirs).toEqual([]);
      expect(g.policy.warnings.join('\n')).toMatch(/scratchDirs skipped/);
      expect(g.evaluate(sh('cat /tmp/krb5cc_0'), CTX).level).toBe('ask');
    }
  });
  it("a --config file is the user's only outside the working directory and the folders above it", () => {
    const file = join(base, 'proj', 'shellgate.json');
    mkdirSync(join(base, 'proj', 'sub'), { recursive: true });
    writeFileSync(file, JSON.stringify({ scratchDirs: [SCRATCH] }));
    const src = { source: 'project' as const, file, format: 'shellgate' as const };
    expect(loadSource(src, '/ws/project', '/home/user').scratchDirs).toEqual([SCRATCH]);
    for (const cwd of [join(base, 'proj'), join(base, 'proj', 'sub'), base]) {
      const p = loadSource(src, cwd, '/home/user');
      expect(p.scratchDirs, cwd).toEqual([]);
      expect(p.warnings.join('\n')).toMatch(/scratchDirs skipped/);
    }
  });
  it('refuses shared temp itself, the root, the home, a folder above them, and a relative folder', async () => {
    for (const d of ['/tmp', '/tmp/', '/var/tmp', tmpdir(), '/', '~', homedir(), 'tasks', '/var']) {
      await expect(createGate({ settings: [{ source: 'user', settings: { scratchDirs: [d] } }] }), d).rejects.toThrow(/scratchDirs/);
    }
    await expect(createGate({ settings: [{ source: 'user', settings: { scratchDirs: '/tmp/x' } }] })).rejects.toThrow(/scratchDirs/);
  });
});
