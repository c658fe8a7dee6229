/**
 * One pre-tool event in, one answer out, in the agent's own protocol. Every failure — input that
 * is not JSON, a missing field, a tool shellgate does not know, an error inside shellgate — is
 * answered with the agent's blocking answer, never with an exit code the agent reads as a
 * non-blocking error (which would let the tool run).
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Decision, GateContext } from '../policy/gate.js';
import type { ToolCall } from '../policy/tool-calls.js';
import type { AuditRecord } from '../audit/types.js';
import { redactSecrets } from '../auto/redact.js';
import { auditArguments } from '../audit/bounded-args.js';
import { dialectOfShell, HookInputError, type AgentProfile, type HookAnswer, type HookDecision, type HookRequest } from '../agents/types.js';
import { mcpNameOf, toolSpecOf } from '../agents/registry.js';
import { steeringReason } from '../policy/steering.js';

export interface HookRuntime {
  /** Decides one call (the gate, or the auto gate with a classifier). */
  decide(call: ToolCall, context: GateContext): Promise<Decision> | Decision;
  /** Workspace roots when the event names none (default: the event's cwd). */
  workspaceRoots?: string[];
  /** The directory for events that name no cwd (default: this process's; `serve` passes the hook's). */
  cwd?: string;
  /** Mode that overrides the agent's (`--mode`). */
  mode?: GateContext['mode'];
  /** The shell the agent runs commands in (`--shell`). */
  shell?: GateContext['shell'];
  env?: Record<string, string | undefined>;
  /** Called once per event with what was decided (the audit log). */
  record?(r: AuditRecord): void;
  version: string;
  /**
   * Answer ask with deny, saying approval is needed: for an agent or a version whose protocol has
   * no ask it honours (Gemini CLI before v0.36 lets an asked call run).
   */
  askAsDeny?: boolean;
  /** A safer alternative for a finding or guard rule id, when one is known (reasons that steer). */
  hint?(rule: string): string | undefined;
  /** Clock for durations (tests). */
  now?: () => number;
}

export interface HookResult {
  answer: HookAnswer;
  record: AuditRecord;
}

/**
 * What the log says the call was: a shell tool's command line, or the tool's arguments as JSON,
 * with secrets redacted (each string, and values under keys named like secrets).
 */
function summary(call: ToolCall | null, req: HookRequest | null, agent: AgentProfile): string {
  const tool = call?.tool ?? req?.tool;
  const args = call?.args ?? req?.args;
  const spec = tool !== undefined ? toolSpecOf(tool, agent.id) : null;
  if (spec?.family === 'shell') {
    const cmd = (spec.command ?? ['command']).map((n) => args?.[n]).find((v): v is string => typeof v === 'string');
    if (cmd !== undefined) return redactSecrets(cmd);
  }
  // Arguments nested too deep are summarised, never dropped (a throw here lost the record).
  return args ? auditArguments(args) : '';
}

/** What is known of the call so far: the record of a failure says as much as was decoded. */
interface CallState {
  start: number;
  req: HookRequest | null;
  call: ToolCall | null;
}

type Finish = (answer: HookAnswer, level: AuditRecord['level'], layer: string, rules: string[], reason: string) => HookResult;

/** The answer with its audit record, handed to the log once (the record is built only when read). */
function finisher(agent: AgentProfile, rt: HookRuntime, now: () => number, state: CallState): Finish {
  return (answer, level, layer, rules, reason) => {
    const time = new Date().toISOString();
    const durationMs = Math.round((now() - state.start) * 1000) / 1000;
    // Built only when read (the audit log, a server's failure answer): redacting the command is
    // work a decision without a log need not pay.
    let built: AuditRecord | null = null;
    const record = (): AuditRecord => {
      if (built) return built;
      const { req, call } = state;
      const family = req ? toolSpecOf(req.tool, agent.id)?.family : undefined;
      built = {
        time,
        agent: agent.id,
        ...(req?.session !== undefined ? { session: req.session } : {}),
        tool: req?.tool ?? '',
        ...(family !== undefined ? { family } : {}),
        command: summary(call, req, agent),
        ...(req?.cwd !== undefined ? { cwd: req.cwd } : {}),
        level,
        layer,
        rules,
        // The reason may quote the command (`Bash(curl *) denies curl -H …`, a JSON parse error's excerpt).
        reason: redactSecrets(reason),
        version: rt.version,
        durationMs,
      };
      return built;
    };
    if (rt.record) {
      try {
        rt.record(record());
      } catch {
        // The log records the decision; a log that fails does not change it (AuditLog reports its own failures).
      }
    }
    return {
      answer,
      get record() {
        return record();
      },
    };
  };
}

/** The agent's event decoded, or why it cannot be checked (the caller blocks with that reason). */
function decodeEvent(agent: AgentProfile, text: string): HookRequest | string {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (e) {
    return `the hook input is not JSON (${(e as Error).message}); blocked because nothing could be checked`;
  }
  try {
    return agent.hook.decode(input);
  } catch (e) {
    if (e instanceof HookInputError) return `${e.message}; blocked because the call could not be checked`;
    throw e;
  }
}

/** The gate's context for the event: its directory, workspace roots, environment and mode. */
function gateContext(agent: AgentProfile, req: HookRequest, rt: HookRuntime, workdir: string): GateContext {
  const mapped = req.mode !== undefined ? agent.modes[req.mode] : undefined;
  const eventRoots = req.workspaceRoots && req.workspaceRoots.length > 0 ? req.workspaceRoots : null;
  const runtimeRoots = rt.workspaceRoots && rt.workspaceRoots.length > 0 ? rt.workspaceRoots : null;
  return {
    cwd: workdir,
    workspaceRoots: eventRoots ?? runtimeRoots ?? [workdir],
    env: rt.env ?? { ...process.env },
    // The shell the agent runs commands in, read from the environment the hook inherits (a server
    // is sent the hook's): the settings' `shell` wins over it.
    agentShell: agent.shell ? agent.shell(rt.env ?? process.env, process.platform) : dialectOfShell((rt.env ?? process.env).SHELL),
    ...(rt.shell ? { shell: rt.shell } : {}),
    // An unknown mode name is read as `default`: never as one that asks less.
    mode: rt.mode ?? mapped?.mode ?? 'default',
    ...(mapped?.nonInteractive ? { channel: 'non-interactive' } : {}),
  };
}

export async function answerHook(agent: AgentProfile, text: string, rt: HookRuntime): Promise<HookResult> {
  const now = rt.now ?? (() => performance.now());
  const state: CallState = { start: now(), req: null, call: null };
  const finish = finisher(agent, rt, now, state);
  const block = (reason: string, layer: string): HookResult => finish(agent.hook.block(reason), 'deny', layer, [], reason);
  try {
    const decoded = decodeEvent(agent, text);
    if (typeof decoded === 'string') return block(decoded, 'hook-input');
    const req = (state.req = decoded);
    const mcp = mcpNameOf(req.tool, agent.id);
    const spec = toolSpecOf(req.tool, agent.id);
    if (spec === null && mcp === null) return block(`unknown tool "${req.tool}": shellgate cannot see what it does`, 'hook-input');
    if (spec?.family === 'meta') {
      const reason = `${req.tool} acts on the agent itself; its own permission flow decides`;
      return finish(agent.hook.encode({ level: 'defer', reason }, req), 'defer', 'tool-default', [], reason);
    }
    const cwd = req.cwd;
    if (cwd !== undefined && (!isAbsolute(cwd) || !existsSync(cwd) || !statSync(cwd).isDirectory())) {
      return block(`the hook input's cwd ${JSON.stringify(cwd)} is not an existing directory`, 'hook-input');
    }
    const context = gateContext(agent, req, rt, cwd ?? rt.cwd ?? process.cwd());
    const call = (state.call = { tool: mcp ?? req.tool, args: req.args, agent: agent.id });
    const d = await rt.decide(call, context);
    const steer = steeringReason(d, rt.hint);
    if (rt.askAsDeny && d.level === 'ask') {
      const reason = `${steer.text} (denied: approval is needed, and --ask-as-deny says this agent cannot ask)`;
      return finish(agent.hook.encode({ level: 'deny', reason }, req), 'deny', d.layer, steer.rules, reason);
    }
    const hd: HookDecision = { level: d.level, reason: steer.text };
    return finish(agent.hook.encode(hd, req), d.level, d.layer, steer.rules, steer.text);
  } catch (e) {
    return block(`internal error (${e instanceof Error ? e.message : String(e)}); blocked rather than let an unchecked call run`, 'internal-error');
  }
}
