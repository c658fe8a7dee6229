/**
 * The sensitive preset is anchored at the root and the home, never at the cwd (issue 29, item 2):
 * a `.env` above the cwd, in another workspace root or in the home is denied like one below it; a
 * glob that may match a sensitive file and a recursive read of a folder holding one are denied;
 * read-only work on ordinary files stays allowed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGate, type GateContext, type ToolCall } from '../../src/index.js';

const BASE = mkdtempSync(join(tmpdir(), 'sg-presets-anchored-'));
const HOME = join(BASE, 'home');
const WS = join(BASE, 'ws');
const OTHER = join(BASE, 'other-root');
afterAll(() => rmSync(BASE, { recursive: true, force: true }));
for (const d of [join(HOME, '.ssh'), join(WS, 'src'), OTHER]) mkdirSync(d, { recursive: true });
writeFileSync(join(WS, '.env'), 'TOKEN=x\n');
writeFileSync(join(OTHER, '.env'), 'TOKEN=x\n');
writeFileSync(join(HOME, '.ssh', 'id_rsa'), 'PRIVATE\n');
writeFileSync(join(WS, 'src', 'main.c'), 'int main;\n');

const IN_SRC: GateContext = { cwd: join(WS, 'src'), workspaceRoots: [WS, OTHER], home: HOME, env: { HOME } };
const sh = (command: string): ToolCall => ({ tool: 'shell', args: { command } });

describe('--preset sensitive, whatever the cwd and the mode', () => {
  const denied: ToolCall[] = [
    sh('cat ../.env'),
    sh('cd .. && cat .env'),
    sh(`cat ${join(OTHER, '.env')}`),
    sh('cat ~/.env'),
    sh('echo x >> ../.env'),
    sh('cat ../.e*'),
    sh('cat ~/.ss*/id_rsa'),
    sh('cat ~/.claude/settings.json'),
    // A recursive read of a folder that holds a sensitive path reads it.
    sh('grep -r PRIVATE ~'),
    sh('tar czf x.tgz ~'),
    sh('grep -rn PRIVATE /'),
    { tool: 'Read', args: { file_path: join(WS, '.env') }, agent: 'claude-code' },
    { tool: 'read_file', args: { file_path: '../.env' } },
    { tool: 'Grep', args: { pattern: 'PRIVATE', path: HOME }, agent: 'claude-code' },
  ];
  for (const mode of ['default', 'yolo'] as const) {
    it(`denies what names or reaches a sensitive file (${mode})`, async () => {
      const g = await createGate({ presets: ['sensitive'], mode });
      for (const call of denied) {
        const d = g.evaluate(call, IN_SRC);
        expect(d.level, `${mode}: ${JSON.stringify(call)}`).toBe('deny');
        expect(d.reason, JSON.stringify(call)).toContain('preset sensitive');
      }
    });
  }

  it('leaves read-only work on ordinary files allowed', async () => {
    const g = await createGate({ presets: ['sensitive'] });
    for (const c of ['cat main.c', 'cat *', 'grep -rn TODO .', 'ls ..', 'git status', 'wc -l ../src/*.c']) {
      expect(g.evaluate(sh(c), IN_SRC).level, c).toBe('allow');
    }
    expect(g.evaluate({ tool: 'Grep', args: { pattern: 'TODO', path: join(WS, 'src') }, agent: 'claude-code' }, IN_SRC).level).toBe('allow');
  });
});
