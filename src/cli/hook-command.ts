/**
 * `shellgate hook AGENT [--config FILE] [--preset NAME]… [--mode MODE] [--workspace DIR]…
 * [--no-agent-settings] [--audit-log FILE]`: read one pre-tool event from stdin and answer in
 * AGENT's protocol. Every failure — a bad flag, bad settings, bad input, an internal error — is
 * answered with the agent's blocking answer: a misconfigured hook must not let tools run.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AGENTS, isAgentId } from '../agents/registry.js';
import { AGENT_IDS, type AgentProfile, type HookAnswer } from '../agents/types.js';
import { POLICY_OPTIONS, readPolicyFlags, type PolicyFlags } from './policy-flags.js';
import { openAuditLog } from '../audit/config.js';
import { UsageError } from './args.js';
import { splitServerFlag } from '../serve/server-flag.js';

export const HOOK_USAGE = `usage: shellgate hook AGENT [--config FILE] [--preset NAME]... [--mode MODE] [--workspace DIR]...
                      [--no-agent-settings] [--audit-log FILE] [--ask-as-deny] [--shell SHELL] [--server [SOCKET]]

Read one pre-tool event from stdin (the agent's hook JSON) and answer allow / ask / deny in AGENT's
own protocol. AGENT: ${AGENT_IDS.join(', ')}. The agent's own permission settings are read too
(--no-agent-settings: only shellgate's). Any failure is answered with the agent's blocking answer.
--ask-as-deny: answer ask with deny, saying approval is needed (an agent or version that cannot ask).
--shell bash|zsh|sh|auto: the shell the agent runs commands in (default: the settings' "shell", else
what the agent runs: its documented shell, CLAUDE_CODE_SHELL, $SHELL).
--server: ask a running \`shellgate serve\` (default socket, or SOCKET) and decide in-process when it
is not there or runs with other flags.`;

export interface HookArgs extends PolicyFlags {
  agent: AgentProfile;
}

export function parseHookArgs(argv: string[]): HookArgs {
  const [id, ...rest] = argv;
  if (id === undefined || !isAgentId(id)) throw new UsageError(`hook needs an agent: ${AGENT_IDS.join(', ')}${id !== undefined ? ` (not "${id}")` : ''}`);
  const agent = AGENTS[id];
  if (!agent) throw new UsageError(`no hook for ${id} yet`);
  let values;
  try {
    ({ values } = parseArgs({ args: rest, options: POLICY_OPTIONS, strict: true, allowPositionals: false }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return { agent, ...readPolicyFlags(values) };
}

/** The blocking answer when not even the agent is known: exit 2 blocks in every protocol that has one. */
export function unknownAgentAnswer(message: string): HookAnswer {
  return { stdout: '', stderr: `shellgate: ${message}; blocked\n`, exitCode: 2 };
}

export async function runHook(argv: string[], version: string, stdin: () => string = () => readFileSync(0, 'utf8')): Promise<HookAnswer> {
  const via = splitServerFlag(argv);
  if (via.server !== undefined) return runHookViaServer(via.server, via.rest, version, stdin);
  let args: HookArgs;
  try {
    args = parseHookArgs(argv);
  } catch (e) {
    const id = argv[0];
    const agent = id !== undefined && isAgentId(id) ? AGENTS[id] : undefined;
    const msg = `usage error: ${(e as Error).message}`;
    return agent ? agent.hook.block(msg) : unknownAgentAnswer(msg);
  }
  const { agent } = args;
  // A log that cannot be written is reported beside the answer; the answer itself stands.
  const warnings: string[] = [];
  const withWarnings = (a: HookAnswer): HookAnswer =>
    warnings.length === 0 ? a : { ...a, stderr: a.stderr + warnings.map((w) => `shellgate: warning: ${w}\n`).join('') };
  try {
    // Loaded here, not at the top: `--server` answers without the analyser when a server is up.
    const [{ answerHook }, { createHookRuntime }] = await Promise.all([import('../hook/answer.js'), import('../hook/runtime.js')]);
    const audit = openAuditLog(args.auditLog, args.config, (m) => warnings.push(m));
    const rt = createHookRuntime(agent, {
      config: args.config,
      presets: args.presets,
      mode: args.mode,
      ...(args.workspaces.length > 0 ? { workspaceRoots: args.workspaces } : {}),
      agentSettings: args.agentSettings,
      askAsDeny: args.askAsDeny,
      ...(args.shell !== null ? { shell: args.shell } : {}),
      version,
      ...(audit ? { record: (r) => audit.append(r) } : {}),
    });
    const { answer } = await answerHook(agent, stdin(), rt);
    return withWarnings(answer);
  } catch (e) {
    return withWarnings(agent.hook.block(`cannot decide (${(e as Error).message}); blocked rather than let an unchecked call run`));
  }
}

/** `--server`: the server's answer when it gives the one this hook would; else decided here. */
async function runHookViaServer(socket: string | null, argv: string[], version: string, stdin: () => string): Promise<HookAnswer> {
  let input: string;
  try {
    input = stdin();
  } catch (e) {
    return runHook(argv, version, () => {
      throw e; // stdin unreadable: the in-process answer blocks
    });
  }
  let args: HookArgs | null = null;
  try {
    args = parseHookArgs(argv);
  } catch {
    // a usage error: the in-process answer below blocks with it
  }
  let note = '';
  if (args) {
    const options = {
      config: args.config ? resolve(args.config) : null,
      presets: args.presets,
      mode: args.mode,
      workspaces: args.workspaces,
      agentSettings: args.agentSettings,
      auditLog: args.auditLog !== null ? resolve(args.auditLog) : null,
      askAsDeny: args.askAsDeny,
      ...(args.shell !== null ? { shell: args.shell } : {}),
    };
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    const { askServer } = await import('../serve/client.js');
    const r = await askServer(socket, { agent: args.agent.id, input, options, version, cwd: process.cwd(), env, pid: process.pid });
    if ('answer' in r) return { stdout: r.answer.stdout, stderr: r.answer.stderr, exitCode: r.answer.exitCode };
    if (!r.quiet) note = `shellgate: --server: ${r.unavailable}; decided in-process\n`;
  }
  const answer = await runHook(argv, version, () => input);
  return note ? { ...answer, stderr: note + answer.stderr } : answer;
}
