/**
 * `shellgate init --write` run as a user would, on real files: a setting that switches the agent's
 * hooks off is an error (exit 64, nothing written) unless --force; a settings file that is a link
 * (dotfiles) is written through the link; Gemini CLI's and Qwen Code's JSON with comments keeps its
 * comments; a malformed file is never overwritten.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseJsonc } from '../../src/agents/jsonc.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const BASE = realpathSync(mkdtempSync(join(tmpdir(), 'sg-init-safety-')));
afterAll(() => rmSync(BASE, { recursive: true, force: true }));

/** A fresh project folder and home for one case. */
function box(name: string): { cwd: string; home: string; write(path: string, text: string): string } {
  const cwd = join(BASE, name, 'project');
  const home = join(BASE, name, 'home');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  return { cwd, home, write };
}

function init(b: { cwd: string; home: string }, ...args: string[]) {
  return spawnSync(process.execPath, [CLI, 'init', ...args, '--command', 'shellgate hook'], {
    cwd: b.cwd,
    encoding: 'utf8',
    env: { ...process.env, HOME: b.home, NO_COLOR: '1' },
  });
}

const GEMINI_WITH_COMMENTS = `{
  // my theme
  "ui": { "theme": "GitHub" }, /* kept */
  "hooksConfig": { "enabled": false }
}
`;

describe('init: settings that switch hooks off', () => {
  it('Claude Code: disableAllHooks in settings.local.json (which wins) is an error; --force writes and warns', () => {
    const b = box('claude-off');
    b.write(join(b.cwd, '.claude', 'settings.local.json'), '{ "disableAllHooks": true }\n');
    const refused = init(b, 'claude-code', '--write');
    expect(refused.status).toBe(64);
    expect(refused.stderr).toMatch(/settings\.local\.json: disableAllHooks is true/);
    expect(refused.stderr).toMatch(/nothing was written/);
    expect(existsSync(join(b.cwd, '.claude', 'settings.json'))).toBe(false);
    const forced = init(b, 'claude-code', '--write', '--force');
    expect(forced.status).toBe(0);
    expect(forced.stderr).toMatch(/warning: the hook will not run until this is resolved: .*disableAllHooks/);
    expect(JSON.parse(readFileSync(join(b.cwd, '.claude', 'settings.json'), 'utf8')).hooks.PreToolUse[0].hooks[0].command).toBe('shellgate hook');
  });

  it('Gemini CLI: hooksConfig.enabled false in the file init writes is an error, and the file is left byte for byte', () => {
    const b = box('gemini-off');
    const file = b.write(join(b.home, '.gemini', 'settings.json'), GEMINI_WITH_COMMENTS);
    const r = init(b, 'gemini-cli', '--write');
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/hooksConfig\.enabled is false/);
    expect(readFileSync(file, 'utf8')).toBe(GEMINI_WITH_COMMENTS);
  });

  it('Qwen Code: disableAllHooks in the system-wide or user file is an error', () => {
    const b = box('qwen-off');
    b.write(join(b.home, '.qwen', 'settings.json'), '{ "disableAllHooks": true }');
    const r = init(b, 'qwen-code', '--write');
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/disableAllHooks is true/);
  });
});

describe('init: files kept as their owner keeps them', () => {
  it('Gemini CLI: a settings file that is a link into a dotfiles folder is written through the link, comments kept', () => {
    const b = box('gemini-link');
    const target = b.write(join(b.home, 'dotfiles', 'gemini.json'), GEMINI_WITH_COMMENTS.replace('false', 'true'));
    mkdirSync(join(b.home, '.gemini'));
    const link = join(b.home, '.gemini', 'settings.json');
    symlinkSync('../dotfiles/gemini.json', link);
    const r = init(b, 'gemini-cli', '--write');
    expect(r.status, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('../dotfiles/gemini.json');
    const text = readFileSync(target, 'utf8');
    expect(text).toContain('// my theme');
    expect(text).toContain('/* kept */');
    const value = parseJsonc(text) as { ui: unknown; hooks: { BeforeTool: { hooks: { command: string }[] }[] } };
    expect(value.ui).toEqual({ theme: 'GitHub' });
    expect(value.hooks.BeforeTool[0].hooks[0].command).toBe('shellgate hook');
    // The backup holds the old text, beside the link; no temp file is left behind.
    const backups = readdirSync(join(b.home, '.gemini')).filter((f) => f.includes('shellgate-backup'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(b.home, '.gemini', backups[0]), 'utf8')).toBe(GEMINI_WITH_COMMENTS.replace('false', 'true'));
    expect(readdirSync(join(b.home, 'dotfiles'))).toEqual(['gemini.json']);
  });

  it('a link whose target does not exist yet: the target is created, the link stays', () => {
    const b = box('dangling');
    mkdirSync(join(b.home, 'dotfiles'));
    mkdirSync(join(b.home, '.qwen'));
    const link = join(b.home, '.qwen', 'settings.json');
    symlinkSync(join(b.home, 'dotfiles', 'qwen.json'), link);
    expect(init(b, 'qwen-code', '--write').status).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(b.home, 'dotfiles', 'qwen.json'), 'utf8')).hooks.PreToolUse).toHaveLength(1);
  });

  it('never overwrites a malformed file: JSON with a trailing comma for Gemini CLI, a comment for Claude Code (strict JSON)', () => {
    const b = box('malformed');
    const gemini = b.write(join(b.home, '.gemini', 'settings.json'), '{ "ui": {}, }\n');
    const g = init(b, 'gemini-cli', '--write');
    expect(g.status).toBe(64);
    expect(g.stderr).toMatch(/not valid JSON \(comments allowed\).*nothing was written/);
    expect(readFileSync(gemini, 'utf8')).toBe('{ "ui": {}, }\n');
    const claude = b.write(join(b.cwd, '.claude', 'settings.json'), '// mine\n{}\n');
    const c = init(b, 'claude-code', '--write');
    expect(c.status).toBe(64);
    expect(c.stderr).toMatch(/not valid JSON.*nothing was written/);
    expect(readFileSync(claude, 'utf8')).toBe('// mine\n{}\n');
  });
});
