/**
 * `shellgate hook qwen-code` as Qwen Code runs it: a separate process, a PreToolUse payload on
 * stdin (written from Qwen Code's hooks docs and toolHookTriggers.ts), the answer read the way
 * Qwen Code's hook runner reads it. Build first (dist/).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qwenCode } from '../../src/agents/qwen-code.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const WS = realpathSync(mkdtempSync(join(tmpdir(), 'sg-qwen-')));
const HOME = realpathSync(mkdtempSync(join(tmpdir(), 'sg-qwen-home-')));
mkdirSync(join(WS, 'sub'));
writeFileSync(join(WS, 'sub', '.env'), 'API_KEY=1\n');
writeFileSync(join(WS, '.env'), 'API_KEY=1\n');
writeFileSync(join(WS, 'README.md'), '# demo\n');
mkdirSync(join(HOME, '.qwen'));
writeFileSync(join(HOME, '.qwen', 'settings.json'), JSON.stringify({ permissions: { allow: ['mcp__github'], deny: ['Bash(curl *)'] } }));
mkdirSync(join(WS, '.qwen'));
writeFileSync(
  join(WS, '.qwen', 'settings.json'),
  JSON.stringify({
    permissions: { allow: ['Bash(npm test *)', 'mcp__github'], deny: ['Read(./secrets/**)', 'mcp__github__delete_repo'] },
    tools: { exclude: ['run_shell_command(wget)'] },
  }),
);
const UP = relative(WS, '/') + '/**';

function payload(tool_name: string, tool_input: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: '8d1c6f0e-2b44-4f6f-9c1e-3a7b5e0d9f21',
    transcript_path: join(HOME, '.qwen/projects/-ws/chats/8d1c6f0e-2b44-4f6f-9c1e-3a7b5e0d9f21.jsonl'),
    cwd: WS,
    hook_event_name: 'PreToolUse',
    timestamp: '2026-05-05T10:03:11.482Z',
    permission_mode: 'default',
    tool_name,
    tool_input,
    tool_use_id: 'toolu_1777975391482_k3j9x8a2b',
    ...extra,
  });
}

interface Reading {
  code: number | null;
  stdout: string;
  stderr: string;
  json: Record<string, unknown> | null;
  /** What Qwen Code 0.15.6 decides (hookRunner.ts, PreToolUseHookOutput). */
  reads: string;
}

function decisionOf(o: Record<string, unknown>): string {
  const specific = o.hookSpecificOutput as Record<string, unknown> | undefined;
  const d = specific?.permissionDecision ?? o.decision;
  if (d === 'deny' || d === 'block') return 'deny';
  if (d === 'ask') return 'ask';
  return 'allow';
}

/** Exit 2 reads stderr only (JSON, or text → deny; empty → nothing, the tool runs); else `stdout || stderr`. */
function qwenReads(stdout: string, stderr: string, code: number): string {
  const text = code === 2 ? stderr.trim() : stdout.trim() || stderr.trim();
  if (!text) return 'allow';
  try {
    const o = JSON.parse(text);
    return typeof o === 'object' && o !== null ? decisionOf(o) : 'allow';
  } catch {
    return code === 0 || code === 1 ? 'allow' : 'deny';
  }
}

function hook(input: string, flags: string[] = []): Reading {
  const r = spawnSync(process.execPath, [BIN, 'hook', 'qwen-code', ...flags], { input, encoding: 'utf8', cwd: WS, env: { ...process.env, HOME } });
  let json: Record<string, unknown> | null;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = null;
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json, reads: qwenReads(r.stdout, r.stderr, r.status ?? 0) };
}

function levelOf(r: Reading): unknown {
  return (r.json?.hookSpecificOutput as Record<string, unknown> | undefined)?.permissionDecision;
}

function expectDecision(r: Reading, level: 'allow' | 'ask' | 'deny'): void {
  expect(levelOf(r), r.stdout + r.stderr).toBe(level);
  expect(r.json?.decision).toBe(level);
  expect(typeof (r.json?.hookSpecificOutput as Record<string, unknown>).permissionDecisionReason).toBe('string');
  // A deny is exit 2 with the reason on stderr: the only answer every version reads as a block.
  expect(r.code).toBe(level === 'deny' ? 2 : 0);
  if (level === 'deny') expect(r.stderr.trim()).not.toBe('');
  expect(r.reads).toBe(level);
}

function expectBlocked(r: Reading): void {
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^shellgate: /);
  expect(r.reads).toBe('deny');
  expect(levelOf(r)).toBe('deny');
}

describe('qwen-code hook: decisions', () => {
  it('allows a read-only command, asks for a push, denies a guard rule', () => {
    expectDecision(
      hook(payload('run_shell_command', { command: 'git status && ls', description: 'Check tree', directory: '.', is_background: false })),
      'allow',
    );
    const ask = hook(payload('run_shell_command', { command: 'git push origin main' }));
    expectDecision(ask, 'ask');
    expect(ask.json?.reason).toMatch(/network/);
    const deny = hook(payload('run_shell_command', { command: 'rm -rf ~' }));
    expectDecision(deny, 'deny');
    expect(deny.stderr).toMatch(/destructive-delete/);
  });

  it("reads the shell tool's directory as the cwd, for run_shell_command and monitor", () => {
    for (const tool of ['run_shell_command', 'monitor']) {
      const r = hook(payload(tool, { command: 'cat .env', directory: 'sub' }));
      expect(levelOf(r), tool).not.toBe('allow');
      expect(r.json?.reason).toContain(join(WS, 'sub', '.env'));
      expectDecision(hook(payload(tool, { command: 'ls', directory: '/etc' })), 'ask');
    }
    expectDecision(hook(payload('monitor', { command: 'rm -rf ~', description: 'x' })), 'deny');
  });

  it('reads read_file under each argument name, and never allows it without one', () => {
    expectDecision(hook(payload('read_file', { file_path: join(WS, 'README.md'), offset: 0, limit: 200 })), 'allow');
    expectDecision(hook(payload('read_file', { absolute_path: join(WS, 'README.md') })), 'allow');
    expectDecision(hook(payload('read_file', { file_path: '/etc/passwd' })), 'ask');
    for (const args of [{}, { file_path: 7 }]) {
      const r = hook(payload('read_file', args));
      expectDecision(r, 'ask');
      expect(r.json?.reason).toMatch(/tool-arguments/);
    }
  });

  it('checks read_many_files paths, glob and grep reach, edit under both names', () => {
    expectDecision(hook(payload('read_many_files', { paths: ['.env'] }), ['--preset', 'sensitive']), 'deny');
    expectDecision(hook(payload('glob', { pattern: '**/*.ts', path: WS })), 'allow');
    // A glob of every file on the disk reaches ./secrets/**, which the project's settings deny (issue 29).
    expectDecision(hook(payload('glob', { pattern: UP })), 'deny');
    expectDecision(hook(payload('grep_search', { pattern: 'TODO', glob: UP })), 'deny');
    expectDecision(hook(payload('grep_search', { pattern: 'root', path: '/etc' })), 'ask');
    expectDecision(hook(payload('search_file_content', { pattern: 'TODO', include: UP })), 'deny');
    for (const tool of ['edit', 'replace'])
      expectDecision(
        hook(payload(tool, { file_path: join(WS, '.git', 'hooks', 'pre-commit'), old_string: 'a', new_string: 'b' }), ['--mode', 'auto-edit']),
        'ask',
      );
  });

  it('maps every permission_mode spelling: yolo keeps a guard deny, plan denies a write', () => {
    const edit = { file_path: join(WS, 'README.md'), old_string: '# demo', new_string: '# Demo', replace_all: false };
    expectDecision(hook(payload('run_shell_command', { command: 'rm -rf ~' }, { permission_mode: 'yolo' })), 'deny');
    expectDecision(hook(payload('run_shell_command', { command: 'git push origin main' }, { permission_mode: 'yolo' })), 'allow');
    const plan = hook(payload('write_file', { file_path: join(WS, 'notes.md'), content: 'x' }, { permission_mode: 'plan' }));
    expectDecision(plan, 'deny');
    expect(plan.stderr).toMatch(/plan mode/);
    expectDecision(hook(payload('read_file', { file_path: 'README.md' }, { permission_mode: 'plan' })), 'allow');
    for (const mode of ['auto-edit', 'auto_edit']) expectDecision(hook(payload('edit', edit, { permission_mode: mode })), 'allow');
    // `default`, `auto` (a classifier shellgate does not have) and a name it does not know ask.
    for (const mode of ['default', 'auto', 'turbo']) expectDecision(hook(payload('edit', edit, { permission_mode: mode })), 'ask');
  });

  it("imports permissions and the older tools.exclude from the user and project settings; the project's allow lifts nothing", () => {
    expectDecision(hook(payload('run_shell_command', { command: 'curl -s https://example.com' })), 'deny');
    expectDecision(hook(payload('run_shell_command', { command: 'wget https://example.com' })), 'deny');
    // A repository's file may narrow, never widen: its Bash(npm test *) does not lift the ask.
    expectDecision(hook(payload('run_shell_command', { command: 'npm test -- --watch=false' })), 'ask');
    expectDecision(hook(payload('read_file', { file_path: join(WS, 'secrets', 'token.txt') })), 'deny');
  });

  it("names MCP tools mcp__server__tool, and fetches web_fetch's url", () => {
    expectDecision(hook(payload('mcp__github__create_issue', { title: 'Bug' })), 'allow');
    expectDecision(hook(payload('mcp__github__delete_repo', { repo: 'x' })), 'deny');
    expectDecision(hook(payload('mcp__other__run', {})), 'ask');
    const fetch = hook(payload('web_fetch', { url: 'https://example.com/docs', prompt: 'Summarise', format: 'markdown' }));
    expectDecision(fetch, 'ask');
    expect(fetch.json?.reason).toContain('example.com');
  });

  it("gives no opinion on the agent's own tools", () => {
    const r = hook(payload('todo_write', { todos: [] }));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('');
  });
});

describe('qwen-code hook: every failure blocks', () => {
  const cases: [string, string][] = [
    ['not JSON', '{"tool_name": "run_shell_command", '],
    ['empty stdin', ''],
    ['missing tool_name', JSON.stringify({ hook_event_name: 'PreToolUse', cwd: WS, tool_input: { command: 'ls' } })],
    ['tool_input a string', payload('run_shell_command', 'ls')],
    ['tool_input null', payload('run_shell_command', null)],
    ['permission_mode not a string', payload('read_file', { file_path: 'README.md' }, { permission_mode: 3 })],
    ['an unknown tool', payload('deploy_to_prod', { env: 'prod' })],
  ];
  for (const [what, input] of cases) it(`blocks on ${what}`, () => expectBlocked(hook(input)));

  it('blocks on a bad flag', () => {
    expectBlocked(hook(payload('read_file', { file_path: 'README.md' }), ['--preset', 'nope']));
  });
});

describe('qwen-code profile', () => {
  it('registers a PreToolUse command hook for every tool, timeout in milliseconds', () => {
    const s = qwenCode.init.snippet('shellgate hook qwen-code') as {
      hooks: Record<string, { matcher: string; hooks: { type: string; command: string; timeout: number }[] }[]>;
    };
    expect(Object.keys(s.hooks)).toEqual(['PreToolUse']);
    expect(s.hooks.PreToolUse[0].matcher).toBe('*');
    expect(s.hooks.PreToolUse[0].hooks[0]).toMatchObject({ type: 'command', command: 'shellgate hook qwen-code' });
    expect(s.hooks.PreToolUse[0].hooks[0].timeout).toBeGreaterThanOrEqual(10_000);
  });
});
