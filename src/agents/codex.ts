/**
 * OpenAI Codex CLI.
 * - Hooks: https://developers.openai.com/codex/hooks — `PreToolUse` command hooks, found in
 *   `hooks.json` or inline `[hooks]` of `config.toml` next to every active config layer
 *   (`~/.codex/`, a trusted project's `.codex/`, plugins, managed `requirements.toml`); all matching
 *   hooks run, concurrently. Non-managed hooks run only once the user trusts them in `/hooks`
 *   (trust is keyed to the hook's hash: a changed hook is skipped until trusted again).
 *   hooks.json shape `{"hooks": {"PreToolUse": [{"matcher"?, "hooks": [{"type": "command",
 *   "command", "timeout"}]}]}}` (openai/codex `codex-rs/config/src/hook_config.rs`); an omitted
 *   matcher matches every tool.
 * - Stdin (openai/codex `codex-rs/hooks/src/events/pre_tool_use.rs`, `command_input_json`):
 *   `{session_id, turn_id, agent_id?, agent_type?, transcript_path, cwd, hook_event_name:
 *   "PreToolUse", model, permission_mode, tool_name, tool_input, tool_use_id}`. `tool_input` is an
 *   object: every shell-like tool (`shell`, `shell_command`, `exec_command`) arrives as `Bash` with
 *   `{command}` only — its `workdir`, `sandbox_permissions` and `justification` are not sent;
 *   `apply_patch` arrives as `{command: <patch text>}` (`codex-rs/core/src/tools/hook_names.rs`:
 *   the name stays `apply_patch`, `Edit`/`Write` are matcher aliases only); MCP tools as
 *   `mcp__server__tool` with their arguments; app tools as `dynamic__namespace__tool`.
 *   `permission_mode` is `bypassPermissions` when approval_policy is `never`, else `default`
 *   (`hook_runtime.rs` `hook_permission_mode`).
 * - Answer (same file, `parse_completed`, in the first Bash-only version and the current one):
 *   exit 0 with `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision":
 *   "deny", "permissionDecisionReason": "…"}}` blocks (the reason must be non-empty; any extra
 *   field makes the output invalid in older builds, and invalid output fails open). Exit 2 with a
 *   non-empty stderr blocks. `allow` without `updatedInput`, `ask`, other non-zero exits, crashes
 *   and timeouts are "Failed" and let the call proceed (fail open). Exit 0 with empty stdout is no
 *   opinion: Codex's own approval policy and sandbox decide.
 * - Modes (https://developers.openai.com/codex/agent-approvals-security): approval_policy
 *   `untrusted` | `on-failure` | `on-request` | `never` (+ `granular`); sandbox_mode `read-only` |
 *   `workspace-write` | `danger-full-access`; `--full-auto` = workspace-write + on-request;
 *   `--yolo` = never + no sandbox. The hook sees only never vs the rest.
 * - Settings (https://developers.openai.com/codex/config-basic, /enterprise/managed-configuration,
 *   /rules): `/etc/codex/config.toml` < `~/.codex/config.toml` (`$CODEX_HOME`) < a trusted
 *   project's `.codex/config.toml`; `/etc/codex/requirements.toml` constrains them; Starlark
 *   `prefix_rule`s in `rules/*.rules` of each layer. shellgate imports none of them.
 * Research notes with every source: /work/agent-research/codex.md.
 */
import { dialectOfShell, type AgentProfile, type HookAnswer, type HookDecision, type HookRequest } from './types.js';
import { decodePreToolUse, exitTwo } from './hook-input.js';

const NO_OPINION: HookAnswer = { stdout: '', stderr: '', exitCode: 0 };

function denyJson(reason: string): HookAnswer {
  // Exactly these three fields: older builds reject any other field, and a rejected output fails open.
  const out = {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason.trim() || 'blocked by shellgate' },
  };
  return { stdout: JSON.stringify(out) + '\n', stderr: '', exitCode: 0 };
}

/**
 * Codex honours only deny. `allow` is sent as no opinion: an explicit allow is rejected as invalid
 * (and fails open anyway), and no opinion leaves Codex's own approval policy and sandbox in force —
 * shellgate cannot widen them. `ask` cannot be sent as no opinion: the hook cannot tell `untrusted`
 * (Codex would ask) from `on-request`, its usual setting, where a command runs in the sandbox
 * without asking; so an ask is a deny whose reason says approval is needed and how to give it.
 */
function encode(d: HookDecision): HookAnswer {
  if (d.level === 'allow' || d.level === 'defer') return NO_OPINION;
  if (d.level === 'ask') {
    const why = d.reason.trim().replace(/[.\s]+$/, '');
    return denyJson(
      `${why}. Codex's hook cannot ask the user, so shellgate blocked the call until the user approves it: ask them to run it themselves or to allow it in shellgate's settings`,
    );
  }
  return denyJson(d.reason);
}

export const codex: AgentProfile = {
  id: 'codex',
  name: 'OpenAI Codex CLI',
  docs: [
    'https://developers.openai.com/codex/hooks',
    'https://developers.openai.com/codex/agent-approvals-security',
    'https://developers.openai.com/codex/config-basic',
    'https://developers.openai.com/codex/rules',
    'https://github.com/openai/codex/blob/main/codex-rs/hooks/src/events/pre_tool_use.rs',
    'https://github.com/openai/codex/blob/main/codex-rs/core/src/tools/hook_names.rs',
  ],
  tools: {
    Bash: {
      family: 'shell',
      command: ['command'],
      required: [['command']],
      note: 'shell, shell_command and exec_command; the per-call workdir is not sent, so the command is judged in cwd',
    },
    apply_patch: { family: 'patch', patch: ['command', 'input'], required: [['command', 'input']] },
    // Reach the hook only in builds that emit PreToolUse for them (argument names from their handlers).
    view_image: { family: 'read', path: ['path'], required: [['path']] },
    read_file: { family: 'read', path: ['file_path'], required: [['file_path']] },
    list_dir: { family: 'read', path: ['dir_path'], required: [['dir_path']] },
    grep_files: { family: 'search', dir: ['path'], filter: ['include'], required: [['pattern']] },
  },
  mcpName: (tool) => (tool.startsWith('mcp__') ? tool : null),
  modes: {
    default: { mode: 'default' },
    // approval_policy = never: Codex asks nobody, so what still asks (an explicit ask rule) is denied.
    bypassPermissions: { mode: 'yolo', nonInteractive: true },
  },
  settings: [
    { source: 'managed', path: '/etc/codex/config.toml', format: 'none' },
    { source: 'user', path: '~/.codex/config.toml', format: 'none' },
    { source: 'user', path: '~/.codex/rules/default.rules', format: 'none' },
    { source: 'project', path: './.codex/config.toml', format: 'none' },
    { source: 'managed', path: '/etc/codex/requirements.toml', format: 'none' },
  ],
  // hooks.json (or inline [hooks] of config.toml) next to every config layer.
  hookFiles: ['~/.codex/hooks.json', './.codex/hooks.json', '/etc/codex/hooks.json'],
  // `zsh -lc` on macOS (openai/codex#3823, #5411), the user's shell elsewhere (#3916): on macOS a
  // bash $SHELL may still get zsh, so only zsh itself is sure there.
  shell: (env, platform) => {
    const user = dialectOfShell(env.SHELL);
    return platform === 'darwin' && user !== 'zsh' ? 'auto' : user;
  },
  hook: {
    decode: (input: unknown): HookRequest => decodePreToolUse(input, true),
    encode,
    // Exit 2 with a non-empty stderr blocks in every version; other exits fail open.
    block: exitTwo,
    limits: [
      "Codex honours only deny: `allow` is sent as no opinion (Codex's approval policy and sandbox still apply) and `ask` becomes a deny saying approval is needed (use `--mode auto-edit` to let workspace edits through).",
      "A shell call arrives as its command text only: `exec_command`'s `workdir` is not sent, so the command is judged in the session's cwd.",
      'Input typed into a running session (`write_stdin`), Code Mode `exec` and the built-in web search never reach the hook.',
      'A hook that crashes, times out or prints output Codex cannot parse lets the call run: Codex fails open there.',
      'Non-managed hooks run only after the user trusts them in `/hooks` (again after every change); project hooks load only in trusted projects.',
      'The hook sees whether approvals are off (`never`) but not the sandbox mode nor `untrusted` vs `on-request`.',
      'Tools shellgate does not know (app tools `dynamic__…`, a name from another agent such as `Task`) are denied.',
      "`apply_patch` headers are read as Codex's parser reads them (each hunk header trimmed, `\\n` or `\\r\\n` line ends); a header-like line in a spelling Codex rejects (`***Add File:`, lower case) is asked, so blocked.",
    ],
  },
  init: {
    file: '~/.codex/hooks.json',
    syntax: 'json',
    // No matcher: every tool. Only the fields every version accepts (an unknown one can make Codex skip the file).
    snippet: (command) => ({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command, timeout: 30 }] }] } }),
  },
};
