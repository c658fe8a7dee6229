/**
 * Cursor (Anysphere). Sources (notes with every fact's source in /work/agent-research/cursor.md):
 * - Hooks, https://cursor.com/docs/agent/hooks — read from a full copy of the page stored in
 *   cdot65/prisma-airs-cursor-hooks (cursor-hooks.md, a 2026 version: it lists preToolUse and
 *   workspaceOpen). Every event's stdin carries `{conversation_id, generation_id, model,
 *   hook_event_name, cursor_version, workspace_roots[], user_email, transcript_path}` and no
 *   permission mode. Cursor has one event per kind of action, each with its own fields and answer
 *   ("Hook events"):
 *   - `beforeShellExecution` `{command, cwd, sandbox}` and `beforeMCPExecution` `{tool_name,
 *     tool_input: "<json params>" (a JSON string), url | command}` answer
 *     `{permission: "allow"|"deny"|"ask", user_message, agent_message}`;
 *   - `beforeReadFile` `{file_path (absolute), content (the whole file), attachments}` answers
 *     `{permission: "allow"|"deny", user_message}`: no ask;
 *   - `preToolUse` `{tool_name: Shell|Read|Write|Grep|Delete|Task|MCP:<tool>, tool_input, tool_use_id,
 *     cwd}` answers `{permission, user_message, agent_message, updated_input}`; "ask is accepted by
 *     the schema but not enforced for preToolUse today". Only Shell's `tool_input` is documented
 *     (`{command, working_directory}`); the file tools' `path` argument is INFERRED from
 *     cursor-agent's stream-json tool calls (`readToolCall.args.path`…), with `file_path` and
 *     `target_file` accepted too;
 *   - `beforeTabFileRead` `{file_path, content}` answers `{permission: "allow"|"deny"}`.
 * - Exit codes ("Command-Based Hooks"): 0 → the JSON is used; 2 → "Block the action (equivalent to
 *   returning permission: deny)"; any other code → "Hook failed, action proceeds (fail-open by
 *   default)". Per-script `failClosed: true` ("Per-Script Configuration Options") makes a crash, a
 *   timeout or invalid JSON block instead. Whether stderr of an exit-2 hook reaches the agent is not
 *   documented, so `block` also prints the deny JSON.
 * - Configuration ("Configuration"): `hooks.json` with `version: 1`, in `<project>/.cursor/`,
 *   `~/.cursor/`, or the enterprise directory (`/etc/cursor/`, `/Library/Application Support/Cursor/`,
 *   `C:\ProgramData\Cursor\`); all sources run; project hooks run from the project root and only in
 *   a trusted workspace; `timeout` is in seconds; `matcher` for preToolUse is the tool type.
 * - Permissions outside hooks: https://cursor.com/docs/reference/permissions (`permissions.json`:
 *   terminal and MCP allowlists) and https://docs.cursor.com/cli/reference/permissions (the CLI's
 *   `Shell(git)`, `Read(glob)` rules in `~/.cursor/cli-config.json`, `.cursor/cli.json`). Their
 *   semantics differ from Claude Code's (`Shell(git)` is every git command), so shellgate does not
 *   import them; Cursor applies them itself.
 */
import type { AgentProfile, HookAnswer, HookDecision, HookRequest, ToolSpec } from './types.js';
import { HookInputError } from './types.js';
import { expectObject, expectString, objectOrJson, optionalString } from './hook-input.js';

/** Events whose answer can ask the user. */
const ASKS = new Set(['beforeShellExecution', 'beforeMCPExecution']);
/** Events whose answer has an `agent_message` (the others tell only the user). */
const TELLS_AGENT = new Set(['beforeShellExecution', 'beforeMCPExecution', 'preToolUse']);
/** Events whose answer has a `user_message`. */
const TELLS_USER = new Set(['beforeShellExecution', 'beforeMCPExecution', 'preToolUse', 'beforeReadFile']);

/** preToolUse file tools: `path` (INFERRED), `file_path` and `target_file` all checked when present. */
const FILE_ARGS = ['path', 'file_path', 'target_file'];

/** Cursor names an MCP tool without its server: shellgate's name for it is `mcp__cursor__<tool>`. */
const MCP_SERVER = 'cursor';

const TOOLS: Record<string, ToolSpec> = {
  // One synthetic tool per event (the event name), so that a rule or the audit log can name it.
  beforeShellExecution: { family: 'shell', command: ['command'], required: [['command']] },
  beforeReadFile: { family: 'read', path: ['file_path'], required: [['file_path']] },
  beforeTabFileRead: { family: 'read', path: ['file_path'], required: [['file_path']] },
  // preToolUse tool types.
  Shell: { family: 'shell', command: ['command'], dir: ['working_directory'], required: [['command']] },
  Read: { family: 'read', path: FILE_ARGS, required: [FILE_ARGS] },
  Write: { family: 'write', path: FILE_ARGS, required: [FILE_ARGS] },
  // A delete reads as a write, which auto-edit mode would approve: `init` registers Delete without that mode.
  Delete: { family: 'write', path: FILE_ARGS, required: [FILE_ARGS], note: 'deletes the file' },
  Grep: { family: 'search', dir: ['path'], filter: ['glob'], required: [['pattern']] },
  Task: { family: 'meta', subject: ['subagent_type'], note: 'a sub-agent; its own tool calls reach the hooks' },
};

function cursorMcpName(tool: string): string | null {
  if (!tool.startsWith('MCP:')) return null;
  const name = tool.slice(4);
  return name.startsWith('mcp__') ? name : `mcp__${MCP_SERVER}__${name}`;
}

function workspaceRootsOf(o: Record<string, unknown>): string[] | undefined {
  const v = o.workspace_roots;
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new HookInputError('"workspace_roots" must be a list of strings');
  const roots = (v as string[]).filter((r) => r !== '');
  return roots.length > 0 ? roots : undefined;
}

function decode(input: unknown): HookRequest {
  const o = expectObject(input, 'the hook input');
  const event = expectString(o, 'hook_event_name');
  const workspaceRoots = workspaceRootsOf(o);
  // Cursor has been seen sending `cwd: ""`; an event without a cwd runs in the (first) workspace root.
  const cwd = optionalString(o, 'cwd') || workspaceRoots?.[0];
  const base = { event, ...(cwd !== undefined ? { cwd } : {}), ...(workspaceRoots ? { workspaceRoots } : {}), session: optionalString(o, 'conversation_id') };
  switch (event) {
    case 'beforeShellExecution':
      // The whole command line, never split.
      return { ...base, tool: event, args: { command: expectString(o, 'command') } };
    case 'beforeReadFile':
    case 'beforeTabFileRead':
      // `content` (the whole file) and the prompt's `attachments` are not the read being decided:
      // they are left out of the call (and so out of the audit log).
      return { ...base, tool: event, args: { file_path: expectString(o, 'file_path') } };
    case 'beforeMCPExecution': {
      const name = expectString(o, 'tool_name');
      // Documented as a JSON string; an object is accepted too (a third-party reference showed one).
      const args = objectOrJson(o.tool_input, '"tool_input"');
      return { ...base, tool: name.startsWith('MCP:') ? name : `MCP:${name}`, args };
    }
    case 'preToolUse':
      return { ...base, tool: expectString(o, 'tool_name'), args: objectOrJson(o.tool_input, '"tool_input"') };
    default:
      throw new HookInputError(
        `"${event}" is not an event shellgate answers (beforeShellExecution, beforeMCPExecution, beforeReadFile, beforeTabFileRead, preToolUse)`,
      );
  }
}

/** Cursor's answer object for one event, with only the fields that event documents. */
function answer(event: string | undefined, permission: 'allow' | 'deny' | 'ask', userMessage: string, agentMessage: string): Record<string, string> {
  const out: Record<string, string> = { permission };
  if (permission === 'allow') return out;
  if (event === undefined || TELLS_USER.has(event)) out.user_message = userMessage;
  if (event === undefined || TELLS_AGENT.has(event)) out.agent_message = agentMessage;
  return out;
}

function json(o: unknown): string {
  return JSON.stringify(o) + '\n';
}

function encode(d: HookDecision, request: HookRequest): HookAnswer {
  const event = request.event;
  // Cursor has no "no opinion" answer: allow is the hook not objecting (see limits).
  if (d.level === 'allow' || d.level === 'defer') return { stdout: json(answer(event, 'allow', '', '')), stderr: '', exitCode: 0 };
  if (d.level === 'ask' && event !== undefined && !ASKS.has(event)) {
    // No ask on this event, and no confirmation of Cursor's own that a hook can call up: deny, saying why.
    const text = `${d.reason} — Cursor's ${event} hook cannot ask, so shellgate denies it until a person approves it`;
    return { stdout: json(answer(event, 'deny', text, `${text}. Ask the user; do not retry the same call.`)), stderr: '', exitCode: 0 };
  }
  return { stdout: json(answer(event, d.level, d.reason, d.reason)), stderr: '', exitCode: 0 };
}

export const cursor: AgentProfile = {
  id: 'cursor',
  name: 'Cursor',
  docs: ['https://cursor.com/docs/agent/hooks', 'https://cursor.com/docs/reference/permissions', 'https://docs.cursor.com/cli/reference/permissions'],
  tools: TOOLS,
  mcpName: cursorMcpName,
  // The events carry no permission mode: `shellgate hook cursor --mode …` sets one.
  modes: {},
  // Listed for the project marker (`.cursor/`) and the docs; not imported (see the header).
  settings: [
    { source: 'user', path: '~/.cursor/cli-config.json', format: 'none' },
    { source: 'user', path: '~/.cursor/permissions.json', format: 'none' },
    { source: 'project', path: './.cursor/cli.json', format: 'none' },
    { source: 'project', path: './.cursor/permissions.json', format: 'none' },
  ],
  // hooks.json in the project, the home and the enterprise directory ("Configuration").
  hookFiles: ['./.cursor/hooks.json', '~/.cursor/hooks.json', '/etc/cursor/hooks.json', '/Library/Application Support/Cursor/hooks.json'],
  hook: {
    decode,
    encode,
    block(reason: string): HookAnswer {
      // Exit 2 is Cursor's deny whatever the output says; the JSON deny carries the reason where it is read.
      const text = `shellgate: ${reason}`;
      return { stdout: json({ permission: 'deny', user_message: text, agent_message: text }), stderr: `${text}\n`, exitCode: 2 };
    },
    limits: [
      'preToolUse cannot ask (Cursor accepts `ask` but does not enforce it): an ask becomes a deny that says approval is needed. `shellgate init cursor` gates Write in auto-edit mode (workspace writes allowed) and Delete in the default mode (denied, so the agent asks the user or runs `rm`, which asks).',
      'beforeReadFile cannot ask: a read shellgate would ask about (a sensitive file, a file outside the workspace) is denied, saying approval is needed.',
      "No event names a permission mode: Cursor's run modes (Auto-review, Allowlist, Run Everything) are invisible; pass `--mode` to set shellgate's.",
      'There is no "no opinion" answer: a call shellgate leaves to the agent (Task) is answered allow. Whether allow also skips Cursor\'s own allowlist prompt is not documented.',
      "beforeMCPExecution names the tool but not its server: rules name Cursor's MCP tools `mcp__cursor__<tool>`.",
      'Without `failClosed: true` a crash, a timeout or invalid output lets the call run (fail-open); any exit code other than 0 and 2 always does.',
      'Project hooks run only in a trusted workspace; cloud agents run no user hooks and no beforeMCPExecution.',
      "A preToolUse tool type shellgate does not know (another agent's `TodoWrite`, a bare `mcp__…` name, a future type) is denied.",
      "Only Shell's preToolUse arguments are documented; the file tools' `path` is inferred, and a call without a path argument shellgate knows is denied.",
      "Cursor's own permissions (permissions.json, cli-config.json) are not imported: Cursor applies them itself.",
    ],
  },
  init: {
    file: './.cursor/hooks.json',
    syntax: 'json',
    snippet: (command) => {
      const entry = (cmd: string, matcher?: string) => ({ command: cmd, ...(matcher ? { matcher } : {}), timeout: 30, failClosed: true });
      return {
        version: 1,
        hooks: {
          beforeShellExecution: [entry(command)],
          beforeMCPExecution: [entry(command)],
          beforeReadFile: [entry(command)],
          // preToolUse cannot ask: writes are judged in auto-edit mode (inside the workspace: allowed;
          // elsewhere, or git hooks and other exec-config files: denied), deletes in the default mode.
          preToolUse: [entry(`${command} --mode auto-edit`, 'Write'), entry(command, 'Delete')],
        },
      };
    },
  },
};
