/**
 * Issue 29, item 3: a deny (or ask) on a path applies to every operation that reaches it. A walk
 * of a directory (`grep -r`, `rg`, `tar -c`, find, a search tool's root) reaches every path below
 * it; a glob reaches what it may match. The denied file here is not a sensitive one, so nothing
 * but the rule can stop the read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGate, type Gate, type GateContext, type ToolCall } from '../../src/index.js';

let base: string;
let ctx: GateContext;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'sg-reach-'));
  const ws = join(base, 'ws');
  const home = join(base, 'home');
  for (const d of [join(ws, 'src'), join(ws, 'config'), join(ws, 'secretdir'), join(ws, 'lib'), home]) mkdirSync(d, { recursive: true });
  writeFileSync(join(ws, 'src', 'a.ts'), 'export {};\n');
  writeFileSync(join(ws, 'config', 'prod.yml'), 'password: x\n');
  writeFileSync(join(ws, 'secretdir', 'k'), 'k\n');
  writeFileSync(join(ws, '.hidden-notes'), 'n\n');
  writeFileSync(join(home, 'notes.txt'), 'n\n');
  writeFileSync(join(ws, 'lib', 'b.ts'), 'export {};\n');
  // A link inside the workspace to the denied file: a walk that follows links reads it.
  symlinkSync('../config/prod.yml', join(ws, 'lib', 'cfg'));
  ctx = { cwd: ws, workspaceRoots: [ws], home, env: {} };
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const sh = (command: string): ToolCall => ({ tool: 'Bash', args: { command } });
const grepTool = (args: Record<string, string> = {}): ToolCall => ({ tool: 'Grep', args: { pattern: 'password', ...args } });
const gate = (permissions: Record<string, string[]>): Promise<Gate> => createGate({ settings: [{ source: 'user', settings: { permissions } }] });
const level = (g: Gate, call: ToolCall) => g.evaluate(call, ctx).level;

describe('a deny on a file reaches every walk and glob that reads it', () => {
  it('denies recursive reads of a directory above it, through the shell and the search tool', async () => {
    const g = await gate({ deny: ['Read(./config/prod.yml)'] });
    for (const call of [
      sh('grep -rn password .'),
      sh('grep -rn password config'),
      sh('grep -R password lib'),
      sh('rg password'),
      sh('git grep --untracked password'),
      sh('git grep -e password config'),
      sh('find . -exec cat {} +'),
      sh('tar czf /dev/null .'),
      sh('cat config/*'),
      grepTool(),
      grepTool({ path: '.' }),
      grepTool({ path: 'config' }),
      grepTool({ glob: '*.yml' }),
    ]) {
      expect(level(g, call), JSON.stringify(call)).toBe('deny');
    }
  });
  it('names the rule and the directory walked', async () => {
    const g = await gate({ deny: ['Read(./config/prod.yml)'] });
    const d = g.evaluate(sh('grep -rn password .'), ctx);
    expect(d.reason).toContain('Read(./config/prod.yml)');
    expect(d.reason).toContain(`below ${ctx.cwd}`);
  });
  it('leaves alone what does not reach it', async () => {
    const g = await gate({ deny: ['Read(./config/prod.yml)', 'Read(./missing.txt)'] });
    for (const call of [
      sh('grep -rn password src'),
      sh('rg password src'),
      sh('git grep password -- src'),
      sh('cat src/a.ts'),
      sh('find . -name "*.ts"'), // a listing reads no file's content
      sh('ls -R'),
      grepTool({ path: 'src' }),
      grepTool({ glob: '*.ts' }),
    ]) {
      expect(level(g, call), JSON.stringify(call)).toBe('allow');
    }
  });
  it('follows the walk: rg skips hidden names unless told not to', async () => {
    const g = await gate({ deny: ['Read(./.hidden-notes)'] });
    expect(level(g, sh('rg password'))).toBe('allow');
    expect(level(g, sh('rg --hidden password'))).toBe('deny');
    expect(level(g, sh('grep -rn password .'))).toBe('deny');
  });
  it('a deny on a directory reaches the listings of its contents too', async () => {
    const g = await gate({ deny: ['Read(./secretdir)'] });
    for (const c of ['find . -name "*.ts"', 'ls -R', 'grep -rn x .']) expect(level(g, sh(c)), c).toBe('deny');
    expect(level(g, sh('ls'))).toBe('allow');
  });
  it('an ask rule reaches the same way, and asks in every mode', async () => {
    const g = await gate({ ask: ['Read(./config/**)'] });
    for (const mode of ['default', 'yolo'] as const) {
      const d = g.evaluate(sh('grep -rn password .'), { ...ctx, mode });
      expect(d.level, mode).toBe('ask');
      expect(d.reason).toContain('Read(./config/**)');
    }
  });
  it('an allow rule never gets wider from a walk', async () => {
    const g = await gate({ allow: ['Read(~/notes.txt)', 'Bash(grep *)'] });
    expect(level(g, sh('grep -r x ~'))).toBe('ask');
    expect(level(g, grepTool({ path: ctx.home! }))).toBe('ask');
  });
});
