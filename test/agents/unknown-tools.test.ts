/**
 * Each agent's tool names belong to that agent (issue 29 item 5): a name another agent uses — or
 * nobody — is a tool this agent's hook does not know, and gets this agent's answer for an unknown
 * tool (its blocking answer, src/agents/registry.ts), never the other agent's entry. Before, Codex's
 * `Task` borrowed Claude Code's no-opinion and Cursor's `TodoWrite` got allow.
 *
 * The whole table runs in-process through the hook's own answer path; one call per agent runs the
 * built CLI as the agent does (a process, the event on stdin).
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENTS } from '../../src/agents/registry.js';
import { AGENT_IDS, type AgentId } from '../../src/agents/types.js';
import { answerHook } from '../../src/hook/answer.js';
import { createHookRuntime } from '../../src/hook/runtime.js';
import { eventFor, outcomeOf, type Outcome } from './agent-events.js';
import { sandbox } from './hook-process.js';

const ROOT = realpathSync(mkdtempSync(join(tmpdir(), 'sg-unknown-tools-')));
const box = sandbox('sg-unknown-tools-cli-');
afterAll(() => {
  rmSync(ROOT, { recursive: true, force: true });
  rmSync(box.base, { recursive: true, force: true });
});

const PATCH = '*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** End Patch\n';

/** Each name with arguments its owner's table reads. */
const CALLS: Record<string, Record<string, unknown>> = {
  Task: { description: 'look around', prompt: 'list files', subagent_type: 'Explore' },
  TodoWrite: { todos: [{ content: 'x', status: 'pending' }] },
  run_shell_command: { command: 'ls' },
  Bash: { command: 'ls' },
  apply_patch: { command: PATCH, input: PATCH },
  edit_file: { target_file: 'notes.txt', code_edit: 'hello' },
  mcp__x__y: { q: 1 },
};
const NAMES = Object.keys(CALLS);

/**
 * What each agent gets, in the order of NAMES. Its own tools: their answer (`ls` is allowed or left
 * to the agent, a patch asks — Codex says ask as a deny —, an MCP tool asks, a sub-agent or todo
 * list gets no opinion, Cursor's no-opinion is an allow); everything else: `unknown`.
 */
const EXPECTED: Record<AgentId, Outcome[]> = {
  //              Task          TodoWrite     run_shell_command Bash          apply_patch  edit_file  mcp__x__y
  'claude-code': ['no-opinion', 'no-opinion', 'unknown', 'allow', 'unknown', 'unknown', 'ask'],
  codex: ['unknown', 'unknown', 'unknown', 'no-opinion', 'deny', 'unknown', 'deny'],
  'gemini-cli': ['unknown', 'unknown', 'allow', 'unknown', 'unknown', 'unknown', 'ask'],
  'qwen-code': ['unknown', 'unknown', 'allow', 'unknown', 'unknown', 'unknown', 'ask'],
  cursor: ['allow', 'unknown', 'unknown', 'unknown', 'unknown', 'unknown', 'unknown'],
  'copilot-cli': ['no-opinion', 'no-opinion', 'unknown', 'allow', 'ask', 'unknown', 'ask'],
};

describe("an unknown tool gets its own agent's answer, every agent × names from other agents", () => {
  it('covers every agent', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...AGENT_IDS].sort());
  });

  for (const id of AGENT_IDS) {
    it(id, async () => {
      const agent = AGENTS[id]!;
      const rt = createHookRuntime(agent, { version: 'test', agentSettings: false, home: join(ROOT, 'home') });
      const got: Outcome[] = [];
      for (const name of NAMES) {
        const { answer } = await answerHook(agent, JSON.stringify(eventFor(id, name, CALLS[name], ROOT)), rt);
        const read = outcomeOf(id, name, { code: answer.exitCode, stdout: answer.stdout, stderr: answer.stderr });
        // An unknown tool is answered exactly as the agent's protocol blocks (never a non-blocking error).
        if (read.outcome === 'unknown') expect(answer.exitCode, `${id} ${name}`).toBe(agent.hook.block('x').exitCode);
        got.push(read.outcome);
      }
      expect(Object.fromEntries(NAMES.map((n, i) => [n, got[i]]))).toEqual(Object.fromEntries(NAMES.map((n, i) => [n, EXPECTED[id][i]])));
    });
  }
});

/** One process per agent, each with a name it used to borrow from another agent's table. */
const BORROWED: [AgentId, string][] = [
  ['claude-code', 'run_shell_command'], // was Gemini's shell: `ls` allowed
  ['codex', 'Task'], // was Claude Code's sub-agent: no opinion
  ['gemini-cli', 'TodoWrite'], // was Claude Code's meta tool: no opinion
  ['qwen-code', 'Task'], // was Claude Code's sub-agent: no opinion
  ['cursor', 'TodoWrite'], // was Claude Code's meta tool: allow
  ['copilot-cli', 'run_shell_command'], // was Gemini's shell: `ls` allowed
];

describe('the built hook, one call per agent', () => {
  const ws = box.project('ws');
  it.each(BORROWED)('%s: %s is a tool it does not know', (id, name) => {
    const r = box.run(id, eventFor(id, name, CALLS[name], ws));
    expect(outcomeOf(id, name, r).outcome).toBe('unknown');
  });
});
