/**
 * A project's own agent settings, driven through `shellgate hook` as Gemini CLI and Qwen Code call
 * it: the project's file is imported only where the agent itself loads it (its trusted folders),
 * and where it is imported it narrows (deny) but never widens (an allow of the whole shell tool
 * does not let `git push --force` through). Real files in a temp workspace and a private HOME.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const BASE = realpathSync(mkdtempSync(join(tmpdir(), 'sg-trust-')));
afterAll(() => rmSync(BASE, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A workspace whose agent file allows the whole shell tool and denies `ls`, with comments (JSONC). */
function workspace(name: string, folder: '.gemini' | '.qwen'): string {
  const ws = join(BASE, name, 'ws');
  const allowed = folder === '.gemini' ? '"tools": { "allowed": ["run_shell_command"] }' : '"permissions": { "allow": ["run_shell_command"] }';
  write(join(ws, folder, 'settings.json'), `// the repository's settings\n{\n  ${allowed}, /* and */\n  "excludeTools": ["run_shell_command(ls)"]\n}\n`);
  return ws;
}

/** The hook's answer for a shell command in `ws`, with HOME at `home` and extra environment. */
function level(agent: 'gemini-cli' | 'qwen-code', ws: string, home: string, command: string, env: Record<string, string> = {}): string {
  const payload =
    agent === 'gemini-cli'
      ? { session_id: 's', cwd: ws, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command } }
      : { session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', permission_mode: 'default', tool_name: 'run_shell_command', tool_input: { command } };
  const base: Record<string, string | undefined> = { ...process.env, HOME: home, NO_COLOR: '1' };
  for (const k of ['GEMINI_CLI_TRUST_WORKSPACE', 'GEMINI_CLI_HOME', 'QWEN_CODE_TRUSTED_FOLDERS_PATH']) delete base[k];
  const r = spawnSync(process.execPath, [BIN, 'hook', agent], { input: JSON.stringify(payload), encoding: 'utf8', cwd: ws, env: { ...base, ...env } });
  const out = JSON.parse(r.stdout) as { decision?: string; hookSpecificOutput?: { permissionDecision?: string } };
  return out.hookSpecificOutput?.permissionDecision ?? out.decision ?? `exit ${r.status}`;
}

/** Each case: a home set up one way; `ls` is denied exactly when the project's file is imported. */
interface Case {
  name: string;
  home(ws: string): Record<string, string>;
  env?: Record<string, string>;
  imported: boolean;
  /** Also check that the imported allow of the whole shell tool lifts nothing. */
  widen?: true;
}

function run(agent: 'gemini-cli' | 'qwen-code', folder: '.gemini' | '.qwen', cases: Case[]): void {
  for (const c of cases) {
    it(`${c.name}: the project's file is ${c.imported ? 'imported' : 'not imported'}${c.widen ? ', and it narrows only' : ''}`, () => {
      const ws = workspace(`${agent}-${c.name.replace(/\W+/g, '-')}`, folder);
      const home = join(dirname(ws), 'home');
      mkdirSync(home, { recursive: true });
      for (const [path, text] of Object.entries(c.home(ws))) write(join(home, path), text);
      expect(level(agent, ws, home, 'ls', c.env)).toBe(c.imported ? 'deny' : 'allow');
      // Imported, the allow of the whole shell tool still lifts nothing shellgate asks.
      if (c.widen) expect(level(agent, ws, home, 'git push --force origin main', c.env)).toBe('ask');
    });
  }
}

const trust = (entries: Record<string, string>) => JSON.stringify(entries);

describe('Gemini CLI: project settings only in a trusted folder', () => {
  run('gemini-cli', '.gemini', [
    { name: 'no trust file', home: () => ({}), imported: false },
    { name: 'trusted folder', home: (ws) => ({ '.gemini/trustedFolders.json': `// mine\n${trust({ [ws]: 'TRUST_FOLDER' })}` }), imported: true, widen: true },
    {
      name: 'TRUST_PARENT of a folder inside the parent',
      home: (ws) => ({ '.gemini/trustedFolders.json': trust({ [join(dirname(ws), 'sibling')]: 'TRUST_PARENT' }) }),
      // TRUST_PARENT on …/sibling trusts …/ (the folder above), which holds ws.
      imported: true,
    },
    {
      name: 'a longer DO_NOT_TRUST inside a trusted parent',
      home: (ws) => ({ '.gemini/trustedFolders.json': trust({ [dirname(ws)]: 'TRUST_FOLDER', [ws]: 'DO_NOT_TRUST' }) }),
      imported: false,
    },
    {
      name: 'folder trust switched off',
      home: () => ({ '.gemini/settings.json': '{ "security": { "folderTrust": { "enabled": false } } }' }),
      imported: true,
    },
    {
      name: 'GEMINI_CLI_TRUST_WORKSPACE=false over a trusting file',
      home: (ws) => ({ '.gemini/trustedFolders.json': trust({ [ws]: 'TRUST_FOLDER' }) }),
      env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' },
      imported: false,
    },
  ]);
});

describe('Qwen Code: project settings only in a trusted folder', () => {
  const on = '{ "security": { "folderTrust": { "enabled": true } } }';
  run('qwen-code', '.qwen', [
    // Qwen Code's folder trust is off by default: every folder loads its settings.
    { name: 'folder trust off (the default)', home: () => ({}), imported: true, widen: true },
    { name: 'folder trust on, no trust file', home: () => ({ '.qwen/settings.json': on }), imported: false },
    {
      name: 'folder trust on, trusted folder',
      home: (ws) => ({ '.qwen/settings.json': on, '.qwen/trustedFolders.json': trust({ [ws]: 'TRUST_FOLDER' }) }),
      imported: true,
    },
    {
      // Qwen Code: a trusting rule that holds the folder wins over an exact DO_NOT_TRUST.
      name: 'folder trust on, trusted parent and distrusted folder',
      home: (ws) => ({ '.qwen/settings.json': on, '.qwen/trustedFolders.json': trust({ [dirname(ws)]: 'TRUST_FOLDER', [ws]: 'DO_NOT_TRUST' }) }),
      imported: true,
    },
  ]);
});
