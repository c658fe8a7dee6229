/**
 * The gate behind a hook: the agent's own settings files (layered as the agent layers them,
 * missing ones skipped) plus shellgate's settings, one gate per project, built on first use.
 * Shared by `shellgate hook` (one event per process) and `shellgate serve` (many).
 */
import type { ShellDialect } from '../syntax/dialects.js';
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createGate, type Gate, type GateContext, type Decision } from '../policy/gate.js';
import type { SettingsSource } from '../policy/settings.js';
import type { Mode } from '../policy/modes.js';
import type { PresetName } from '../policy/presets.js';
import type { ToolCall } from '../policy/tool-calls.js';
import { CORE_FINDINGS } from '../findings/catalog.js';
import type { AgentProfile } from '../agents/types.js';
import { projectSettingsLoaded } from '../agents/trusted-folders.js';
import type { HookRuntime } from './answer.js';
import type { AuditRecord } from '../audit/types.js';

/**
 * The input a hook analyses by default (settings' `maxInputLength` overrides it): the rest asks
 * with `input-limit`. An agent that times a hook out lets the tool run (Claude Code, Gemini CLI,
 * Qwen Code, Codex), so a hook must answer well inside a 30 s timeout on a slow machine: 256 KiB
 * takes 1–4 s here (a 256 KiB `echo`, a 20,000-stage pipeline), the analyser's 4 MiB about 20 s.
 */
export const HOOK_MAX_INPUT_LENGTH = 256 * 1024;

export interface HookRuntimeOptions {
  /** shellgate's own settings file (`--config`). */
  config?: string | null;
  presets?: PresetName[];
  /** Overrides the mode the agent reports. */
  mode?: Mode | null;
  workspaceRoots?: string[];
  /** Read the agent's own permission settings (default true). */
  agentSettings?: boolean;
  env?: Record<string, string | undefined>;
  home?: string;
  version: string;
  record?(r: AuditRecord): void;
  /** Answer ask with deny, saying approval is needed (`--ask-as-deny`). */
  askAsDeny?: boolean;
  /** The shell the agent runs commands in (`--shell`), over the settings' and the agent's own. */
  shell?: ShellDialect;
}

/** The folder whose agent settings apply to a call in `cwd`: the nearest ancestor holding the agent's project folder (`.claude/`), else `cwd`. */
export function projectRootOf(agent: AgentProfile, cwd: string): string {
  const marker = agent.settings.find((s) => s.source === 'project')?.path.split('/')[1];
  if (!marker) return cwd;
  for (let dir = cwd; ; dir = dirname(dir)) {
    try {
      if (statSync(join(dir, marker)).isDirectory()) return dir;
    } catch {
      // not here
    }
    if (dirname(dir) === dir) return cwd;
  }
}

/**
 * The agent's settings files for a project, as gate settings sources (missing ones are skipped). A
 * project's own file is read only where the agent itself loads it (Gemini CLI and Qwen Code skip it
 * in a folder the user has not trusted: agents/trusted-folders.ts).
 */
export function agentSettingsSources(
  agent: AgentProfile,
  projectRoot: string,
  home: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): SettingsSource[] {
  const out: SettingsSource[] = [];
  const projectLoaded = projectSettingsLoaded(agent, projectRoot, home, env).load;
  for (const s of agent.settings) {
    if (s.format === 'none') continue;
    if ((s.source === 'project' || s.source === 'local') && !projectLoaded) continue;
    out.push({ source: s.source, file: settingsPath(s.path, projectRoot, home), format: s.format === 'gemini' ? 'qwen' : s.format, optional: true });
  }
  return out;
}

/** A settings path as the agent profile writes it: `~/…` under home, `./…` under the project root, else as is. */
function settingsPath(path: string, projectRoot: string, home: string): string {
  if (path.startsWith('~/')) return join(home, path.slice(2));
  if (path.startsWith('./')) return join(projectRoot, path.slice(2));
  return path;
}

export interface ProjectRuntime extends HookRuntime {
  /** The gate for a project folder (built once). */
  gateFor(projectRoot: string): Promise<Gate>;
  /** Re-read every gate's settings; a bad file keeps the old policy and is reported. */
  reload(): Promise<string[]>;
}

export function createHookRuntime(agent: AgentProfile, opts: HookRuntimeOptions): ProjectRuntime {
  const home = opts.home ?? homedir();
  const gates = new Map<string, Promise<Gate>>();
  const gateFor = (root: string): Promise<Gate> => {
    let g = gates.get(root);
    if (!g) {
      const settings: SettingsSource[] = opts.agentSettings === false ? [] : agentSettingsSources(agent, root, home, opts.env ?? process.env);
      if (opts.config) settings.push({ source: 'project', file: resolve(opts.config), format: 'shellgate', optional: false });
      g = createGate({ settings, presets: opts.presets ?? [], analyzerDefaults: { maxInputLength: HOOK_MAX_INPUT_LENGTH } });
      // A gate that failed to build is not cached: the next call reports the error again.
      g.catch(() => gates.delete(root));
      gates.set(root, g);
    }
    return g;
  };
  let rules: Map<string, string> | null = null;
  return {
    version: opts.version,
    ...(opts.workspaceRoots ? { workspaceRoots: opts.workspaceRoots } : {}),
    ...(opts.mode ? { mode: opts.mode } : {}),
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.record ? { record: opts.record } : {}),
    ...(opts.askAsDeny ? { askAsDeny: true } : {}),
    ...(opts.shell ? { shell: opts.shell } : {}),
    gateFor,
    async decide(call: ToolCall, context: GateContext): Promise<Decision> {
      const cwd = context.cwd ?? process.cwd();
      const gate = await gateFor(existsSync(cwd) ? projectRootOf(agent, cwd) : cwd);
      if (rules === null) rules = new Map(gate.rules.filter((r) => r.safer).map((r) => [r.id, r.safer!]));
      return gate.evaluate(call, context);
    },
    hint(rule: string): string | undefined {
      return rules?.get(rule) ?? (CORE_FINDINGS as Record<string, { safer?: string }>)[rule]?.safer;
    },
    async reload(): Promise<string[]> {
      const errors: string[] = [];
      for (const [root, g] of gates) {
        const r = await (await g).reload();
        if (!r.ok) errors.push(`${root}: ${r.error}`);
      }
      return errors;
    },
  };
}
