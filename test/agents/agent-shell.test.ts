/**
 * Issue 28: each agent's hook reads commands in the shell that agent runs them in — Claude Code the
 * user's shell (`CLAUDE_CODE_SHELL` first), Codex zsh on macOS, Gemini CLI and Qwen Code bash — and
 * the user's settings `shell` wins over that guess.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeCode } from '../../src/agents/claude-code.js';
import { codex } from '../../src/agents/codex.js';
import { geminiCli } from '../../src/agents/gemini-cli.js';
import { dialectOfShell } from '../../src/agents/types.js';
import { answerHook } from '../../src/hook/answer.js';
import { createHookRuntime } from '../../src/hook/runtime.js';

const WS = mkdtempSync(join(tmpdir(), 'sg-agent-shell-'));
const HOME = mkdtempSync(join(tmpdir(), 'sg-agent-shell-home-'));
afterAll(() => {
  rmSync(WS, { recursive: true, force: true });
  rmSync(HOME, { recursive: true, force: true });
});

/** Claude Code's answer for a Bash call, with the hook's environment `env` and optional --config. */
async function claude(command: string, env: Record<string, string>, config: string | null = null, shell?: 'bash' | 'zsh'): Promise<string> {
  const rt = createHookRuntime(claudeCode, { version: 'test', agentSettings: false, home: HOME, env, config, ...(shell ? { shell } : {}) });
  const event = JSON.stringify({ session_id: 's', cwd: WS, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
  const { answer } = await answerHook(claudeCode, event, rt);
  return (JSON.parse(answer.stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision;
}

describe("the agent's shell", () => {
  it('maps a shell path to its reading, anything unknown to auto', () => {
    expect(['/bin/bash', '/usr/local/bin/zsh', '/bin/sh', '/usr/bin/dash', '/usr/bin/fish', undefined].map(dialectOfShell)).toEqual([
      'bash',
      'zsh',
      'sh',
      'sh',
      'auto',
      'auto',
    ]);
  });

  it("reads Claude Code's commands in the user's shell, CLAUDE_CODE_SHELL first", async () => {
    expect(await claude('echo ${(e)x}', { SHELL: '/bin/zsh' })).toBe('ask');
    expect(await claude('echo ${(e)x}', { SHELL: '/bin/bash' })).toBe('allow');
    expect(await claude('echo ${(e)x}', { SHELL: '/bin/zsh', CLAUDE_CODE_SHELL: '/bin/bash' })).toBe('allow');
    expect(await claude('echo ${(e)x}', {})).toBe('ask'); // no shell known: every reading
    expect(await claude('ls -la', {})).toBe('allow');
  });

  it('lets the user settings name the shell over the guess', async () => {
    const config = join(HOME, 'shellgate.json');
    writeFileSync(config, JSON.stringify({ shell: 'bash' }));
    expect(await claude('echo ${(e)x}', { SHELL: '/bin/zsh' }, config)).toBe('allow');
    // and `--shell` wins over both
    expect(await claude('echo ${(e)x}', { SHELL: '/bin/bash' }, config, 'zsh')).toBe('ask');
  });

  it('knows what the other agents run', () => {
    expect(codex.shell?.({ SHELL: '/bin/bash' }, 'darwin')).toBe('auto');
    expect(codex.shell?.({ SHELL: '/bin/zsh' }, 'darwin')).toBe('zsh');
    expect(codex.shell?.({ SHELL: '/bin/bash' }, 'linux')).toBe('bash');
    expect(geminiCli.shell?.({ SHELL: '/bin/zsh' }, 'linux')).toBe('bash');
  });
});
