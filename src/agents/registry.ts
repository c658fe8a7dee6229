/**
 * The agents shellgate knows, and the lookups every other module uses: which family a tool
 * belongs to and which of its arguments carry paths, URLs and commands.
 *
 * A call that names its agent is looked up in that agent's table only. Tool names collide across
 * agents (`Task` is a Claude Code sub-agent, Cursor's too, and nothing in Codex; `TodoWrite` is a
 * meta tool in Claude Code and unknown to Cursor), so a name the agent does not list is unknown
 * for that agent — never another agent's entry, never shellgate's generic names. What an unknown
 * tool gets is the agent's documented answer for it, in its README section: the hook answers it
 * with the agent's blocking answer (hook/answer.ts; README "Fail closed in each protocol" and each
 * agent's table row "bad input, unknown tool, internal error"), because a hook's "no opinion"
 * hands the call to the agent's own permission flow (Claude Code, Codex, Qwen Code, Gemini CLI,
 * Copilot CLI: empty output) or is an allow (Cursor has no "no opinion"), and shellgate cannot say
 * what an unknown tool does; the gate, asked by the library, gives it `unknown-tool` (ask). MCP
 * names are the agent's own spelling (`mcpName`), so Cursor's `MCP:tool` is MCP and a bare
 * `mcp__x__y`, which Cursor never sends, is not.
 *
 * A call without an agent (the library, `check --tool`) is looked up in shellgate's generic names
 * (`shell`, `read_file`…), then in every profile (where names collide the first profile listed wins).
 */
import { AGENT_IDS, type AgentId, type AgentProfile, type ModeMapping, type ToolSpec } from './types.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { copilotCli } from './copilot-cli.js';
import { cursor } from './cursor.js';
import { geminiCli } from './gemini-cli.js';
import { qwenCode } from './qwen-code.js';

export const AGENTS: Readonly<Partial<Record<AgentId, AgentProfile>>> = {
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  'qwen-code': qwenCode,
  cursor,
  'copilot-cli': copilotCli,
};

export function isAgentId(x: string): x is AgentId {
  return (AGENT_IDS as readonly string[]).includes(x);
}

/** shellgate's own generic tool names (the library's and `check --tool`'s). */
const GENERIC: Record<string, ToolSpec> = {
  shell: { family: 'shell', command: ['command'], dir: ['cwd', 'directory', 'dir_path'], required: [['command']] },
  read_file: { family: 'read', path: ['path', 'file_path', 'absolute_path'], required: [['path', 'file_path', 'absolute_path']] },
  list_directory: { family: 'read', path: ['path', 'dir_path', 'directory'] },
  grep: { family: 'search', dir: ['path', 'dir_path', 'directory'], filter: ['include', 'glob'], required: [['pattern']] },
  glob: { family: 'search', dir: ['path', 'dir_path', 'directory'], glob: ['pattern'], required: [['pattern']] },
  write_file: { family: 'write', path: ['path', 'file_path'], required: [['path', 'file_path']] },
  edit: { family: 'edit', path: ['path', 'file_path'], required: [['path', 'file_path']] },
  web_fetch: { family: 'web', url: ['url'], required: [['url']] },
};

const ORDER: AgentId[] = [...AGENT_IDS];

/** The tool's spec: the agent's own table only when the agent is named; else the generic names, then every agent. */
export function toolSpecOf(tool: string, agent?: AgentId): ToolSpec | null {
  if (agent !== undefined) {
    const own = AGENTS[agent]?.tools;
    return own && Object.prototype.hasOwnProperty.call(own, tool) ? own[tool] : null;
  }
  if (Object.prototype.hasOwnProperty.call(GENERIC, tool)) return GENERIC[tool];
  for (const id of ORDER) {
    const t = AGENTS[id]?.tools;
    if (t && Object.prototype.hasOwnProperty.call(t, tool)) return t[tool];
  }
  return null;
}

/** `mcp__server__tool` for an MCP tool as the agent spells it (any agent's spelling when none is named), else null. */
export function mcpNameOf(tool: string, agent?: AgentId): string | null {
  if (agent !== undefined) return AGENTS[agent]?.mcpName?.(tool) ?? null;
  return tool.startsWith('mcp__') ? tool : null;
}

/** An agent's name for a permission mode (`acceptEdits`, `yolo`, `auto_edit`…), in any profile. */
export function modeNamed(name: string): ModeMapping | null {
  for (const id of ORDER) {
    const m = AGENTS[id]?.modes;
    if (m && Object.prototype.hasOwnProperty.call(m, name)) return m[name];
  }
  return null;
}

/**
 * The importer for a settings file, from the agent folder it sits in (`.claude/settings.json` →
 * claude): the profiles' own settings paths say which folder belongs to which format.
 */
export function settingsFormatOf(file: string): 'claude' | 'qwen' | 'gemini' | null {
  for (const id of ORDER) {
    for (const s of AGENTS[id]?.settings ?? []) {
      if (s.format === 'none') continue;
      const folder = /(?:^|\/)(\.[A-Za-z0-9_-]+)\/[^/]+\.json$/.exec(s.path)?.[1];
      if (folder && new RegExp(`(^|/)${folder.replace('.', '\\.')}/[^/]*\\.json$`).test(file)) return s.format;
    }
  }
  return null;
}
