/** `shellgate check` with policy flags: --tool/--arg, --settings, --preset, --mode, --channel, --config. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const WS = mkdtempSync(join(tmpdir(), 'sg-clipol-'));
mkdirSync(join(WS, '.claude'));
const run = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, 'check', '--cwd', WS, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('check with a policy', () => {
  it('checks non-shell tool calls with --tool and --arg', () => {
    const r = run('--json', '--tool', 'read_file', '--arg', `path=${join(WS, 'a.txt')}`);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ tool: 'read_file', level: 'allow' });
    expect(run('--tool', 'web_fetch', '--arg', 'url=https://example.com').status).toBe(1);
  });

  it('imports Claude Code settings with --settings and shows the trace in JSON; a user file allows, a project file only narrows', () => {
    const home = mkdtempSync(join(tmpdir(), 'sg-clipol-home-'));
    mkdirSync(join(home, '.claude'));
    const user = join(home, '.claude', 'settings.json');
    writeFileSync(user, JSON.stringify({ permissions: { allow: ['Bash(touch *)'] } }));
    const asUser = (...args: string[]) =>
      spawnSync(process.execPath, [BIN, 'check', '--cwd', WS, ...args], { encoding: 'utf8', env: { ...process.env, HOME: home, NO_COLOR: '1' } });
    const ok = asUser('--json', '--settings', user, 'touch x');
    expect(ok.status).toBe(0);
    const out = JSON.parse(ok.stdout);
    expect(out.trace.map((t: { layer: string }) => t.layer)).toContain('rule-allow');
    const file = join(WS, '.claude', 'settings.json');
    writeFileSync(file, JSON.stringify({ permissions: { allow: ['Bash(touch *)'], deny: ['Bash(git push *)'] } }));
    const project = asUser('--settings', file, 'touch x');
    expect(project.status).toBe(1);
    expect(project.stderr).toMatch(/allow rule\(s\) not applied.*never widen/);
    expect(run('--settings', file, 'git push origin main').status).toBe(2);
    rmSync(home, { recursive: true, force: true });
  });

  it('applies --preset, --mode and --channel', () => {
    expect(run('--preset', 'jail', 'cat /etc/hosts').status).toBe(2);
    expect(run('--mode', 'plan', 'touch x').status).toBe(2);
    expect(run('--mode', 'yolo', 'touch x').status).toBe(0);
    expect(run('--channel', 'non-interactive', 'touch x').status).toBe(2);
    const bad = run('--preset', 'prison', 'ls');
    expect(bad.status).toBe(64);
    expect(bad.stderr).toContain('prison');
  });

  it('reports a bad --config with its pointer, exit 64', () => {
    const cfg = join(WS, 'sg.json');
    writeFileSync(cfg, JSON.stringify({ permissions: { allow: ['Bash(git status', 'x'] } }));
    const r = run('--config', cfg, 'ls');
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/\/permissions\/allow\/0/);
  });
});

describe('settings schema', () => {
  it('is shipped, valid JSON, and lists what the loader accepts', async () => {
    const { readFileSync } = await import('node:fs');
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'rules', 'settings.schema.json'), 'utf8'));
    expect(Object.keys(schema.properties).sort()).toEqual(
      [
        '$schema',
        'permissions',
        'presets',
        'defaultMode',
        'audit',
        'scratchDirs',
        'chaining',
        'maxInputLength',
        'maxScriptDepth',
        'maxFunctionWalks',
        'maxWalkSteps',
        'maxFindings',
        'commandSpecDirs',
        'followSource',
        'ruleFiles',
        'trustedInstallers',
        'shell',
      ].sort(),
    );
    expect(Object.keys(schema.properties.permissions.properties).sort()).toEqual(['additionalDirectories', 'allow', 'ask', 'defaultMode', 'deny']);
  });
});
