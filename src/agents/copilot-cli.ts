/**
 * GitHub Copilot CLI.
 * - Hooks: https://docs.github.com/en/copilot/reference/hooks-reference (github/docs
 *   `content/copilot/reference/hooks-reference.md`) — command hooks in `~/.copilot/hooks/*.json`
 *   (`$COPILOT_HOME`), a repository's `.github/hooks/*.json` (after folder trust), inline `hooks` in
 *   `settings.json`, plugins and root-owned policy files (`/etc/github-copilot/policy.d/*.json`);
 *   every matching entry runs, any deny blocks. Entry: `{"type": "command", "bash"|"command"|
 *   "powershell", "cwd", "env", "timeoutSec" (default 30), "matcher"}`; no matcher = every tool.
 * - Stdin for `preToolUse` (camelCase config): `{sessionId, timestamp (epoch ms), cwd, toolName,
 *   toolArgs: unknown}`. For `PreToolUse` (PascalCase, VS Code-compatible): `{hook_event_name,
 *   session_id, timestamp (ISO), cwd, tool_name, tool_input}` with Claude tool names (bash/powershell
 *   → Bash, view → Read, create → Write, edit/str_replace_editor/apply_patch → Edit, grep/rg → Grep,
 *   glob → Glob, web_fetch → WebFetch, web_search → WebSearch, ask_user → AskUserQuestion,
 *   update_todo → TodoWrite, task → Agent); `tool_input` is "parsed from JSON string when possible".
 *   `toolArgs` arrives as a JSON-encoded string (older docs' example; github/copilot-cli#3349) or
 *   an object (a 2026-09 capture): both are read. `apply_patch` is a freeform tool whose arguments
 *   are the raw patch text or `{input}` (github/copilot-sdk#2542).
 * - Arguments (github/copilot-sdk `test/snapshots/builtin_tools/*.yaml`, recorded calls): bash
 *   `{command, description}`, view `{path, view_range}`, create `{path, file_text}`, edit `{path,
 *   old_str, new_str}`, glob `{pattern}` (+ `paths: [...]`, github/copilot-cli#4271), grep `{pattern,
 *   path, output_mode}`. MCP tools are named `<server>-<tool>` (github/copilot-sdk#869).
 * - Answer ("preToolUse decision control"): exit 0 with `{"permissionDecision": "allow"|"deny"|"ask",
 *   "permissionDecisionReason": "…"}` (reason required for deny, shown to the agent); empty output
 *   = Copilot's own permission flow. `ask` since 1.0.4, `allow` suppresses the prompt since 1.0.18,
 *   exit 2 denies since 1.0.70, other non-zero exits deny since 1.0.57 (before: logged and skipped),
 *   timeouts fail open since 1.0.67 (github/copilot-cli `changelog.md`).
 * - Modes (https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-command-reference):
 *   `--allow-all-tools`, `--allow-all-paths`, `--allow-all-urls`, `--allow-all`/`--yolo`,
 *   `--mode interactive|plan|autopilot`, `/allow-all`, `-p` (never prompts). None of them is in the
 *   payload; an `ask` under cloud agent is a deny.
 * - Settings (…/cli-config-dir-reference): `~/.copilot/settings.json` < `.github/copilot/settings.json`
 *   < `.github/copilot/settings.local.json`; saved approvals in `~/.copilot/permissions-config.json`;
 *   `--allow-tool`/`--deny-tool` rules (`shell(git:*)`, `write(path)`, `url(host)`, `SERVER(tool)`).
 *   shellgate imports none of them.
 * Research notes with every source: /work/agent-research/copilot-cli.md.
 */
import type { AgentProfile, HookAnswer, HookDecision, HookRequest, ToolSpec } from './types.js';
import { HookInputError } from './types.js';
import { expectObject, expectString, objectOrJson, optionalString } from './hook-input.js';

const PATH = ['path', 'file_path'];
const SHELL: ToolSpec = { family: 'shell', command: ['command'], required: [['command']] };
const READ: ToolSpec = { family: 'read', path: PATH, required: [PATH] };
const CREATE: ToolSpec = { family: 'write', path: PATH, required: [PATH] };
const EDIT: ToolSpec = { family: 'edit', path: PATH, required: [PATH] };
const PATCH: ToolSpec = { family: 'patch', patch: ['input', 'patch'], required: [['input', 'patch']] };
const GLOB: ToolSpec = { family: 'search', glob: ['pattern'], dir: ['path'], pathList: ['paths'], required: [['pattern']] };
const GREP: ToolSpec = { family: 'search', dir: ['path'], pathList: ['paths'], filter: ['glob'], required: [['pattern']] };
const FETCH: ToolSpec = { family: 'web', url: ['url'], required: [['url']] };
const SEARCH: ToolSpec = { family: 'web-search', subject: ['query'] };
const META: ToolSpec = { family: 'meta' };
const SUBAGENT: ToolSpec = { family: 'meta', note: 'a sub-agent; its own tool calls reach the hook' };
const UNSEEN: ToolSpec = { family: 'other', note: 'shellgate cannot see what it does: a person decides' };

/** Tools whose arguments may be a patch text rather than JSON (`Edit` is apply_patch's Claude name). */
const PATCH_NAMES = new Set(['apply_patch', 'Edit']);

function toolArgsOf(v: unknown, tool: string, what: string): Record<string, unknown> {
  if (v === undefined || v === null) throw new HookInputError(`the hook input has no ${what}`);
  if (typeof v === 'string' && PATCH_NAMES.has(tool)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      return { input: v };
    }
    return typeof parsed === 'string' ? { input: parsed } : expectObject(parsed, what);
  }
  return objectOrJson(v, what);
}

function answer(out: Record<string, string>): HookAnswer {
  return { stdout: JSON.stringify(out) + '\n', stderr: '', exitCode: 0 };
}

function encode(d: HookDecision): HookAnswer {
  if (d.level === 'defer') return { stdout: '', stderr: '', exitCode: 0 };
  if (d.level === 'allow') return answer({ permissionDecision: 'allow' });
  return answer({ permissionDecision: d.level, permissionDecisionReason: d.reason.trim() || 'blocked by shellgate' });
}

export const copilotCli: AgentProfile = {
  id: 'copilot-cli',
  name: 'GitHub Copilot CLI',
  docs: [
    'https://docs.github.com/en/copilot/reference/hooks-reference',
    'https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-command-reference',
    'https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-config-dir-reference',
    'https://github.com/github/copilot-cli/blob/main/changelog.md',
  ],
  tools: {
    // Runtime names (camelCase `preToolUse`).
    bash: SHELL,
    powershell: { ...UNSEEN, note: 'PowerShell: shellgate parses bash only, so a person decides' },
    write_bash: { ...UNSEEN, note: 'types input into a running shell session' },
    write_powershell: { ...UNSEEN, note: 'types input into a running PowerShell session' },
    read_bash: META,
    read_powershell: META,
    stop_bash: META,
    stop_powershell: META,
    list_bash: META,
    list_powershell: META,
    view: READ,
    create: CREATE,
    edit: EDIT,
    str_replace_editor: EDIT,
    apply_patch: PATCH,
    glob: GLOB,
    grep: GREP,
    rg: GREP,
    web_fetch: FETCH,
    web_search: SEARCH,
    task: SUBAGENT,
    read_agent: META,
    write_agent: SUBAGENT,
    list_agents: META,
    ask_user: META,
    skill: { family: 'meta', note: 'loads a skill; what it runs reaches the hook' },
    update_todo: META,
    report_intent: META,
    store_memory: META,
    sql: UNSEEN,
    lsp: UNSEEN,
    // Claude names (PascalCase `PreToolUse`), with Copilot's own argument names.
    Bash: { ...SHELL, note: 'bash, and powershell on Windows (read as bash)' },
    Read: READ,
    Write: CREATE,
    Edit: EDIT,
    Grep: GREP,
    Glob: GLOB,
    WebFetch: FETCH,
    WebSearch: SEARCH,
    AskUserQuestion: META,
    TodoWrite: META,
    Agent: SUBAGENT,
    Task: SUBAGENT,
  },
  /**
   * `<server>-<tool>` → `mcp__server__tool`. Built-in names never hold a `-`. A server name may
   * (`github-mcp-server-get_issue`), a tool name rarely does (MCP tools are mostly snake_case), so
   * the split is at the last `-`.
   */
  mcpName(tool: string): string | null {
    if (tool.startsWith('mcp__')) return tool;
    const i = tool.lastIndexOf('-');
    if (i <= 0 || i === tool.length - 1) return null;
    return `mcp__${tool.slice(0, i)}__${tool.slice(i + 1)}`;
  },
  // The payload carries no mode: allow-all, plan and autopilot are invisible to the hook.
  modes: {},
  settings: [
    { source: 'user', path: '~/.copilot/settings.json', format: 'none' },
    { source: 'user', path: '~/.copilot/permissions-config.json', format: 'none' },
    { source: 'project', path: './.github/copilot/settings.json', format: 'none' },
    { source: 'local', path: './.github/copilot/settings.local.json', format: 'none' },
  ],
  // Hook files in ~/.copilot/hooks, a repository's .github/hooks and root-owned policy files.
  hookFiles: ['~/.copilot/hooks/*.json', './.github/hooks/*.json', '/etc/github-copilot/policy.d/*.json'],
  hook: {
    decode(input: unknown): HookRequest {
      const o = expectObject(input, 'the hook input');
      if (o.toolName === undefined && (o.tool_name !== undefined || o.hook_event_name !== undefined)) {
        // PascalCase `PreToolUse`: snake_case fields and Claude tool names.
        const event = optionalString(o, 'hook_event_name');
        if (event !== undefined && event !== 'PreToolUse') throw new HookInputError(`shellgate answers PreToolUse events, not "${event}"`);
        let tool = expectString(o, 'tool_name');
        const args = toolArgsOf(o.tool_input, tool, '"tool_input"');
        // apply_patch is named Edit here: a patch body is read as the patch it is.
        if (tool === 'Edit' && typeof args.input === 'string' && args.path === undefined && args.file_path === undefined) tool = 'apply_patch';
        return { tool, args, event: event ?? 'PreToolUse', cwd: optionalString(o, 'cwd'), session: optionalString(o, 'session_id') };
      }
      const tool = expectString(o, 'toolName');
      const args = toolArgsOf(o.toolArgs, tool, '"toolArgs"');
      return { tool, args, event: 'preToolUse', cwd: optionalString(o, 'cwd'), session: optionalString(o, 'sessionId') };
    },
    encode,
    block(reason: string): HookAnswer {
      // A deny at exit 0 blocks in every version; a non-zero exit failed open before 1.0.57.
      return answer({ permissionDecision: 'deny', permissionDecisionReason: `shellgate: ${reason}` });
    },
    limits: [
      'The payload carries no permission mode: under `--allow-all-tools`/`--yolo` Copilot has been seen approving an `ask` without prompting, and in `-p` or the cloud agent an `ask` is a deny.',
      'A hook that times out lets the call run (Copilot ≥ 1.0.67 fails open on timeouts); shellgate answers its own failures with a deny at exit 0, which blocks in every version.',
      "`ask` needs Copilot ≥ 1.0.4 and `allow` skips Copilot's prompt only from 1.0.18; older versions fall back to their own prompt.",
      'PowerShell is not parsed: `powershell` calls ask, and a PascalCase `Bash` call on Windows is read as bash.',
      'MCP tools arrive as `<server>-<tool>` and are split at the last `-`: a rule for a tool whose own name holds a `-` may not match (the call then asks).',
      "Tools shellgate cannot see into (`write_bash`/`write_powershell` input, `sql`, `lsp`) ask; a name Copilot does not use (another agent's `run_shell_command`) is denied as unknown.",
      "`apply_patch`'s parser is closed source: its headers are read in every spelling the known parsers accept (indented, trimmed or not, any line end), and a header-like line in another spelling asks.",
      'HTTP hooks fail open on errors and timeouts: use the command hook for enforcement.',
    ],
  },
  init: {
    file: '~/.copilot/hooks/shellgate.json',
    syntax: 'json',
    // camelCase `preToolUse`: its field names are stable across versions; no matcher = every tool.
    snippet: (command) => ({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: command, timeoutSec: 30 }] } }),
  },
};
