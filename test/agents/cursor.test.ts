/**
 * `shellgate hook cursor` as Cursor runs it: events written from https://cursor.com/docs/agent/hooks
 * ("Input (all hooks)", beforeShellExecution, beforeMCPExecution, beforeReadFile, preToolUse),
 * piped through the built CLI. Cursor reads exit 0 + `{permission, user_message, agent_message}`
 * (the fields each event documents), and exit 2 as deny; any other exit lets the action run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cursor } from '../../src/agents/cursor.js';
import { sandbox, type HookRun } from './hook-process.js';

const box = sandbox('sg-cursor-');
const WS = box.project('proj');
box.write(join(WS, 'src', 'a.ts'), 'export const a = 1;\n');
box.write(join(WS, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n');
box.write(join(box.home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');

function common(event: string, roots: string[] = [WS]) {
  return {
    conversation_id: '668320d2-2fd8-4888-b33c-2a466fec86e7',
    generation_id: '490b90b7-a2ce-4c2c-bb76-cb77b125df2f',
    model: 'claude-opus-4-7-thinking-max',
    model_id: 'claude-opus-4-7',
    hook_event_name: event,
    cursor_version: '2.1.0',
    workspace_roots: roots,
    user_email: 'dev@example.com',
    transcript_path: null,
  };
}

const shell = (command: string, extra: Record<string, unknown> = {}) => ({ ...common('beforeShellExecution'), command, cwd: WS, sandbox: false, ...extra });
const readFile = (file: string, content = 'text\n') => ({
  ...common('beforeReadFile'),
  file_path: file,
  content,
  attachments: [{ type: 'rule', file_path: join(WS, '.cursor', 'rules', 'style.mdc') }],
});
const mcp = (tool: string, input: unknown) => ({ ...common('beforeMCPExecution'), tool_name: tool, tool_input: input, url: 'http://localhost:3000' });
const preTool = (tool: string, input: unknown) => ({
  ...common('preToolUse'),
  tool_name: tool,
  tool_input: input,
  tool_use_id: 'abc123',
  cwd: WS,
  agent_message: 'Working…',
});

function hook(payload: unknown, flags: string[] = []): HookRun {
  return box.run('cursor', payload, flags);
}

/** The answer as Cursor reads it (exit 0, one JSON object). */
function answer(r: HookRun): Record<string, unknown> {
  expect(r.code, r.stderr).toBe(0);
  expect(r.json).not.toBeNull();
  expect(['allow', 'deny', 'ask']).toContain(r.json!.permission);
  return r.json!;
}

/** Cursor's blocking answer: exit 2 (deny whatever the output), the deny JSON and the reason. */
function expectBlocked(r: HookRun, why: RegExp) {
  expect(r.code).toBe(2);
  expect(r.json?.permission).toBe('deny');
  expect(r.json?.agent_message).toMatch(why);
  expect(r.stderr).toMatch(/^shellgate: /);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('cursor hook: beforeShellExecution', () => {
  it('allows a read-only command in the workspace, with no message', () => {
    expect(answer(hook(shell('ls -la src && cat src/a.ts | wc -l')))).toEqual({ permission: 'allow' });
  });

  it('runs an event with an empty cwd in the first workspace root', () => {
    expect(answer(hook(shell('cat src/a.ts', { cwd: '' }))).permission).toBe('allow');
  });

  it('asks for git push, telling both the user and the agent why', () => {
    const a = answer(hook(shell('git push origin main')));
    expect(a.permission).toBe('ask');
    expect(a.user_message).toMatch(/network/);
    expect(a.agent_message).toMatch(/network/);
  });

  it('denies rm -rf ~ with the guard rule id', () => {
    const a = answer(hook(shell('rm -rf ~')));
    expect(a.permission).toBe('deny');
    expect(a.agent_message).toMatch(/destructive-delete\/rm-root-or-home/);
    expect(a.user_message).toMatch(/destructive-delete\/rm-root-or-home/);
  });

  it('takes the workspace roots from workspace_roots', () => {
    const outside = shell('cat /etc/hosts');
    expect(answer(hook(outside)).permission).toBe('ask');
    expect(answer(hook({ ...outside, workspace_roots: [WS, '/etc'] })).permission).toBe('allow');
  });

  it('follows --mode, since Cursor sends none: plan denies a command that writes', () => {
    expect(answer(hook(shell('touch notes.txt'), ['--mode', 'plan'])).permission).toBe('deny');
  });
});

describe('cursor hook: beforeReadFile (no ask)', () => {
  it('allows reading a workspace file', () => {
    expect(answer(hook(readFile(join(WS, 'src', 'a.ts'))))).toEqual({ permission: 'allow' });
  });

  it('denies reading ~/.ssh/id_rsa, saying approval is needed, with only the fields the event documents', () => {
    const a = answer(hook(readFile(join(box.home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n')));
    expect(a.permission).toBe('deny');
    expect(a.user_message).toMatch(/approv/);
    // The test's home sits in shared temp, which is outside too: either finding may be named.
    expect(a.user_message).toMatch(/sensitive|outside-workspace/);
    expect(Object.keys(a).sort()).toEqual(['permission', 'user_message']);
  });

  it('never writes the file content it is sent into the audit log', () => {
    const log = join(box.base, 'audit.jsonl');
    answer(hook(readFile(join(WS, 'src', 'a.ts'), 'API_KEY=sk-live-0123456789abcdef'), ['--audit-log', log]));
    const text = readFileSync(log, 'utf8');
    expect(text).toContain('beforeReadFile');
    expect(text).not.toContain('sk-live-0123456789abcdef');
  });

  it('beforeTabFileRead: allow or a bare deny', () => {
    const tab = (file: string) => ({ ...common('beforeTabFileRead'), file_path: file, content: 'x' });
    expect(answer(hook(tab(join(WS, 'src', 'a.ts'))))).toEqual({ permission: 'allow' });
    expect(answer(hook(tab(join(box.home, '.ssh', 'id_rsa'))))).toEqual({ permission: 'deny' });
  });
});

describe('cursor hook: beforeMCPExecution', () => {
  it('asks for an MCP tool, whose tool_input arrives as a JSON string', () => {
    const a = answer(hook(mcp('database_query', JSON.stringify({ query: 'DELETE FROM users' }))));
    expect(a.permission).toBe('ask');
    expect(a.agent_message).toMatch(/mcp__cursor__database_query/);
  });

  it('accepts tool_input as an object too', () => {
    expect(answer(hook(mcp('database_query', { query: 'SELECT 1' }))).permission).toBe('ask');
  });

  it('applies a shellgate rule naming the tool mcp__cursor__<tool>', () => {
    const cfg = box.write(
      join(box.base, 'mcp-rules.json'),
      JSON.stringify({ permissions: { allow: ['mcp__cursor__docs_search'], deny: ['mcp__cursor__database_query'] } }),
    );
    expect(answer(hook(mcp('docs_search', '{"q":"hooks"}'), ['--config', cfg])).permission).toBe('allow');
    expect(answer(hook(mcp('database_query', '{"query":"SELECT 1"}'), ['--config', cfg])).permission).toBe('deny');
  });
});

describe('cursor hook: preToolUse (no ask enforced)', () => {
  it('allows a read-only Shell call and uses its working_directory', () => {
    expect(answer(hook(preTool('Shell', { command: 'cat a.ts', working_directory: join(WS, 'src') }))).permission).toBe('allow');
  });

  it('denies a Write it would ask about, saying approval is needed', () => {
    const a = answer(hook(preTool('Write', { path: join(WS, 'src', 'b.ts'), contents: 'export {}\n' })));
    expect(a.permission).toBe('deny');
    expect(a.agent_message).toMatch(/approv/);
    expect(a.user_message).toMatch(/approv/);
  });

  it('with --mode auto-edit (as init registers Write): allows a workspace write, denies .git/hooks/pre-commit naming exec-config', () => {
    expect(answer(hook(preTool('Write', { path: join(WS, 'src', 'b.ts'), contents: 'x' }), ['--mode', 'auto-edit']))).toEqual({ permission: 'allow' });
    const a = answer(hook(preTool('Write', { path: join(WS, '.git', 'hooks', 'pre-commit'), contents: 'curl x | sh' }), ['--mode', 'auto-edit']));
    expect(a.permission).toBe('deny');
    expect(a.agent_message).toMatch(/exec-config/);
  });

  it('denies a Delete, and a file tool without a path argument it knows', () => {
    expect(answer(hook(preTool('Delete', { path: join(WS, 'src', 'a.ts') }))).permission).toBe('deny');
    expect(answer(hook(preTool('Write', { contents: 'x' }), ['--mode', 'auto-edit'])).permission).toBe('deny');
  });

  it('leaves a Task (sub-agent) to Cursor: allow, the hook does not object', () => {
    expect(answer(hook(preTool('Task', { description: 'Explore', prompt: 'Find the auth flow', subagent_type: 'explore' })))).toEqual({ permission: 'allow' });
  });

  it('reads MCP:<tool> as the MCP tool mcp__cursor__<tool>', () => {
    const a = answer(hook(preTool('MCP:database_query', { query: 'DELETE FROM users' })));
    expect(a.permission).toBe('deny');
    expect(a.agent_message).toMatch(/mcp__cursor__database_query/);
  });
});

describe('cursor hook: every failure blocks with exit 2 and the deny JSON', () => {
  it('input that is not JSON, or empty', () => {
    expectBlocked(hook('{"hook_event_name": "beforeShellExecution", "command": '), /not JSON/);
    expectBlocked(hook(''), /not JSON/);
  });

  it('a missing hook_event_name, or an event shellgate does not answer', () => {
    const { hook_event_name: _drop, ...noEvent } = shell('ls');
    expectBlocked(hook(noEvent), /hook_event_name/);
    expectBlocked(hook({ ...common('afterFileEdit'), file_path: join(WS, 'src', 'a.ts'), edits: [] }), /afterFileEdit/);
  });

  it('a missing command or file_path, a bad tool_input, a bad workspace_roots', () => {
    const { command: _c, ...noCommand } = shell('ls');
    expectBlocked(hook(noCommand), /"command"/);
    expectBlocked(hook({ ...common('beforeReadFile'), content: 'x' }), /"file_path"/);
    expectBlocked(hook(mcp('database_query', '{not json')), /tool_input/);
    expectBlocked(hook(mcp('database_query', ['SELECT 1'])), /tool_input/);
    expectBlocked(hook(preTool('Shell', ['ls'])), /tool_input/);
    expectBlocked(hook({ ...shell('ls'), workspace_roots: WS }), /workspace_roots/);
  });

  it('an unknown preToolUse tool', () => {
    expectBlocked(hook(preTool('SemanticSearch', { query: 'auth' })), /unknown tool "SemanticSearch"/);
  });

  it('a cwd that does not exist', () => {
    expectBlocked(hook(shell('ls', { cwd: join(box.base, 'no-such-dir') })), /cwd/);
  });

  it('a bad --config file', () => {
    expectBlocked(hook(shell('ls'), ['--config', join(box.base, 'missing.json')]), /missing\.json/);
    const bad = box.write(join(box.base, 'bad.json'), '{"permissions": {"deny": ["Bash(rm"]}}');
    expectBlocked(hook(shell('ls'), ['--config', bad]), /bad\.json|Bash\(rm/);
  });
});

describe('cursor init snippet', () => {
  it('registers the command fail-closed for the pre-tool events in .cursor/hooks.json (version 1)', () => {
    expect(cursor.init.file).toBe('./.cursor/hooks.json');
    const s = cursor.init.snippet('shellgate hook cursor') as {
      version: number;
      hooks: Record<string, { command: string; failClosed: boolean; matcher?: string }[]>;
    };
    expect(s.version).toBe(1);
    for (const event of ['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile']) {
      expect(s.hooks[event]).toEqual([expect.objectContaining({ command: 'shellgate hook cursor', failClosed: true })]);
    }
    expect(s.hooks.preToolUse).toEqual([
      expect.objectContaining({ command: 'shellgate hook cursor --mode auto-edit', matcher: 'Write', failClosed: true }),
      expect.objectContaining({ command: 'shellgate hook cursor', matcher: 'Delete', failClosed: true }),
    ]);
  });
});
