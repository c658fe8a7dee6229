/**
 * Gate files (policy/gate-files.ts): the files where an agent registers its hook, and shellgate's
 * own, are never changed by a tool call — in any mode, by shell or file tool, through a link —
 * while reading them and ordinary writes are judged as before.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGate, type GateContext, type ToolCall } from '../../src/index.js';
import { AGENTS } from '../../src/agents/registry.js';
import { AGENT_IDS } from '../../src/agents/types.js';
import { agentGateFiles, gateFilePatterns } from '../../src/policy/gate-files.js';
import { MODES } from '../../src/policy/modes.js';

const BASE = mkdtempSync(join(tmpdir(), 'sg-gate-files-'));
const HOME = join(BASE, 'home');
const WS = join(BASE, 'ws');
const OTHER = join(BASE, 'other-root');
afterAll(() => rmSync(BASE, { recursive: true, force: true }));
for (const d of [join(HOME, '.claude'), join(WS, '.claude'), join(WS, 'src'), OTHER]) mkdirSync(d, { recursive: true });
writeFileSync(join(HOME, '.claude', 'settings.json'), '{"hooks":{}}\n');
writeFileSync(join(WS, '.claude', 'settings.json'), '{"hooks":{}}\n');
// A link in the workspace to the user's hook file: writing through it writes the hook file.
symlinkSync(join(HOME, '.claude', 'settings.json'), join(WS, 'src', 'cfg.json'));

const CTX: GateContext = { cwd: WS, workspaceRoots: [WS, OTHER], home: HOME, env: { HOME } };
const sh = (command: string): ToolCall => ({ tool: 'shell', args: { command } });

describe('the gate files come from the agent profiles', () => {
  it("holds every agent's settings files, hook files and init file, anchored at home and every root", () => {
    const listed = agentGateFiles();
    for (const id of AGENT_IDS) {
      const a = AGENTS[id]!;
      expect(listed, id).toContain(a.init.file);
      for (const s of a.settings) expect(listed, id).toContain(s.path);
      for (const f of a.hookFiles ?? []) expect(listed, id).toContain(f);
    }
    const patterns = gateFilePatterns({ home: HOME, roots: [WS, OTHER] });
    for (const p of [
      join(HOME, '.claude/settings.json'),
      join(WS, '.claude/settings.local.json'),
      join(OTHER, '.claude/settings.json'),
      join(HOME, '.gemini/settings.json'),
      join(WS, '.gemini/settings.json'),
      join(HOME, '.codex/config.toml'),
      join(HOME, '.codex/hooks.json'),
      join(HOME, '.qwen/settings.json'),
      join(HOME, '.cursor/hooks.json'),
      join(WS, '.cursor/hooks.json'),
      join(HOME, '.copilot/hooks/*.json'),
      join(WS, '.github/hooks/*.json'),
      join(HOME, '.config/shellgate/**'),
      join(HOME, '.cache/shellgate/**'),
    ])
      expect(patterns).toContain(p);
  });
});

describe('a write, edit or delete of a gate file is denied in every mode', () => {
  const writes: ToolCall[] = [
    sh('echo {} > ~/.claude/settings.json'),
    sh('cp /dev/null .claude/settings.json'),
    sh('sed -i s/shellgate/true/ .claude/settings.local.json'),
    sh('rm -rf ~/.claude'),
    sh('mv .claude .claude.off'),
    sh('cd src && echo {} > ../.cursor/hooks.json'),
    sh(`echo '{}' > ${join(OTHER, '.gemini', 'settings.json')}`),
    sh('echo x > ~/.codex/hooks.json'),
    sh('tee ~/.qwen/settings.json < /dev/null'),
    sh('echo x > .github/hooks/shellgate.json'),
    sh('echo x > ~/.copilot/hooks/shellgate.json'),
    sh('echo "module.exports=1" > ~/.cache/shellgate/x.js'),
    sh('echo {} > ~/.config/shellgate/settings.json'),
    // Through a link on disk, and spelt with another case.
    sh('echo {} > src/cfg.json'),
    sh('echo {} > .Claude/Settings.json'),
    { tool: 'Write', args: { file_path: join(HOME, '.claude', 'settings.json'), content: '{}' }, agent: 'claude-code' },
    { tool: 'Edit', args: { file_path: join(WS, '.claude', 'settings.json'), old_string: 'hooks', new_string: 'x' }, agent: 'claude-code' },
    { tool: 'write_file', args: { file_path: join(HOME, '.gemini', 'settings.json'), content: '{}' }, agent: 'gemini-cli' },
    { tool: 'apply_patch', args: { command: '*** Begin Patch\n*** Delete File: .codex/config.toml\n*** End Patch\n' }, agent: 'codex' },
    { tool: 'Write', args: { path: join(WS, 'src', 'cfg.json') }, agent: 'cursor' },
  ];
  for (const mode of MODES) {
    it(`in ${mode} mode`, async () => {
      const g = await createGate({ mode });
      for (const call of writes) {
        const d = g.evaluate(call, CTX);
        expect(d.level, `${mode}: ${JSON.stringify(call)}`).toBe('deny');
        expect(d.layer, JSON.stringify(call)).toMatch(/deny/);
      }
    });
  }

  it('an allow rule does not lift it', async () => {
    const g = await createGate({
      mode: 'yolo',
      settings: [{ source: 'user', settings: { permissions: { allow: ['Bash', 'Edit', 'Write', 'Edit(~/.claude/**)', 'Bash(echo *)'] } } }],
    });
    expect(g.evaluate(sh('echo {} > ~/.claude/settings.json'), CTX).level).toBe('deny');
    expect(g.evaluate({ tool: 'Write', args: { file_path: join(HOME, '.claude', 'settings.json') }, agent: 'claude-code' }, CTX).level).toBe('deny');
  });

  it('the settings file the gate itself loaded is one too', async () => {
    const file = join(BASE, 'shellgate-settings.json');
    writeFileSync(file, JSON.stringify({ permissions: { deny: ['Bash(curl *)'] } }));
    const g = await createGate({ mode: 'yolo', settings: [{ source: 'user', file, format: 'shellgate' }] });
    expect(g.evaluate(sh(`echo {} > ${file}`), CTX).level).toBe('deny');
  });
});

describe('what stays as it was', () => {
  it('reading a gate file is judged as before; ordinary writes pass in yolo', async () => {
    const g = await createGate({ mode: 'yolo' });
    expect(g.evaluate(sh('cat .claude/settings.json'), CTX).level).toBe('allow');
    expect(g.evaluate(sh('cat ~/.claude/settings.json'), CTX).level).toBe('allow');
    expect(g.evaluate(sh('echo hi > notes.txt'), CTX).level).toBe('allow');
    expect(g.evaluate(sh('mkdir -p .claude/commands && echo x > .claude/commands/a.md'), CTX).level).toBe('allow');
    expect(g.evaluate(sh('rm -rf ~/.cache'), CTX).level).toBe('allow');
    const dflt = await createGate();
    expect(dflt.evaluate(sh('cat .claude/settings.json'), CTX).level).toBe(g.evaluate(sh('cat .claude/settings.json'), { ...CTX, mode: 'default' }).level);
  });

  it('a glob that may reach a gate file asks in every mode, yolo included', async () => {
    const g = await createGate({ mode: 'yolo' });
    for (const c of ['rm -rf .c*', 'echo {} > ~/.claude/*.json', 'cp x ~/.cursor/hook?.json']) {
      expect(g.evaluate(sh(c), CTX).level, c).toBe('ask');
    }
    expect(g.evaluate(sh('rm -f *.log'), CTX).level).toBe('allow');
  });
});
