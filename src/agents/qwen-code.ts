/**
 * Qwen Code (QwenLM/qwen-code). Facts read in the release code of 0.12–0.15.6 (a mirror that
 * tracks upstream releases, undici77/qwen-code-no-telemetry), in upstream main, and in the docs
 * https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks (docs/users/features/hooks.md,
 * approval-mode.md, docs/users/configuration/settings.md); notes in the project's research file on Qwen Code.
 * - Hooks use Claude Code's event names: the pre-tool event is `PreToolUse`. Wired to tool
 *   execution in 0.13 (behind `--experimental-hooks` / `hooksConfig.enabled`), on by default
 *   since 0.14; `disableAllHooks: true` (and `--bare`) turn every hook off. Project hooks load
 *   only in trusted folders (hooks/hookRegistry.ts), so `init` registers the hook in the user's
 *   settings. Command hook timeouts are milliseconds (hookRunner.ts DEFAULT_HOOK_TIMEOUT).
 * - Payload (hookEventHandler.ts `createBaseInput`, toolHookTriggers.ts): `{session_id,
 *   transcript_path, cwd, hook_event_name: "PreToolUse", timestamp, permission_mode, tool_name,
 *   tool_input, tool_use_id}`. `permission_mode` is the raw approval mode: `auto-edit` in
 *   0.15.6, `auto_edit` in the docs and the hooks' own enum.
 * - Answer (hooks/types.ts `PreToolUseHookOutput`, hookRunner.ts, hookAggregator.ts): Claude
 *   Code's `hookSpecificOutput.permissionDecision` allow|deny|ask (+ Reason), which wins over a
 *   top-level `decision`. Exit 2 ignores stdout and reads stderr only: JSON, or plain text →
 *   deny with that text; **empty stderr → no output → the tool runs** (0.15.6). Newer main turns
 *   any exit 2 into a deny even against another hook's allow (`enforceBlockingDeny`). Exit 1,
 *   other codes (newer), timeouts, spawn errors and signals let the tool run. So a deny (and
 *   every failure) is exit 2 with the reason as plain text on stderr — read as deny by 0.13's
 *   text-only parser, 0.15.6 and main — plus the deny JSON on stdout for readers that follow
 *   the docs' example. `ask` is a deny without prompt up to 0.19.6 (issue #6321), a prompt
 *   after (PR #6411; deny in headless runs). PreToolUse fires at execution time, after Qwen's
 *   own permission flow: `allow` cannot lift Qwen's deny or ask (issue #12457). With several
 *   PreToolUse hooks, `hookSpecificOutput` keys are "later wins" in 0.15.6.
 * - Tools (tools/tool-names.ts at v0.0.14, v0.5, v0.10.5, v0.14, 0.15.6 and main): `edit` (legacy
 *   `replace`), run_shell_command {command, directory — never renamed}, read_file
 *   {absolute_path (≤0.12) → file_path}, list_directory {path}, glob {pattern, path},
 *   search_file_content (≤0.1) → grep_search {pattern, path, include (≤0.1) → glob},
 *   web_fetch {url, prompt}, web_search {query}, read_many_files {paths} (≤0.5), monitor
 *   {command, directory}, lsp {filePath}, notebook_edit {notebook_path}; MCP tools are
 *   `mcp__<server>__<tool>` (tools/mcp-tool.ts) since ≤0.10.5.
 * - Modes: plan, default, auto-edit, yolo (0.15.6 `ApprovalMode`), auto (newer: a classifier).
 * - Settings: ~/.qwen/settings.json, .qwen/settings.json, /etc/qwen-code/settings.json (system,
 *   wins), /etc/qwen-code/system-defaults.json; `permissions {allow, ask, deny}` in Claude
 *   Code's rule syntax, and the deprecated `tools.allowed`/`tools.exclude`/`excludeTools`.
 */
import type { AgentProfile, HookAnswer, HookDecision, HookRequest, ToolSpec } from './types.js';
import { decodePreToolUse } from './hook-input.js';

const FILE = ['file_path', 'absolute_path'];
const SHELL: ToolSpec = { family: 'shell', command: ['command'], dir: ['directory'], required: [['command']] };
const EDIT: ToolSpec = { family: 'edit', path: ['file_path'], required: [['file_path']] };
const GREP: ToolSpec = { family: 'search', dir: ['path'], filter: ['glob', 'include'], required: [['pattern']] };
const SUBAGENT: ToolSpec = { family: 'meta', subject: ['subagent_type'], note: 'a sub-agent; its own tool calls reach the hook' };

function answerJson(level: 'allow' | 'ask' | 'deny', reason: string): string {
  // Both shapes: hookSpecificOutput wins where it is read, the top-level decision elsewhere.
  return (
    JSON.stringify({
      decision: level,
      reason,
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: level, permissionDecisionReason: reason },
    }) + '\n'
  );
}

function deny(reason: string): HookAnswer {
  // Exit 2 reads stderr only, and an empty stderr lets the tool run: the reason must be there.
  return { stdout: answerJson('deny', reason), stderr: `${reason}\n`, exitCode: 2 };
}

function encode(d: HookDecision): HookAnswer {
  if (d.level === 'defer') return { stdout: '', stderr: '', exitCode: 0 };
  if (d.level === 'deny') return deny(d.reason);
  return { stdout: answerJson(d.level, d.reason), stderr: '', exitCode: 0 };
}

export const qwenCode: AgentProfile = {
  id: 'qwen-code',
  name: 'Qwen Code',
  docs: [
    'https://qwenlm.github.io/qwen-code-docs/en/users/features/hooks',
    'https://github.com/QwenLM/qwen-code/blob/main/docs/users/features/approval-mode.md',
    'https://github.com/QwenLM/qwen-code/blob/main/docs/users/configuration/settings.md',
    'https://github.com/QwenLM/qwen-code/issues/12457',
    'https://github.com/QwenLM/qwen-code/issues/6321',
  ],
  tools: {
    run_shell_command: SHELL,
    // Runs a command and streams its output: a shell.
    monitor: SHELL,
    read_file: { family: 'read', path: FILE, required: [FILE] },
    read_many_files: { family: 'read', pathList: ['paths', 'include'], required: [['paths', 'include']] },
    list_directory: { family: 'read', path: ['path'], required: [['path']] },
    // Code intelligence on one file, or on the workspace when no file is named.
    lsp: { family: 'read', path: ['filePath'] },
    glob: { family: 'search', glob: ['pattern'], dir: ['path'], required: [['pattern']] },
    grep_search: GREP,
    search_file_content: GREP,
    write_file: { family: 'write', path: ['file_path'], required: [['file_path']] },
    edit: EDIT,
    replace: EDIT,
    notebook_edit: { family: 'edit', path: ['notebook_path'], required: [['notebook_path']] },
    web_fetch: { family: 'web', url: ['url'], required: [['url']] },
    web_search: { family: 'web-search', subject: ['query'], required: [['query']] },
    save_memory: { family: 'other', note: 'writes a fact into the QWEN.md memory file that later sessions load: a person decides' },
    agent: SUBAGENT,
    task: SUBAGENT,
    skill: { family: 'meta', subject: ['skill'], note: 'loads a skill; what it runs reaches the hook' },
    todo_write: { family: 'meta' },
    task_create: { family: 'meta' },
    task_get: { family: 'meta' },
    task_list: { family: 'meta' },
    task_update: { family: 'meta' },
    task_output: { family: 'meta' },
    task_stop: { family: 'meta' },
    send_message: { family: 'meta' },
    exit_plan_mode: { family: 'meta', note: "the plan approval is Qwen Code's own prompt" },
    ask_user_question: { family: 'meta' },
    cron_create: { family: 'meta', note: 'schedules a prompt; the calls it leads to reach the hook' },
    cron_list: { family: 'meta' },
    cron_delete: { family: 'meta' },
  },
  mcpName: (tool) => (tool.startsWith('mcp__') ? tool : null),
  // Every spelling found: the enum value (hyphen), the docs and hook enum (underscore).
  modes: {
    plan: { mode: 'plan' },
    default: { mode: 'default' },
    'auto-edit': { mode: 'auto-edit' },
    auto_edit: { mode: 'auto-edit' },
    auto: { mode: 'auto' },
    yolo: { mode: 'yolo' },
  },
  settings: [
    { source: 'managed', path: '/etc/qwen-code/system-defaults.json', format: 'qwen' },
    { source: 'user', path: '~/.qwen/settings.json', format: 'qwen' },
    { source: 'project', path: './.qwen/settings.json', format: 'qwen' },
    { source: 'managed', path: '/etc/qwen-code/settings.json', format: 'qwen' },
    { source: 'managed', path: '/Library/Application Support/QwenCode/settings.json', format: 'qwen' },
  ],
  // A project's .qwen/settings.json is loaded only in a trusted folder (agents/trusted-folders.ts).
  folderTrust: { file: '~/.qwen/trustedFolders.json', fileEnv: 'QWEN_CODE_TRUSTED_FOLDERS_PATH', enabledByDefault: false, match: 'trust-first' },
  // run_shell_command runs `bash -c`, as Gemini CLI's does (on Linux and macOS).
  shell: (_env, platform) => (platform === 'win32' ? 'auto' : 'bash'),
  hook: {
    decode: (input: unknown): HookRequest => decodePreToolUse(input),
    encode,
    block: (reason) => deny(`shellgate: ${reason}`),
    limits: [
      "`allow` cannot skip Qwen Code's own prompt or lift its deny: PreToolUse runs after Qwen's permission rules, approval mode and classifier have decided.",
      'Another PreToolUse hook\'s allow overrides shellgate\'s deny in 0.15.x ("later wins" for hookSpecificOutput); shellgate answers deny with exit 2, which newer versions enforce against other hooks.',
      '`ask` is a deny without a prompt up to 0.19.6; later versions prompt in the terminal UI and deny in headless runs.',
      'Qwen Code lets a call run when the hook times out, crashes, exits 1 or exits 2 with an empty stderr; `disableAllHooks` and `--bare` turn hooks off, `async: true` hooks cannot block, and project hooks are skipped in untrusted folders.',
      'A headless run in default mode denies what would prompt, but the payload does not say the run is headless: shellgate answers ask.',
    ],
  },
  init: {
    file: '~/.qwen/settings.json',
    // Read with comments (comment-json), and Qwen Code keeps them when it writes.
    syntax: 'jsonc',
    // The system file overrides the user's; a trusted project's overrides it too.
    hooksOff: {
      files: ['~/.qwen/settings.json', '/etc/qwen-code/settings.json', './.qwen/settings.json'],
      check: (o) => [
        ...(o.disableAllHooks === true ? ['disableAllHooks is true: Qwen Code runs no hook'] : []),
        ...((o.hooksConfig as Record<string, unknown> | undefined)?.enabled === false ? ['hooksConfig.enabled is false: Qwen Code runs no hook'] : []),
      ],
    },
    // Timeout in milliseconds for command hooks: a hook that times out lets the call run.
    snippet: (command) => ({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', name: 'shellgate', command, timeout: 30000 }] }] } }),
  },
};
