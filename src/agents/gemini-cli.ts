/**
 * Google Gemini CLI. Facts read in google-gemini/gemini-cli (release tags v0.15–v0.56 and the
 * published docs https://geminicli.com/docs/hooks/ = docs/hooks/index.md, reference.md); notes
 * with line references in the project's research file on Gemini CLI.
 * - Hooks: the pre-tool event is `BeforeTool` (a `PreToolUse` key is skipped with a warning and
 *   the hook never runs). Wired to tool execution since v0.20; enabled by `tools.enableHooks`
 *   (v0.20–v0.23, default false), by `tools.enableHooks` AND `hooks.enabled` (v0.24–v0.25), by
 *   `hooksConfig.enabled` (v0.26+, default true) — packages/cli/src/config/config.ts at each tag.
 *   Since v0.36 BeforeTool runs before the policy engine and the confirmation dialog
 *   (scheduler/scheduler.ts `_processToolCall`, PR #21146); before, it ran at execution time,
 *   after the user had approved. Project hooks are not loaded in untrusted folders
 *   (hooks/hookRegistry.ts), so `init` registers the hook in the user's settings.
 * - Payload (hooks/hookEventHandler.ts, hooks/types.ts `BeforeToolInput`): `{session_id,
 *   transcript_path, cwd, hook_event_name: "BeforeTool", timestamp, tool_name, tool_input,
 *   mcp_context?}` — `mcp_context {server_name, tool_name, …}` for MCP tools since v0.25
 *   (commit eb3f3cfdb8). No approval mode and no tool-call id are sent.
 * - Answer (hooks/hookRunner.ts, hooks/types.ts, scheduler/hook-utils.ts): stdout JSON
 *   `{"decision": "allow"|"deny"|"block"|"ask", "reason", "systemMessage"}`. deny blocks the
 *   tool and the model reads `Tool execution blocked: <reason>`. allow only means "do not block":
 *   the policy engine and dialog still run. ask (v0.36+, not in the docs) forces Gemini's own
 *   confirmation even in yolo/auto_edit and shows `systemMessage`; before v0.36 `ask` is not a
 *   blocking decision, so the tool runs. Parsing: v0.20–v0.29 read stdout only on exit 0 and,
 *   on another exit code, stderr as plain text (exit 2 → deny with that text); v0.30+ read
 *   `stdout || stderr` whatever the exit code, JSON first. Empty output, a timeout, a crash or
 *   a signal → allow. So the blocking answer is a deny JSON on stdout AND exit 2 with the
 *   reason on stderr: it denies under both parsers.
 * - Tools (tools/definitions/base-declarations.ts, tools/tool-names.ts; argument renames read
 *   in each tool's params at the tags): run_shell_command {command, directory (≤v0.13) →
 *   dir_path}; read_file {absolute_path (≤v0.13) → file_path}; read_many_files {paths (≤v0.13)
 *   → include}; list_directory and glob {path → dir_path}; search_file_content (≤v0.27) →
 *   grep_search {path → dir_path, include → include_pattern (v0.32)}; web_fetch {prompt with the
 *   URLs in its text — tools/web-fetch.ts `parsePrompt` — and `url` with direct web fetch, v0.31+};
 *   save_memory (removed in v0.44). MCP tools: `mcp_<server>_<tool>` since v0.34
 *   (tools/mcp-tool.ts `generateValidName`), the bare server-side name before, `<server>__<tool>`
 *   on a name clash.
 * - Modes (policy/types.ts `ApprovalMode`, cli config): default, auto_edit (CLI and settings;
 *   `autoEdit` in policy TOML), yolo, plan (v0.26+).
 * - Settings (docs/reference/configuration.md): ~/.gemini/settings.json, .gemini/settings.json,
 *   /etc/gemini-cli/settings.json (system, wins), /etc/gemini-cli/system-defaults.json; legacy
 *   lists `tools.allowed`, `tools.exclude` (and the older top-level `excludeTools`) become
 *   policy rules. The policy engine's TOML files (~/.gemini/policies/*.toml,
 *   /etc/gemini-cli/policies/) are Gemini's own and not imported.
 */
import type { AgentProfile, HookAnswer, HookDecision, HookRequest, ToolSpec } from './types.js';
import { expectObject, expectString, optionalString } from './hook-input.js';

/** Every spelling of each argument across versions: the first present one is the one used. */
const FILE = ['file_path', 'absolute_path'];
const DIR = ['dir_path', 'path'];
const GREP: ToolSpec = { family: 'search', dir: DIR, filter: ['include_pattern', 'include'], required: [['pattern']] };

function json(o: Record<string, unknown>): string {
  return JSON.stringify(o) + '\n';
}

function encode(d: HookDecision): HookAnswer {
  // No output leaves the call to Gemini's own policy engine and confirmation.
  if (d.level === 'defer') return { stdout: '', stderr: '', exitCode: 0 };
  // The dialog that `ask` forces shows systemMessage, not reason.
  const extra = d.level === 'ask' ? { systemMessage: d.reason } : {};
  return { stdout: json({ decision: d.level, reason: d.reason, ...extra }), stderr: '', exitCode: 0 };
}

/**
 * An MCP call named by `mcp_context` (v0.25+): the server and tool as configured, exact.
 * A server name holding `__` would let a rule for a shorter server (`mcp__a` for `a__b`) match,
 * so such a name is left unsplit like an ambiguous one.
 */
function mcpFromContext(ctx: unknown): string | null {
  if (typeof ctx !== 'object' || ctx === null || Array.isArray(ctx)) return null;
  const { server_name: server, tool_name: tool } = ctx as Record<string, unknown>;
  if (typeof server !== 'string' || typeof tool !== 'string' || server === '' || tool === '') return null;
  return server.includes('__') ? unsplit(`mcp_${server}_${tool}`) : `mcp__${server}__${tool}`;
}

/**
 * A name whose server cannot be told apart from its tool. `:` cannot appear in a permission
 * rule's tool name, so no rule for any server — allow or deny — matches it: the call gets the
 * default for an MCP tool (ask), never another server's allow.
 */
function unsplit(name: string): string {
  return `mcp__unsplit:${name}`;
}

/**
 * A Gemini MCP tool name without `mcp_context`. `mcp_<server>_<tool>` cannot be split safely:
 * server and tool names both hold `_`, and a server named `mcp_x` is given no second prefix
 * (`mcp_github_search` is server github, or mcp_github, or mcp) — any reading could let an
 * allow rule for one server approve another's tool. So it is never split (see `unsplit`).
 * The pre-v0.34 clash name `<server>__<tool>` splits when it holds exactly one `__`.
 */
function mcpName(tool: string): string | null {
  if (tool.startsWith('mcp__')) return tool;
  if (tool.startsWith('mcp_')) return unsplit(tool);
  const halves = tool.split('__');
  if (halves.length === 2 && halves[0] !== '' && halves[1] !== '') return `mcp__${halves[0]}__${halves[1]}`;
  if (halves.length > 2) return unsplit(tool);
  return null;
}

/** What in a Gemini CLI settings file keeps the hook from running (config.ts and hookRegistry.ts at each tag). */
function geminiHooksOff(o: Record<string, unknown>): string[] {
  const out: string[] = [];
  const hc = o.hooksConfig as Record<string, unknown> | undefined;
  if (hc?.enabled === false) out.push('hooksConfig.enabled is false: Gemini CLI runs no hook (v0.26+)');
  if (Array.isArray(hc?.disabled) && hc.disabled.includes('shellgate')) out.push('hooksConfig.disabled names the shellgate hook');
  if ((o.hooks as Record<string, unknown> | undefined)?.enabled === false) out.push('hooks.enabled is false: Gemini CLI v0.24–v0.25 run no hook');
  return out;
}

export const geminiCli: AgentProfile = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  docs: [
    'https://geminicli.com/docs/hooks/',
    'https://geminicli.com/docs/hooks/reference',
    'https://github.com/google-gemini/gemini-cli/blob/main/docs/reference/configuration.md',
    'https://github.com/google-gemini/gemini-cli/blob/main/docs/reference/policy-engine.md',
    'https://github.com/google-gemini/gemini-cli/pull/21146',
  ],
  tools: {
    // `additional_permissions` (sandbox grants) is not read: the command itself is analysed.
    run_shell_command: { family: 'shell', command: ['command'], dir: ['dir_path', 'directory'], required: [['command']] },
    read_file: { family: 'read', path: FILE, required: [FILE] },
    // Paths and globs relative to the workspace; `exclude` only narrows what is read.
    read_many_files: { family: 'read', pathList: ['include', 'paths'], required: [['include', 'paths']] },
    list_directory: { family: 'read', path: DIR, required: [DIR] },
    glob: { family: 'search', glob: ['pattern'], dir: DIR, required: [['pattern']] },
    grep_search: GREP,
    search_file_content: GREP,
    write_file: { family: 'write', path: ['file_path'], required: [['file_path']] },
    replace: { family: 'edit', path: ['file_path'], required: [['file_path']] },
    web_fetch: { family: 'web', url: ['url'], urlsInText: ['prompt'], required: [['prompt', 'url']] },
    google_web_search: { family: 'web-search', subject: ['query'], required: [['query']] },
    save_memory: { family: 'other', note: 'writes a fact into ~/.gemini/GEMINI.md, which every later session loads: a person decides' },
    write_todos: { family: 'meta' },
    ask_user: { family: 'meta' },
    activate_skill: { family: 'meta', subject: ['name'], note: 'loads a skill; what it runs reaches the hook' },
    enter_plan_mode: { family: 'meta' },
    exit_plan_mode: { family: 'meta', note: "the plan approval is Gemini CLI's own prompt" },
    update_topic: { family: 'meta' },
    complete_task: { family: 'meta' },
    get_internal_docs: { family: 'meta', note: "reads Gemini CLI's own bundled documentation" },
    invoke_agent: { family: 'meta', subject: ['agent_name'], note: 'a sub-agent; its own tool calls reach the hook' },
    codebase_investigator: { family: 'meta', note: 'a built-in sub-agent; its own tool calls reach the hook' },
    cli_help: { family: 'meta', note: 'a built-in sub-agent; its own tool calls reach the hook' },
    generalist: { family: 'meta', note: 'a built-in sub-agent; its own tool calls reach the hook' },
    tracker_create_task: { family: 'meta' },
    tracker_update_task: { family: 'meta' },
    tracker_get_task: { family: 'meta' },
    tracker_list_tasks: { family: 'meta' },
    tracker_add_dependency: { family: 'meta' },
    tracker_visualize: { family: 'meta' },
    read_mcp_resource: { family: 'mcp', subject: ['uri'] },
    list_mcp_resources: { family: 'mcp', subject: ['server_name'] },
  },
  mcpName,
  // The BeforeTool payload carries no mode: these are the names `--approval-mode`, settings and
  // policy TOML use, for `shellgate hook gemini-cli --mode` users and for imported settings.
  modes: {
    default: { mode: 'default' },
    auto_edit: { mode: 'auto-edit' },
    autoEdit: { mode: 'auto-edit' },
    yolo: { mode: 'yolo' },
    plan: { mode: 'plan' },
  },
  settings: [
    { source: 'managed', path: '/etc/gemini-cli/system-defaults.json', format: 'gemini' },
    { source: 'user', path: '~/.gemini/settings.json', format: 'gemini' },
    { source: 'project', path: './.gemini/settings.json', format: 'gemini' },
    { source: 'managed', path: '/etc/gemini-cli/settings.json', format: 'gemini' },
    { source: 'managed', path: '/Library/Application Support/GeminiCli/settings.json', format: 'gemini' },
    { source: 'user', path: '~/.gemini/policies/*.toml', format: 'none' },
    { source: 'managed', path: '/etc/gemini-cli/policies/*.toml', format: 'none' },
  ],
  // A project's .gemini/settings.json is loaded only in a trusted folder (agents/trusted-folders.ts).
  folderTrust: {
    file: '~/.gemini/trustedFolders.json',
    homeEnv: 'GEMINI_CLI_HOME',
    decideEnv: 'GEMINI_CLI_TRUST_WORKSPACE',
    enabledByDefault: true,
    match: 'longest',
  },
  // run_shell_command runs `bash -c` (on Linux and macOS).
  shell: (_env, platform) => (platform === 'win32' ? 'auto' : 'bash'),
  hook: {
    decode(input: unknown): HookRequest {
      const o = expectObject(input, 'the hook input');
      const event = optionalString(o, 'hook_event_name');
      const name = expectString(o, 'tool_name');
      const args = expectObject(o.tool_input, '"tool_input"');
      // The MCP server and tool as configured: exact where the name alone is ambiguous.
      const tool = mcpFromContext(o.mcp_context) ?? name;
      return { tool, args, event, cwd: optionalString(o, 'cwd'), session: optionalString(o, 'session_id') };
    },
    encode,
    block(reason: string): HookAnswer {
      const text = `shellgate: ${reason}`;
      return { stdout: json({ decision: 'deny', reason: text }), stderr: text + '\n', exitCode: 2 };
    },
    limits: [
      '`allow` cannot skip Gemini CLI\'s own policy engine or confirmation dialog: it only means "do not block".',
      "`ask` forces Gemini CLI's confirmation (even in yolo and auto_edit) from v0.36; before v0.36 the hook runs after the user already approved and an `ask` lets the call run, so on those versions shellgate's ask is no prompt at all: add `--ask-as-deny` to the hook command there.",
      "What an `ask` does in headless `gemini -p` runs is not documented; Gemini's own policy engine denies its ask_user there.",
      'The payload carries no approval mode: pass `--mode` to `shellgate hook gemini-cli` to apply one.',
      'Gemini CLI lets a call run when the hook times out, crashes, is killed or prints nothing; hooks can be switched off with hooksConfig.enabled:false or /hooks disable, and project hooks are skipped in untrusted folders.',
      'Without mcp_context (before v0.25, or a server Gemini cannot look up) an MCP tool name is not split into server and tool: no rule for a server matches it and it is asked. Bare MCP names (before v0.34) and discovered tools (discovered_tool_*) are blocked as unknown tools.',
    ],
  },
  init: {
    file: '~/.gemini/settings.json',
    // settings.json is read with its comments stripped (strip-json-comments).
    syntax: 'jsonc',
    // The system file overrides the user's; a trusted project's overrides it too.
    hooksOff: {
      files: ['~/.gemini/settings.json', '/etc/gemini-cli/settings.json', './.gemini/settings.json'],
      check: geminiHooksOff,
    },
    // Timeout in milliseconds: a hook that times out lets the call run.
    snippet: (command) => ({
      hooksConfig: { enabled: true },
      hooks: { BeforeTool: [{ matcher: '*', hooks: [{ name: 'shellgate', type: 'command', command, timeout: 30000 }] }] },
    }),
  },
};
