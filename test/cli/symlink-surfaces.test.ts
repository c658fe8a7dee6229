/**
 * Issue 29, items 1 and 3, driven as the agent drives them: `shellgate hook claude-code` in a
 * process per call, PreToolUse events on stdin, HOME a fake home, a workspace whose links are on
 * disk (test/policy/link-fixture.ts) and whose project settings deny `.env` and allow `./src/**`.
 * Then `bin/shellgate.cjs check` (the launcher) over a batch of commands in one process.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLinkFixture, type LinkFixture } from '../policy/link-fixture.js';

const ROOT = join(import.meta.dirname, '..', '..');
let f: LinkFixture;

beforeAll(() => {
  f = makeLinkFixture();
  mkdirSync(join(f.ws, '.claude'));
  writeFileSync(join(f.ws, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(./.env)'], allow: ['Read(./src/**)', 'Bash(cat *)'] } }));
});
afterAll(() => f.remove());

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, HOME: f.home, USERPROFILE: f.home, NO_COLOR: '1' };
  delete e.CLAUDE_CONFIG_DIR;
  return e;
}

/** What Claude Code reads back from the hook for one tool call. */
function claude(tool: string, input: Record<string, unknown>, mode = 'default'): { level: string; reason: string } {
  const event = {
    session_id: 's',
    transcript_path: join(f.home, 't.jsonl'),
    cwd: f.ws,
    permission_mode: mode,
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: input,
  };
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'shellgate.cjs'), 'hook', 'claude-code'], {
    input: JSON.stringify(event),
    encoding: 'utf8',
    cwd: f.ws,
    env: env(),
  });
  expect(r.status, r.stderr).toBe(0);
  const out = (JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput;
  return { level: out.permissionDecision, reason: out.permissionDecisionReason };
}

describe('the hook judges a path where it lands', () => {
  it('a Grep of a link to home is not allowed', () => {
    const d = claude('Grep', { pattern: 'KEY', path: 'homelink' });
    expect(d.level).toBe('ask');
    expect(d.reason).toContain('outside the workspace');
  });
  it('accept-edits does not approve a write through a link to home or to /', () => {
    expect(claude('Write', { file_path: join(f.ws, 'homelink/.config/systemd/user/x.service'), content: '[Service]' }, 'acceptEdits').level).toBe('ask');
    expect(claude('Write', { file_path: join(f.ws, 'rootlink/etc/cron.d/x'), content: '* * * * * root sh' }, 'acceptEdits').level).toBe('ask');
    expect(claude('Write', { file_path: join(f.ws, 'src/b.ts'), content: 'export {};' }, 'acceptEdits').level).toBe('allow');
  });
  it('Read(./src/**) does not allow a key through src/keys; a .env deny through a link denies', () => {
    expect(claude('Bash', { command: 'cat src/keys/id_rsa' }).level).toBe('ask');
    expect(claude('Read', { file_path: join(f.ws, 'src/envlink') }).level).toBe('deny');
    expect(claude('Read', { file_path: join(f.ws, 'src/a.ts') }).level).toBe('allow');
  });
  it('a deny on .env reaches the Grep tool searching the whole workspace', () => {
    const d = claude('Grep', { pattern: 'SECRET' });
    expect(d.level).toBe('deny');
    expect(d.reason).toContain('Read(./.env)');
  });
});

describe('the launcher over a batch of commands', () => {
  it('denies every walk that reads .env, allows the walks that do not', () => {
    const config = join(f.base, 'sg.json');
    writeFileSync(config, JSON.stringify({ permissions: { deny: ['Read(./.env)'] } }));
    const commands = ['grep -rn SECRET .', 'find . -exec cat {} +', 'tar czf /dev/null .', 'cat src/envlink', 'grep -rn foo src', 'cat src/a.ts'];
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'shellgate.cjs'), 'check', '--json', '--config', config, '--cwd', f.ws], {
      input: commands.join('\n') + '\n',
      encoding: 'utf8',
      cwd: f.ws,
      env: env(),
    });
    const levels = r.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { level: string }).level);
    expect(levels).toEqual(['deny', 'deny', 'deny', 'deny', 'allow', 'allow']);
  });
});
