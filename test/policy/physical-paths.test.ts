/**
 * Issue 29, item 1: file tools and path rules judge a path where the kernel lands, not as written.
 * A workspace link to the home directory, to `/`, to `~/.ssh`, a link to a link, a `..` after a
 * link and a loop of links, on disk; each through the file tools and the shell.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createGate, type GateContext, type ToolCall } from '../../src/index.js';
import { makeLinkFixture, makePlainWorkspace, type LinkFixture } from './link-fixture.js';

let f: LinkFixture;
let ctx: GateContext;
beforeAll(() => {
  f = makeLinkFixture();
  ctx = { cwd: f.ws, workspaceRoots: [f.ws], home: f.home, env: {} };
});
afterAll(() => f.remove());

const sh = (command: string): ToolCall => ({ tool: 'Bash', args: { command } });
const read = (file_path: string): ToolCall => ({ tool: 'Read', args: { file_path } });
const write = (file_path: string): ToolCall => ({ tool: 'Write', args: { file_path, content: 'x' } });
const grep = (path?: string): ToolCall => ({ tool: 'Grep', args: { pattern: 'x', ...(path !== undefined ? { path } : {}) } });
const user = (permissions: Record<string, string[]>) => ({ settings: [{ source: 'user' as const, settings: { permissions } }] });

describe('a link out of the workspace is outside, through every file tool', () => {
  it('a Grep or Read of a link to the home directory asks, naming where it leads', async () => {
    const g = await createGate({});
    for (const call of [grep('homelink'), grep('chain'), read('homelink/.config/x'), { tool: 'read_file', args: { path: 'homelink/notes' } }]) {
      const d = g.evaluate(call, ctx);
      expect(d.level, JSON.stringify(call)).toBe('ask');
      expect(d.findings.some((x) => x.rule === 'outside-workspace' && x.message.includes(f.home))).toBe(true);
    }
  });
  it('accept-edits does not approve a write through a link to home or to /', async () => {
    const g = await createGate({ mode: 'auto-edit' });
    for (const p of ['homelink/.config/systemd/user/x.service', 'rootlink/etc/cron.d/x', 'chain/.config/autostart/x.desktop']) {
      expect(g.evaluate(write(p), ctx).level, p).toBe('ask');
    }
    expect(g.evaluate({ tool: 'Edit', args: { file_path: 'homelink/.bashrc', old_string: 'a', new_string: 'b' } }, ctx).level).toBe('ask');
    // An edit inside the workspace is still the mode's to approve.
    expect(g.evaluate(write('src/b.ts'), ctx).level).toBe('allow');
  });
  it("a `..` after a link is the parent of its target (the kernel), not the link's directory", async () => {
    const g = await createGate({});
    // Lexically `sshlink/../.bashrc` is ws/.bashrc; the kernel reads home/.bashrc.
    const d = g.evaluate(read('sshlink/../.bashrc'), ctx);
    expect(d.level).toBe('ask');
    expect(d.findings.some((x) => x.rule === 'outside-workspace')).toBe(true);
  });
  it('a loop of links cannot be known: never allowed, not even by an allow rule for everything', async () => {
    const g = await createGate(user({ allow: ['Read(./**)'] }));
    const d = g.evaluate(read('loop1/x'), ctx);
    expect(d.level).toBe('ask');
    expect(d.findings.some((x) => x.rule === 'dynamic-path' && x.message.includes('loop'))).toBe(true);
  });
});

describe('path rules hold on the physical path', () => {
  it('an allow rule for ./src/** does not cover a key reached through src/keys -> ~/.ssh', async () => {
    const g = await createGate(user({ allow: ['Read(./src/**)', 'Bash(cat *)'] }));
    for (const call of [sh('cat src/keys/id_rsa'), read('src/keys/id_rsa'), { tool: 'read_file', args: { path: 'src/keys/id_rsa' } }]) {
      expect(g.evaluate(call, ctx).level, JSON.stringify(call)).not.toBe('allow');
    }
    expect(g.evaluate(sh('cat src/a.ts'), ctx).level).toBe('allow');
    expect(g.evaluate(read('src/a.ts'), ctx).level).toBe('allow');
  });
  it('a deny reached through a link denies (not ask)', async () => {
    const g = await createGate(user({ deny: ['Read(./.env)'], allow: ['Read(./src/**)'] }));
    for (const call of [sh('cat src/envlink'), read('src/envlink'), sh('head -1 < src/envlink')]) {
      const d = g.evaluate(call, ctx);
      expect(d.level, JSON.stringify(call)).toBe('deny');
      expect(d.reason).toContain('Read(./.env)');
    }
  });
  it("a deny on the link's target written as a home path holds for the workspace link", async () => {
    const g = await createGate(user({ deny: ['Read(~/.ssh/**)'] }));
    expect(g.evaluate(read('sshlink/id_rsa'), ctx).level).toBe('deny');
    expect(g.evaluate(sh('cat src/keys/id_rsa'), ctx).level).toBe('deny');
    expect(g.evaluate(grep('src/keys'), ctx).level).toBe('deny');
  });
  it('a workspace opened through a link: rules anchored at its name still cover it', async () => {
    const c: GateContext = { cwd: f.wslink, workspaceRoots: [f.wslink], home: f.home, env: {} };
    const g = await createGate(user({ allow: ['Read(./src/**)'], deny: ['Read(./config/**)'] }));
    expect(g.evaluate(read('src/a.ts'), c).level).toBe('allow');
    expect(g.evaluate(read(join(f.ws, 'src', 'a.ts')), c).level).toBe('allow');
    expect(g.evaluate(read(join(f.ws, 'config', 'prod.yml')), c).level).toBe('deny');
    expect(g.evaluate(sh('cat src/a.ts'), c).level).toBe('allow');
  });
});

describe('precision: plain files stay allowed', () => {
  const p = makePlainWorkspace();
  afterAll(() => p.remove());
  it('reads and searches inside a workspace with no links', async () => {
    const c: GateContext = { cwd: p.ws, workspaceRoots: [p.ws], home: p.home, env: {} };
    const g = await createGate(user({ deny: ['Read(./.env)'] }));
    for (const call of [read('src/a.ts'), grep('src'), grep(), sh('cat src/a.ts'), sh('grep -rn foo src'), sh('grep -rn foo .'), sh('rg foo')]) {
      expect(g.evaluate(call, c).level, JSON.stringify(call)).toBe('allow');
    }
  });
});
