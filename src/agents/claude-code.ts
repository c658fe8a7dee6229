/**
 * Claude Code (Anthropic).
 * - Hooks: https://code.claude.com/docs/en/hooks — `PreToolUse` receives on stdin
 *   `{session_id, transcript_path, cwd, permission_mode, hook_event_name, tool_name, tool_input,
 *   tool_use_id}`; it answers with exit 0 and
 *   `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision":
 *   "allow"|"ask"|"deny", "permissionDecisionReason": "…"}}` (the reason goes to the user for
 *   allow and ask, to Claude for deny). Exit 2 blocks the call and feeds stderr to Claude; any
 *   other non-zero exit is a *non-blocking* error (the tool runs), so every failure here exits 2.
 *   Exit 0 with no output leaves the decision to Claude Code's own permission flow (`defer`).
 * - Settings and permission rules: https://code.claude.com/docs/en/settings and /iam —
 *   managed > command line > local > project > user; `Bash(…)`, `Read(…)`, `Edit(…)`,
 *   `WebFetch(domain:…)`, `mcp__server__tool`, `Agent(name)`, `Skill(name)`.
 * - Modes: default, acceptEdits, plan, bypassPermissions, dontAsk (denies whatever is not
 *   pre-approved: nobody is asked).
 * - HTTP hooks (`"type": "http"`): the same JSON is POSTed and the response body is read as the
 *   command hook's stdout; `shellgate serve` answers them.
 */
import type { AgentProfile, HookAnswer, HookDecision, HookRequest } from './types.js';
import { expectObject, expectString, optionalString } from './hook-input.js';

const PATHS = ['file_path'];

function encode(d: HookDecision): HookAnswer {
  if (d.level === 'defer') return { stdout: '', stderr: '', exitCode: 0 };
  const out = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: d.level, permissionDecisionReason: d.reason } };
  return { stdout: JSON.stringify(out) + '\n', stderr: '', exitCode: 0 };
}

export const claudeCode: AgentProfile = {
  id: 'claude-code',
  name: 'Claude Code',
  docs: ['https://code.claude.com/docs/en/hooks', 'https://code.claude.com/docs/en/settings', 'https://code.claude.com/docs/en/iam'],
  tools: {
    Bash: { family: 'shell', command: ['command'], required: [['command']] },
    Read: { family: 'read', path: PATHS, required: [PATHS] },
    NotebookRead: { family: 'read', path: ['notebook_path'], required: [['notebook_path']] },
    LS: { family: 'read', path: ['path'], required: [['path']] },
    Glob: { family: 'search', glob: ['pattern'], dir: ['path'], required: [['pattern']] },
    Grep: { family: 'search', dir: ['path'], filter: ['glob'], required: [['pattern']] },
    Write: { family: 'write', path: PATHS, required: [PATHS] },
    Edit: { family: 'edit', path: PATHS, required: [PATHS] },
    MultiEdit: { family: 'edit', path: PATHS, required: [PATHS] },
    NotebookEdit: { family: 'edit', path: ['notebook_path'], required: [['notebook_path']] },
    WebFetch: { family: 'web', url: ['url'], required: [['url']] },
    WebSearch: { family: 'web-search', subject: ['query'], required: [['query']] },
    Task: { family: 'meta', subject: ['subagent_type'], note: 'a sub-agent; its own tool calls reach the hook' },
    Agent: { family: 'meta', subject: ['subagent_type'], note: 'a sub-agent; its own tool calls reach the hook' },
    TodoWrite: { family: 'meta' },
    ExitPlanMode: { family: 'meta', note: 'the plan approval is Claude Code\'s own prompt' },
    EnterPlanMode: { family: 'meta' },
    AskUserQuestion: { family: 'meta' },
    BashOutput: { family: 'meta', note: 'reads the output of a shell the agent started' },
    KillShell: { family: 'meta', note: 'stops a shell the agent started' },
    KillBash: { family: 'meta' },
    Skill: { family: 'meta', subject: ['skill', 'command'], note: 'loads a skill; what it runs reaches the hook' },
    SlashCommand: { family: 'meta', subject: ['command'] },
    ListMcpResourcesTool: { family: 'mcp', subject: ['server'] },
    ReadMcpResourceTool: { family: 'mcp', subject: ['server', 'uri'] },
  },
  modes: {
    default: { mode: 'default' },
    acceptEdits: { mode: 'auto-edit' },
    plan: { mode: 'plan' },
    bypassPermissions: { mode: 'yolo' },
    dontAsk: { mode: 'default', nonInteractive: true },
  },
  settings: [
    { source: 'user', path: '~/.claude/settings.json', format: 'claude' },
    { source: 'project', path: './.claude/settings.json', format: 'claude' },
    { source: 'local', path: './.claude/settings.local.json', format: 'claude' },
    { source: 'managed', path: '/etc/claude-code/managed-settings.json', format: 'claude' },
  ],
  hook: {
    decode(input: unknown): HookRequest {
      const o = expectObject(input, 'the hook input');
      const event = optionalString(o, 'hook_event_name');
      const tool = expectString(o, 'tool_name');
      const args = expectObject(o.tool_input, '"tool_input"');
      return { tool, args, event, cwd: optionalString(o, 'cwd'), session: optionalString(o, 'session_id'), mode: optionalString(o, 'permission_mode') };
    },
    encode,
    block(reason: string): HookAnswer {
      // Exit 2 is the only blocking failure; stderr reaches Claude.
      return { stdout: '', stderr: `shellgate: ${reason}\n`, exitCode: 2 };
    },
    limits: [
      'An `allow` answer skips Claude Code\'s own prompt, but its deny rules still apply after the hook.',
      'In bypassPermissions mode Claude Code does not show an `ask` from a hook as a prompt in every version; shellgate keeps explicit ask rules at ask and they are shown where the agent supports it.',
    ],
  },
  init: {
    file: './.claude/settings.json',
    syntax: 'json',
    snippet: (command) => ({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 30 }] }] } }),
  },
  mcpName: (tool) => (tool.startsWith('mcp__') ? tool : null),
};
