/**
 * One pre-tool event per agent, in the agent's own wire format (the fields each agent's profile in
 * src/agents/ documents), and an answer read back the way that agent reads it. Shared by the tests
 * that drive every agent with the same calls.
 */
import type { AgentId } from '../../src/agents/types.js';
import { claudeEvent } from './hook-process.js';

/** What the agent does with an answer. `unknown`: the hook blocked it as a tool it does not know. */
export type Outcome = 'no-opinion' | 'allow' | 'ask' | 'deny' | 'blocked' | 'unknown';

/** The agent's pre-tool event for a call of `tool` with `input`, run in `cwd`. */
export function eventFor(agent: AgentId, tool: string, input: unknown, cwd: string): Record<string, unknown> {
  switch (agent) {
    case 'claude-code':
      return claudeEvent({ cwd, home: cwd }, tool, input);
    case 'qwen-code':
      // Qwen Code's PreToolUse is Claude Code's with a timestamp.
      return claudeEvent({ cwd, home: cwd }, tool, input, { timestamp: '2026-12-08T00:00:00.000Z' });
    case 'codex':
      return {
        session_id: '019c2d1e-7a40-7b52-9f3e-0c1f5a2b9d11',
        turn_id: '3',
        transcript_path: null,
        cwd,
        hook_event_name: 'PreToolUse',
        model: 'gpt-5.3-codex',
        permission_mode: 'default',
        tool_name: tool,
        tool_input: input,
        tool_use_id: 'call_8Qm2x',
      };
    case 'gemini-cli':
      return {
        session_id: 's-1',
        transcript_path: `${cwd}/.transcript.json`,
        cwd,
        hook_event_name: 'BeforeTool',
        timestamp: '2026-12-08T00:00:00.000Z',
        tool_name: tool,
        tool_input: input,
      };
    case 'cursor':
      return {
        conversation_id: '668320d2-2fd8-4888-b33c-2a466fec86e7',
        generation_id: '490b90b7-a2ce-4c2c-bb76-cb77b125df2f',
        model: 'claude-opus-4-7',
        hook_event_name: 'preToolUse',
        cursor_version: '2.1.0',
        workspace_roots: [cwd],
        user_email: 'dev@example.com',
        transcript_path: null,
        tool_name: tool,
        tool_input: input,
        tool_use_id: 'abc123',
        cwd,
      };
    case 'copilot-cli':
      return { sessionId: '85a696df-3c1e-4b9a-9a5e-2f0d6c7b1e20', timestamp: 1765152000000, cwd, toolName: tool, toolArgs: input };
  }
}

/** The hook's answer as the agent reads it (exit code, stdout, stderr), for a call of `tool`. */
export function outcomeOf(agent: AgentId, tool: string, a: { code: number | null; stdout: string; stderr: string }): { outcome: Outcome; text: string } {
  const out = a.stdout.trim() === '' ? null : (JSON.parse(a.stdout) as Record<string, unknown>);
  const hso = out?.hookSpecificOutput as Record<string, unknown> | undefined;
  // Every reason field the agents read, decoded, and stderr.
  const reasons = [hso?.permissionDecisionReason, out?.permissionDecisionReason, out?.reason, out?.agent_message, out?.user_message];
  const text = [...reasons.filter((r): r is string => typeof r === 'string'), a.stderr].join('\n');
  const said = (hso?.permissionDecision ?? out?.permissionDecision ?? out?.permission ?? out?.decision) as string | undefined;
  const blocks = a.code === 2 || said === 'deny';
  if (blocks && text.includes(`unknown tool "${tool}"`)) return { outcome: 'unknown', text };
  if (a.code === 2) return { outcome: 'blocked', text };
  if (a.code !== 0) throw new Error(`${agent} reads exit ${a.code} as a non-blocking error: ${text}`);
  if (out === null) return { outcome: 'no-opinion', text };
  if (said === 'allow' || said === 'ask' || said === 'deny') return { outcome: said, text };
  throw new Error(`${agent}: an answer it cannot read: ${text}`);
}
