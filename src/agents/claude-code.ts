/**
 * Claude Code (Anthropic). Sources, read from the docs mirror thevibeworks/claude-code-docs
 * (pages dated 2026-08-22; notes with every fact's source in /work/agent-research/claude-code.md):
 * - Hooks, https://code.claude.com/docs/en/hooks — "Common input fields": a `PreToolUse` event
 *   arrives on stdin as `{session_id, prompt_id?, transcript_path, cwd, permission_mode,
 *   hook_event_name, tool_name, tool_input, tool_use_id}` (plus `agent_id`/`agent_type` inside a
 *   subagent); `permission_mode` is `default|plan|acceptEdits|auto|dontAsk|bypassPermissions`
 *   ("Manual" arrives as `default`). "PreToolUse input": per-tool `tool_input` fields; the
 *   `file_path` of Read/Write/Edit is always absolute.
 * - The answer ("PreToolUse decision control", "Exit code output"): exit 0 with
 *   `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision":
 *   "allow"|"ask"|"deny", "permissionDecisionReason": "…"}}`; the reason goes to the user for
 *   allow and ask, to Claude for deny. Deny and ask *rules* still apply after a hook's allow.
 * - Blocking: exit 2 blocks the call and Claude reads stderr as the reason; every other non-zero
 *   exit without a valid JSON object is a *non-blocking* error and the tool runs ("Other exit
 *   codes"), so every failure here exits 2, with stdout empty (exit 2 with JSON did not block
 *   before 2.1.90, per the CHANGELOG).
 * - No opinion (shellgate's `defer`): exit 0 with no output, and "the normal permission flow
 *   applies" (the hooks page's exit-2 example). This is NOT Claude Code's own
 *   `permissionDecision: "defer"`, which pauses a `claude -p` session for the calling process
 *   ("Defer a tool call for later") and is ignored in interactive sessions.
 * - Timeouts ("Timeouts"): a timed-out command hook renders no decision and the call continues
 *   through the normal permission flow.
 * - Tools and their arguments: https://code.claude.com/docs/en/tools-reference (the canonical
 *   names, "Permission required", which rule formats apply: `Read(…)` covers Read, Grep, Glob, LSP;
 *   `Edit(…)` covers Edit, Write, NotebookEdit; Monitor follows Bash rules) and
 *   https://code.claude.com/docs/en/agent-sdk/typescript (`ToolInputSchemas`). MultiEdit, LS,
 *   NotebookRead, BashOutput, KillShell, SlashCommand are legacy names (older versions).
 * - Modes: https://code.claude.com/docs/en/permission-modes — default, acceptEdits, plan, auto
 *   (a classifier; a hook's ask still forces a prompt), dontAsk (whatever would prompt is denied:
 *   nobody is asked), bypassPermissions.
 * - Settings: https://code.claude.com/docs/en/settings ("Settings precedence": managed > command
 *   line > local > project > user; a deny at any level wins) and
 *   https://code.claude.com/docs/en/managed-settings (the system directory per OS:
 *   `/Library/Application Support/ClaudeCode/` on macOS, `/etc/claude-code/` on Linux and WSL,
 *   `C:\Program Files\ClaudeCode\` on Windows; drop-ins in `managed-settings.d/`).
 *   Permission rules: https://code.claude.com/docs/en/permissions.
 * - HTTP hooks (`"type": "http"`, "HTTP response handling"): the same JSON is POSTed and a 2xx
 *   JSON body is read as the command hook's stdout; `shellgate serve` answers them. A non-2xx
 *   status or a connection failure lets the call run.
 */
import { dialectOfShell, type AgentProfile, type HookAnswer, type HookDecision, type HookRequest, type SettingsFile, type ToolSpec } from './types.js';
import { decodePreToolUse, exitTwo } from './hook-input.js';

const PATHS = ['file_path'];

/** A tool that acts on Claude Code itself, or whose arguments shellgate cannot read: its own permission flow decides. */
const META: ToolSpec = { family: 'meta' };
/**
 * A tool whose effect leaves what shellgate can check (it publishes, uploads or runs code
 * shellgate does not parse): a person decides (`unknown-tool`, ask).
 */
const OPAQUE: ToolSpec = { family: 'other' };

function encode(d: HookDecision): HookAnswer {
  if (d.level === 'defer') return { stdout: '', stderr: '', exitCode: 0 };
  const out = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: d.level, permissionDecisionReason: d.reason } };
  return { stdout: JSON.stringify(out) + '\n', stderr: '', exitCode: 0 };
}

/** The managed settings file where this machine's Claude Code reads it ("managed-settings"). */
function managedSettings(): SettingsFile {
  return { source: 'managed', path: managedSettingsPath(), format: 'claude' };
}

function managedSettingsPath(): string {
  if (process.platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (process.platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

export const claudeCode: AgentProfile = {
  id: 'claude-code',
  name: 'Claude Code',
  docs: [
    'https://code.claude.com/docs/en/hooks',
    'https://code.claude.com/docs/en/tools-reference',
    'https://code.claude.com/docs/en/agent-sdk/typescript',
    'https://code.claude.com/docs/en/permissions',
    'https://code.claude.com/docs/en/permission-modes',
    'https://code.claude.com/docs/en/settings',
    'https://code.claude.com/docs/en/managed-settings',
  ],
  tools: {
    Bash: { family: 'shell', command: ['command'], required: [['command']] },
    // Runs a command (Bash rules apply), or opens a WebSocket (`ws`): without `command` it asks.
    Monitor: { family: 'shell', command: ['command'], required: [['command']], note: 'a `ws` watch has no command: asked' },
    // PowerShell syntax is not bash: shellgate cannot analyse it, so a person decides.
    PowerShell: { ...OPAQUE, note: 'PowerShell commands are not analysed: asked' },
    Read: { family: 'read', path: PATHS, required: [PATHS] },
    NotebookRead: { family: 'read', path: ['notebook_path'], required: [['notebook_path']] },
    // Legacy: `path` was required (absolute).
    LS: { family: 'read', path: ['path'], required: [['path']] },
    Glob: { family: 'search', glob: ['pattern'], dir: ['path'], required: [['pattern']] },
    // `path` may name a file or a directory; either way it is read.
    Grep: { family: 'search', dir: ['path'], filter: ['glob'], required: [['pattern']] },
    Write: { family: 'write', path: PATHS, required: [PATHS] },
    Edit: { family: 'edit', path: PATHS, required: [PATHS] },
    MultiEdit: { family: 'edit', path: PATHS, required: [PATHS] },
    NotebookEdit: { family: 'edit', path: ['notebook_path'], required: [['notebook_path']] },
    WebFetch: { family: 'web', url: ['url'], required: [['url']] },
    WebSearch: { family: 'web-search', subject: ['query'], required: [['query']] },
    // Sub-agents: launching one prompts for nothing; each of its tool calls reaches the hook.
    Agent: { family: 'meta', subject: ['subagent_type'], note: 'a sub-agent; its own tool calls reach the hook' },
    Task: { family: 'meta', subject: ['subagent_type'], note: 'the old name of Agent (still an alias)' },
    TodoWrite: META,
    TaskCreate: META,
    TaskGet: META,
    TaskList: META,
    TaskUpdate: META,
    TaskOutput: { ...META, note: 'reads the output of a task the agent started' },
    TaskStop: { ...META, note: 'stops a task the agent started' },
    ExitPlanMode: { ...META, note: "the plan approval is Claude Code's own prompt" },
    EnterPlanMode: META,
    AskUserQuestion: META,
    EnterWorktree: { ...META, note: 'Claude Code asks before it creates or enters a worktree' },
    ExitWorktree: META,
    CronCreate: { ...META, note: 'schedules a prompt; what it later runs reaches the hook' },
    CronDelete: META,
    CronList: META,
    ScheduleWakeup: META,
    ListAgents: META,
    SendMessage: META,
    ToolSearch: META,
    WaitForMcpServers: META,
    RefreshMcpTools: META,
    ReportFindings: META,
    PushNotification: META,
    // Its arguments are not documented; Claude Code applies its Read rules to it.
    LSP: { ...META, note: "code intelligence; arguments undocumented, Claude Code's Read rules apply" },
    Skill: { family: 'meta', subject: ['skill', 'command'], note: 'loads a skill; what it runs reaches the hook' },
    BashOutput: { ...META, note: 'legacy: reads the output of a shell the agent started' },
    KillShell: { ...META, note: 'legacy: stops a shell the agent started' },
    KillBash: META,
    SlashCommand: { family: 'meta', subject: ['command'] },
    Artifact: { ...OPAQUE, note: 'publishes a file to claude.ai' },
    ShareOnboardingGuide: { ...OPAQUE, note: 'uploads ONBOARDING.md' },
    SendUserFile: { ...OPAQUE, note: "sends a file to the user's device" },
    RemoteTrigger: { ...OPAQUE, note: 'creates and runs routines on claude.ai' },
    Workflow: { ...OPAQUE, note: 'runs a workflow script' },
    REPL: { ...OPAQUE, note: 'runs code' },
    ListMcpResourcesTool: { family: 'mcp', subject: ['server'] },
    ReadMcpResourceTool: { family: 'mcp', subject: ['server', 'uri'] },
    ReadMcpResourceDir: { family: 'mcp', subject: ['server', 'uri'] },
  },
  modes: {
    default: { mode: 'default' },
    acceptEdits: { mode: 'auto-edit' },
    plan: { mode: 'plan' },
    // Claude Code's classifier decides; a hook's ask still forces a prompt, which shellgate's auto keeps.
    auto: { mode: 'auto' },
    bypassPermissions: { mode: 'yolo' },
    dontAsk: { mode: 'default', nonInteractive: true },
  },
  settings: [
    { source: 'user', path: '~/.claude/settings.json', format: 'claude' },
    { source: 'project', path: './.claude/settings.json', format: 'claude' },
    { source: 'local', path: './.claude/settings.local.json', format: 'claude' },
    managedSettings(),
  ],
  // Managed drop-ins (`managed-settings.d/*.json`) may carry hooks and `disableAllHooks`.
  hookFiles: [managedSettingsPath().replace(/managed-settings\.json$/, 'managed-settings.d/*.json')],
  // The Bash tool runs in the user's shell; CLAUDE_CODE_SHELL names another.
  shell: (env) => dialectOfShell(env.CLAUDE_CODE_SHELL ?? env.SHELL),
  hook: {
    decode: (input: unknown): HookRequest => decodePreToolUse(input),
    encode,
    // Exit 2 is the only blocking failure; stderr reaches Claude.
    block: exitTwo,
    limits: [
      "An `allow` skips Claude Code's prompt, but its own deny and ask rules still apply after the hook; a hook cannot approve AskUserQuestion, ExitPlanMode or critical-path `rm`.",
      "A hook that times out, cannot start, or exits with a code other than 0 or 2 lets the call run: keep the hook's `timeout` well above shellgate's run time.",
      'An HTTP hook that is down or answers non-2xx lets the call run (only a 2xx JSON deny blocks).',
      "In bypassPermissions mode shellgate turns ask into allow (the user chose it); versions before 2.1.233 could approve a hook's ask silently anyway.",
      'A `-p` run in bypassPermissions denies what would prompt, but the event does not say `-p`: shellgate cannot tell.',
      'Managed drop-ins (`managed-settings.d/*.json`), MDM and server-managed settings, `--settings`/`--allowedTools` and `CLAUDE_CONFIG_DIR` are not read: shellgate imports the managed file, user, project and local settings.',
      'Allow rules in the project\'s files (.claude/settings.json, settings.local.json, where Claude Code saves "always allow" answers) lift nothing: a repository\'s settings may narrow what shellgate decides, never widen it. Put a rule you mean in ~/.claude/settings.json or a shellgate --config outside the repository.',
      'PowerShell commands are not analysed: every PowerShell call asks unless a settings rule names the tool.',
    ],
  },
  init: {
    file: './.claude/settings.json',
    syntax: 'json',
    // disableAllHooks in any layer turns hooks off; managed allowManagedHooksOnly keeps only managed hooks.
    hooksOff: {
      files: ['./.claude/settings.json', './.claude/settings.local.json', '~/.claude/settings.json', managedSettingsPath()],
      check: (o) => [
        ...(o.disableAllHooks === true ? ['disableAllHooks is true: Claude Code runs no hook'] : []),
        ...(o.allowManagedHooksOnly === true ? ['allowManagedHooksOnly is true: Claude Code runs only managed hooks'] : []),
      ],
    },
    snippet: (command) => ({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 30 }] }] } }),
  },
  mcpName: (tool) => (tool.startsWith('mcp__') ? tool : null),
};
