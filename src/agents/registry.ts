/**
 * The agents shellgate knows, and the lookups every other module uses: which family a tool
 * belongs to and which of its arguments carry paths, URLs and commands. A tool name without an
 * agent is looked up in every profile (names rarely collide; where they do the first profile
 * listed wins, and a call that says its agent uses that agent's table).
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

/** The tool's spec: the agent's own table first, then shellgate's generic names, then every agent. */
export function toolSpecOf(tool: string, agent?: AgentId): ToolSpec | null {
  const own = agent ? AGENTS[agent]?.tools : null;
  if (own && Object.prototype.hasOwnProperty.call(own, tool)) return own[tool];
  if (Object.prototype.hasOwnProperty.call(GENERIC, tool)) return GENERIC[tool];
  for (const id of ORDER) {
    const t = AGENTS[id]?.tools;
    if (t && Object.prototype.hasOwnProperty.call(t, tool)) return t[tool];
  }
  return null;
}

/** `mcp__server__tool` for an MCP tool however the agent spells it, else null. */
export function mcpNameOf(tool: string, agent?: AgentId): string | null {
  if (tool.startsWith('mcp__')) return tool;
  const profile = agent ? AGENTS[agent] : undefined;
  return profile?.mcpName?.(tool) ?? null;
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
