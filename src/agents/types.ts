/**
 * What shellgate knows about one coding agent, in one place: its tools and the arguments that
 * carry paths, URLs and commands, its permission modes, its settings files, and its hook codec
 * (how a pre-tool event arrives on stdin and how a decision must be answered). Each agent is one
 * file in this folder (`claude-code.ts`, `codex.ts`…); `registry.ts` lists them.
 */
import type { Level } from '../findings/types.js';
import type { ShellDialect } from '../syntax/dialects.js';

/** shellgate's approval modes (policy/modes.ts holds their meaning and checks it is this list). */
export type ModeName = 'plan' | 'default' | 'auto-edit' | 'auto' | 'yolo';

export const AGENT_IDS = ['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'cursor', 'copilot-cli'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

/**
 * What a tool does, for the gate:
 * - `shell`: runs a command line (`command` arg; `cwd` args name its directory);
 * - `read`: reads the files or directories its `path`/`pathList` args name;
 * - `search`: reads what a glob `pattern` (and `filter` globs) can reach under a `dir` root (glob,
 *   grep): the root is read recursively;
 * - `write` / `edit`: writes or edits the files its `path`/`pathList` args name;
 * - `patch`: edits the files a patch text names (`patch` args: apply_patch);
 * - `web`: fetches its `url` args; `web-search`: sends a query to a search engine;
 * - `mcp`: an MCP server's tool (the agent's naming, normalised to `mcp__server__tool`);
 * - `meta`: acts on the agent itself (todo lists, plan mode, sub-agents whose own tool calls are
 *   gated, skills); the hook gives no opinion and the agent's own permission flow decides.
 */
export type ToolFamily = 'shell' | 'read' | 'search' | 'write' | 'edit' | 'patch' | 'web' | 'web-search' | 'mcp' | 'meta' | 'other';

export interface ToolSpec {
  family: ToolFamily;
  /** Arguments holding one path (first present wins for `required`, all present are checked). */
  path?: readonly string[];
  /** Arguments holding a list of paths or globs (`paths`, `file_paths`, `include`). */
  pathList?: readonly string[];
  /** A glob pattern whose reach under the root is read (`pattern` of Glob). */
  glob?: readonly string[];
  /** Glob filters that narrow a search (`glob`, `include`); they can also reach out (`../**`). */
  filter?: readonly string[];
  /** The directory a search reads, or a shell command runs in. */
  dir?: readonly string[];
  /** The command line of a shell tool. */
  command?: readonly string[];
  /** URLs fetched. */
  url?: readonly string[];
  /** Text whose every http(s) URL is fetched (Gemini CLI's web_fetch `prompt`). */
  urlsInText?: readonly string[];
  /** Patch text naming the files it edits (apply_patch's `*** Update File: path`). */
  patch?: readonly string[];
  /** The argument a rule's specifier names for other tools (`Agent(Explore)` → subagent_type). */
  subject?: readonly string[];
  /**
   * Groups of arguments of which at least one must be present and of the right type; a call
   * without them is never allowed (`tool-arguments`, ask).
   */
  required?: readonly (readonly string[])[];
  /** Default root of a search when no `dir` argument is given: the cwd. */
  note?: string;
}

/** A pre-tool event as shellgate reads it, whatever the agent's wire format. */
export interface HookRequest {
  /** The agent's own tool name (`Bash`, `run_shell_command`, `beforeShellExecution`…). */
  tool: string;
  /** Tool arguments; a shell command's line is never split. */
  args: Record<string, unknown>;
  cwd?: string;
  session?: string;
  /** The agent's permission mode name as sent (`acceptEdits`, `yolo`…), mapped with `modes`. */
  mode?: string;
  /** Workspace roots the agent names (Cursor's `workspace_roots`). */
  workspaceRoots?: string[];
  /** The event name as sent. */
  event?: string;
}

/** What the hook process prints and how it exits. */
export interface HookAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A decision to encode, with the text that steers the agent. */
export interface HookDecision {
  level: Level | 'defer';
  /** One line for the agent and the user: the rule id, what was judged dangerous, a safer way. */
  reason: string;
}

export interface HookCodec {
  /**
   * The pre-tool event from stdin's parsed JSON. Throws `HookInputError` for anything it cannot
   * read: the caller answers with `block`.
   */
  decode(input: unknown): HookRequest;
  /** The answer for a decision. `ask` where the protocol has none: the agent's nearest equivalent. */
  encode(decision: HookDecision, request: HookRequest): HookAnswer;
  /** The blocking answer for a failure (bad input, unknown tool, internal error): never fails open. */
  block(reason: string): HookAnswer;
  /** What the protocol cannot express, for the README and `shellgate init`. */
  limits: readonly string[];
}

export class HookInputError extends Error {}

/** A settings file of the agent, in the order it layers (lowest first). */
export interface SettingsFile {
  source: 'managed' | 'user' | 'project' | 'local';
  /** Path with `~` for home and `.` for the project root. */
  path: string;
  /** Which importer reads its permissions; `none` for files shellgate does not import. */
  format: 'claude' | 'qwen' | 'gemini' | 'none';
}

/**
 * How an agent decides whether it loads a project's own settings: Gemini CLI's and Qwen Code's
 * "trusted folders" (agents/trusted-folders.ts reads it). An agent without one loads them everywhere.
 */
export interface FolderTrustSpec {
  /** The trust file (`~` for home). */
  file: string;
  /** An environment variable naming another trust file (Qwen Code's QWEN_CODE_TRUSTED_FOLDERS_PATH). */
  fileEnv?: string;
  /** An environment variable that stands for home in `file` (Gemini CLI's GEMINI_CLI_HOME). */
  homeEnv?: string;
  /** An environment variable whose `true` or `false` decides for every folder (GEMINI_CLI_TRUST_WORKSPACE). */
  decideEnv?: string;
  /** Whether folders are checked when no settings say (`security.folderTrust.enabled`). */
  enabledByDefault: boolean;
  /**
   * `longest`: the rule with the longest path holding the folder decides (Gemini CLI);
   * `trust-first`: any trusting rule holding it wins, else an exact DO_NOT_TRUST (Qwen Code).
   */
  match: 'longest' | 'trust-first';
}

export interface InitSpec {
  /** Where the hook is registered (`~` home, `.` project). */
  file: string;
  /** The configuration that registers `command` as the pre-tool hook, to merge into `file`. */
  snippet(command: string): Record<string, unknown>;
  /** TOML, JSON, or JSON with comments (read and written keeping them). */
  syntax: 'json' | 'jsonc' | 'toml';
  /**
   * Settings that switch the hook off: the files (`~` home, `.` project, absolute) where a value
   * turns every hook, or this one, off for the agent, and what in a file's value does so (a
   * description per finding). `init --write` refuses to leave such a setting unsaid.
   */
  hooksOff?: { files: readonly string[]; check(settings: Record<string, unknown>): string[] };
}

/**
 * An agent's permission mode as shellgate applies it. `nonInteractive`: the agent never asks in
 * this mode (Claude Code's `dontAsk` denies what is not pre-approved), so ask becomes deny.
 */
export interface ModeMapping {
  mode: ModeName;
  nonInteractive?: boolean;
}

export interface AgentProfile {
  id: AgentId;
  name: string;
  /** Where each fact comes from (documentation URLs). */
  docs: readonly string[];
  tools: Readonly<Record<string, ToolSpec>>;
  /** MCP tool names: how this agent spells them, to `mcp__server__tool` (null: not an MCP tool). */
  mcpName?(tool: string): string | null;
  /** The agent's mode names → shellgate's modes. */
  modes: Readonly<Record<string, ModeMapping>>;
  settings: readonly SettingsFile[];
  /**
   * Other files where the agent reads hook registrations (`~` home, `.` project, `*` any name):
   * with `settings` and `init.file` they are the agent's gate files (policy/gate-files.ts), which
   * no tool call may change — rewriting one turns the hook off.
   */
  hookFiles?: readonly string[];
  /** When the agent skips a project's own settings (absent: it never does). */
  folderTrust?: FolderTrustSpec;
  hook: HookCodec;
  init: InitSpec;
  /**
   * The shell the agent runs its shell tool's commands in, from what its hook process sees (the
   * environment it inherits, the platform). Absent: the user's login shell (`$SHELL`), which is
   * what most agents use. Where it may be one of several, the reading that covers them (zsh's and
   * dash's readings ask where bash's would not, so they cover bash; `auto` covers all).
   */
  shell?(env: Readonly<Record<string, string | undefined>>, platform: string): ShellDialect;
}

/**
 * The reading for a shell named by its path (`/bin/zsh`, `/usr/local/bin/bash`): bash, zsh, sh for
 * dash and its kin (`/bin/sh` is dash on Debian and Ubuntu, bash elsewhere: the sh reading covers
 * both); anything else or nothing, `auto`.
 */
export function dialectOfShell(path: string | undefined): ShellDialect {
  const name = (path ?? '').replace(/^.*\//, '');
  if (name === 'bash') return 'bash';
  if (name === 'zsh') return 'zsh';
  if (name === 'sh' || name === 'dash' || name === 'ash') return 'sh';
  return 'auto';
}
