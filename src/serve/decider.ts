/**
 * The decisions behind both transports: one hook runtime per agent (created on first use, its
 * gates cached per project), and `answerHook` for each event — the very code `shellgate hook`
 * runs, so an answer from the server is the answer the hook would give in-process.
 */
import type { ShellDialect } from '../syntax/dialects.js';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { AGENTS, isAgentId } from '../agents/registry.js';
import type { AgentProfile } from '../agents/types.js';
import { answerHook, type HookResult, type HookRuntime } from '../hook/answer.js';
import { agentSettingsSources, createHookRuntime, projectRootOf, type ProjectRuntime } from '../hook/runtime.js';
import type { AuditRecord } from '../audit/types.js';
import type { Mode } from '../policy/modes.js';
import type { PresetName } from '../policy/presets.js';
import { optionsKey, type PolicyOptions, type ServeRequest } from './protocol.js';

export interface DeciderOptions {
  policy: PolicyOptions;
  version: string;
  home: string;
  record?(r: AuditRecord): void;
  /** Called with the settings files a project's gate reads, the first time the project is seen. */
  onProjectFiles?(files: string[]): void;
}

export type Refusal = { refused: string; agent: AgentProfile | null };

export interface Decider {
  /** The agent's profile, or why there is none. */
  agentOf(id: string): AgentProfile | string;
  /** Decides one event; a refusal when the request cannot be answered as the client would in-process. */
  decide(agent: AgentProfile, input: string, from?: Omit<ServeRequest, 'agent' | 'input'>): Promise<HookResult | Refusal>;
  /** Re-reads every gate's settings; a bad file keeps the old policy (the errors are returned). */
  reload(): Promise<string[]>;
}

/** Environments sent by clients, interned: the analyser's verdict cache is keyed by the env object. */
function envInterner(limit = 16): (env: Record<string, string>) => Record<string, string> {
  const seen = new Map<string, Record<string, string>>();
  return (env) => {
    const key = JSON.stringify(env);
    let e = seen.get(key);
    if (!e) {
      if (seen.size >= limit) seen.delete(seen.keys().next().value as string);
      e = Object.freeze({ ...env }) as Record<string, string>;
      seen.set(key, e);
    }
    return e;
  };
}

/** The agent's profile, or why there is none. */
export function agentOf(id: string): AgentProfile | string {
  if (!isAgentId(id)) return `unknown agent "${id}"`;
  return AGENTS[id] ?? `no hook for ${id} yet`;
}

/**
 * Why a client's request is not answered here (null: it is): another version, other policy
 * options, a relative cwd. Checked before anything is decided — also before an answer the server
 * gives on its own (a passed deadline), which must never come from a policy the client does not run.
 */
export function clientRefusal(from: Omit<ServeRequest, 'agent' | 'input'>, version: string, ownKey: string): string | null {
  if (from.version !== undefined && from.version !== version) return `the server runs shellgate ${version}, the client ${from.version}`;
  if (from.options !== undefined && optionsKey(from.options) !== ownKey) {
    return 'the server runs with other policy options than the hook (--config, --preset, --mode, --workspace, --no-agent-settings, --audit-log)';
  }
  if (from.cwd !== undefined && !isAbsolute(from.cwd)) return `the client's cwd ${JSON.stringify(from.cwd)} is not an absolute path`;
  return null;
}

export function createDecider(opts: DeciderOptions): Decider {
  const runtimes = new Map<string, ProjectRuntime>();
  const ownKey = optionsKey(opts.policy);
  const intern = envInterner();
  // One snapshot of the server's environment: a fresh copy per call would defeat the verdict cache.
  const serverEnv = Object.freeze({ ...process.env });
  const seenProjects = new Set<string>();

  const runtimeOf = (agent: AgentProfile): ProjectRuntime => {
    let rt = runtimes.get(agent.id);
    if (!rt) {
      const p = opts.policy;
      rt = createHookRuntime(agent, {
        config: p.config,
        presets: p.presets as PresetName[],
        mode: p.mode as Mode | null,
        ...(p.workspaces.length > 0 ? { workspaceRoots: p.workspaces } : {}),
        agentSettings: p.agentSettings,
        askAsDeny: p.askAsDeny === true,
        ...(p.shell !== undefined ? { shell: p.shell as ShellDialect } : {}),
        env: serverEnv,
        home: opts.home,
        version: opts.version,
        ...(opts.record ? { record: opts.record } : {}),
      });
      runtimes.set(agent.id, rt);
    }
    return rt;
  };

  /** Tells the watcher which files a project's gate reads (the runtime resolves the same root). */
  const noteProject = (agent: AgentProfile, rt: ProjectRuntime, cwd: string): void => {
    if (!opts.onProjectFiles) return;
    const root = existsSync(cwd) ? projectRootOf(agent, cwd) : cwd;
    const key = `${agent.id}\0${root}`;
    if (seenProjects.has(key)) return;
    seenProjects.add(key);
    const files = opts.policy.agentSettings ? agentSettingsSources(agent, root, opts.home).map((s) => s.file!) : [];
    if (opts.policy.config) files.push(opts.policy.config);
    opts.onProjectFiles(files);
    // Guard rule files named in the settings are read too; known once the gate is built.
    rt.gateFor(root).then(
      (g) => {
        const extra = g.policy.analyzer.ruleFiles ?? [];
        if (extra.length > 0) opts.onProjectFiles!(extra);
      },
      () => seenProjects.delete(key), // the gate failed to build: try again on the next call
    );
  };

  return {
    agentOf,
    async decide(agent, input, from = {}) {
      const refused = clientRefusal(from, opts.version, ownKey);
      if (refused !== null) return { refused, agent };
      const rt = runtimeOf(agent);
      const view: HookRuntime = {
        ...rt,
        ...(from.env ? { env: intern(from.env) } : {}),
        ...(from.cwd ? { cwd: from.cwd } : {}),
        decide: (call, context) => {
          noteProject(agent, rt, context.cwd ?? from.cwd ?? process.cwd());
          return rt.decide(call, context);
        },
      };
      return answerHook(agent, input, view);
    },
    async reload() {
      const errors: string[] = [];
      for (const rt of runtimes.values()) errors.push(...(await rt.reload()));
      return errors;
    },
  };
}
