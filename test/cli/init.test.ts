/** `shellgate init AGENT`: prints the hook configuration; --write merges it, keeps a backup, never overwrites what is there. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeSettings } from '../../src/cli/init-command.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'sg-init-'));
  dirs.push(d);
  return d;
};

describe('shellgate init', () => {
  it('prints a snippet whose hook command starts this shellgate by absolute path', () => {
    const out = execFileSync(process.execPath, [CLI, 'init', 'claude-code'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const json = JSON.parse(out.slice(out.indexOf('{')));
    const command: string = json.hooks.PreToolUse[0].hooks[0].command;
    expect(command).toContain(process.execPath);
    expect(command).toMatch(/main\.js'? hook claude-code$/);
  });

  it('--write merges into the settings file, keeps every existing setting and hook, and backs the old file up', () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.claude'));
    const before = { permissions: { allow: ['Bash(ls)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'other' }] }] } };
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify(before));
    execFileSync(process.execPath, [CLI, 'init', 'claude-code', '--write', '--command', 'shellgate hook claude-code'], { cwd: dir, stdio: 'ignore' });
    const after = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
    expect(after.permissions).toEqual(before.permissions);
    expect(after.hooks.PreToolUse).toHaveLength(2);
    expect(after.hooks.PreToolUse[0]).toEqual(before.hooks.PreToolUse[0]);
    expect(after.hooks.PreToolUse[1].hooks[0].command).toBe('shellgate hook claude-code');
    const backups = readdirSync(join(dir, '.claude')).filter((f) => f.includes('shellgate-backup'));
    expect(backups).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, '.claude', backups[0]), 'utf8'))).toEqual(before);
    // A second run changes nothing and makes no new backup.
    execFileSync(process.execPath, [CLI, 'init', 'claude-code', '--write', '--command', 'shellgate hook claude-code'], { cwd: dir, stdio: 'ignore' });
    expect(readdirSync(join(dir, '.claude')).filter((f) => f.includes('shellgate-backup'))).toHaveLength(1);
  });

  it('refuses to touch a settings file that is not valid JSON, and rejects an unknown agent (exit 64)', () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), '{ "permissions": ');
    const bad = spawnSync(process.execPath, [CLI, 'init', 'claude-code', '--write'], { cwd: dir, encoding: 'utf8' });
    expect(bad.status).toBe(64);
    expect(bad.stderr).toMatch(/not valid JSON.*nothing was written/);
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe('{ "permissions": ');
    const unknown = spawnSync(process.execPath, [CLI, 'init', 'vim'], { encoding: 'utf8' });
    expect(unknown.status).toBe(64);
    expect(unknown.stderr).toMatch(/init needs an agent/);
  });

  it('never replaces a value that is already set: it reports the conflict instead', () => {
    const r = mergeSettings({ hooks: { enabled: false } }, { hooks: { enabled: true, list: [1] } });
    expect(r.value).toEqual({ hooks: { enabled: false, list: [1] } });
    expect(r.conflicts[0]).toMatch(/\/hooks\/enabled is already set to false/);
  });
});
