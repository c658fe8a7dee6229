/**
 * Issue 29, item 2, driven as the agent would: the built launcher (`bin/shellgate.cjs`), one
 * process per hook call, a home and a workspace on disk. In its most permissive mode each agent
 * still cannot rewrite the file where its hook is registered, and `--preset sensitive` holds
 * after a `cd` and against recursive reads of the home.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'shellgate.cjs');
const BASE = mkdtempSync(join(tmpdir(), 'sg-preset-surfaces-'));
const HOME = join(BASE, 'home');
const WS = join(BASE, 'ws');
afterAll(() => rmSync(BASE, { recursive: true, force: true }));
for (const d of [join(HOME, '.claude'), join(HOME, '.gemini'), join(HOME, '.ssh'), join(WS, 'src'), join(WS, '.cursor')]) mkdirSync(d, { recursive: true });
writeFileSync(join(HOME, '.ssh', 'id_rsa'), 'PRIVATE\n');
writeFileSync(join(WS, '.env'), 'TOKEN=x\n');
writeFileSync(join(WS, 'src', 'main.c'), 'int main;\n');

function run(args: string[], input: string, cwd = WS): { code: number | null; stdout: string; stderr: string } {
  const env = { ...process.env, HOME, XDG_CACHE_HOME: join(BASE, 'cache'), NO_COLOR: '1' };
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', cwd, env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every agent's blocking answer: exit 2, or a JSON deny in its own field. */
function denied(r: { code: number | null; stdout: string }): boolean {
  if (r.code === 2) return true;
  const o = JSON.parse(r.stdout) as Record<string, unknown>;
  const inner = (o.hookSpecificOutput ?? {}) as Record<string, unknown>;
  return [o.decision, o.permission, o.permissionDecision, inner.permissionDecision].includes('deny');
}

const claude = (tool_name: string, tool_input: unknown, mode: string) =>
  JSON.stringify({
    session_id: 's',
    transcript_path: '/dev/null',
    cwd: WS,
    permission_mode: mode,
    hook_event_name: 'PreToolUse',
    tool_name,
    tool_input,
    tool_use_id: 't',
  });

describe('the hook configuration is protected in the most permissive mode of each agent', () => {
  const calls: { agent: string; flags: string[]; input: string }[] = [
    // Claude Code, bypassPermissions: the Write tool and the shell on the user's settings file.
    { agent: 'claude-code', flags: [], input: claude('Write', { file_path: join(HOME, '.claude', 'settings.json'), content: '{}' }, 'bypassPermissions') },
    { agent: 'claude-code', flags: [], input: claude('Bash', { command: 'cd src && echo {} > ../.claude/settings.local.json' }, 'bypassPermissions') },
    // Codex with approval_policy never: apply_patch deleting its hooks file.
    {
      agent: 'codex',
      flags: [],
      input: JSON.stringify({
        session_id: 's',
        turn_id: '1',
        transcript_path: null,
        cwd: WS,
        hook_event_name: 'PreToolUse',
        model: 'm',
        permission_mode: 'bypassPermissions',
        tool_name: 'apply_patch',
        tool_input: { command: '*** Begin Patch\n*** Delete File: .codex/hooks.json\n*** End Patch\n' },
        tool_use_id: 't',
      }),
    },
    // Gemini CLI in yolo: write_file of its settings.
    {
      agent: 'gemini-cli',
      flags: ['--mode', 'yolo'],
      input: JSON.stringify({
        session_id: 's',
        transcript_path: '/dev/null',
        cwd: WS,
        hook_event_name: 'BeforeTool',
        timestamp: '2026-12-08T00:00:00.000Z',
        tool_name: 'write_file',
        tool_input: { file_path: join(HOME, '.gemini', 'settings.json'), content: '{}' },
      }),
    },
    // Cursor, whose events carry no mode: yolo given on the command line.
    {
      agent: 'cursor',
      flags: ['--mode', 'yolo'],
      input: JSON.stringify({
        conversation_id: 'c',
        generation_id: 'g',
        hook_event_name: 'beforeShellExecution',
        command: 'echo {} > .cursor/hooks.json',
        cwd: WS,
        workspace_roots: [WS],
      }),
    },
  ];
  for (const c of calls) {
    it(`${c.agent}: ${JSON.parse(c.input).tool_name ?? JSON.parse(c.input).hook_event_name}`, () => {
      const r = run(['hook', c.agent, ...c.flags], c.input);
      expect(denied(r), `${r.code} ${r.stdout} ${r.stderr}`).toBe(true);
    });
  }
});

describe('check --preset sensitive --mode yolo', () => {
  it('denies a .env above the cwd and recursive reads of the home; ordinary reads pass', () => {
    const commands = ['cat ../.env', 'grep -r PRIVATE ~', 'tar czf x.tgz ~', 'cat ~/.ss*/id_rsa', 'cat main.c'];
    const r = run(['check', '--json', '--preset', 'sensitive', '--mode', 'yolo', '--workspace', WS], commands.join('\n') + '\n', join(WS, 'src'));
    const levels = r.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { level: string }).level);
    expect(levels, r.stderr).toEqual(['deny', 'deny', 'deny', 'deny', 'allow']);
  });
});
