/**
 * `shellgate explain [--json] [--cwd DIR] [--workspace DIR]… [--config FILE] [--settings FILE]…
 * [--preset NAME]… [--mode MODE] [--channel NAME] [--agent AGENT [--no-agent-settings]]
 * [--tool NAME --arg K=V…] [--] [COMMAND]`: why one call gets the answer it gets. With
 * `--agent`, the agent's own settings files are read as its hook reads them, so the answer is
 * the hook's. Exit status as `check`: 0 allow, 1 ask, 2 deny, 64 usage, 70 internal.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createGate, type GateContext } from '../policy/gate.js';
import { commandLineSource, type SettingsSource } from '../policy/settings.js';
import type { ToolCall } from '../policy/tool-calls.js';
import type { Mode } from '../policy/modes.js';
import type { PresetName } from '../policy/presets.js';
import { checkMode, checkPresets } from './policy-flags.js';
import { AGENTS, isAgentId } from '../agents/registry.js';
import { AGENT_IDS, type AgentProfile } from '../agents/types.js';
import { agentSettingsSources, projectRootOf } from '../hook/runtime.js';
import { steeringReason } from '../policy/steering.js';
import { CORE_FINDINGS, type FindingMeta } from '../findings/catalog.js';
import type { Level } from '../verdict/types.js';
import { checkShell, UsageError } from './args.js';
import { buildExplanation, renderExplanation } from './explain-render.js';
import type { ShellDialect } from '../syntax/dialects.js';

export const EXPLAIN_USAGE = `usage: shellgate explain [--json] [--cwd DIR] [--workspace DIR]... [--config FILE] [--settings FILE]...
                        [--preset NAME]... [--mode MODE] [--shell SHELL] [--channel NAME] [--agent AGENT [--no-agent-settings]]
                        [--tool NAME --arg K=V...] [--color WHEN] [--] [COMMAND]

Show why COMMAND (or stdin, read whole as one command) gets its answer: the parse, each
sub-command with its operations and where each operation came from (the command spec file and
operand or option, or the handler), the findings with their spans and safer ways, every policy
layer of the gate in order with what it returned and why, and the reason the agent reads.

  --json            the same story as one JSON object
  --agent AGENT     read AGENT's own settings files as its hook does (${AGENT_IDS.join(', ')});
                    --no-agent-settings: only --config/--settings
  --tool NAME       explain a tool call instead of a shell command (read_file, Read, web_fetch, mcp__…)
  --arg NAME=VALUE  an argument of that tool call; may repeat
  other options as for check

exit status: 0 allow, 1 ask, 2 deny, 64 usage error, 70 internal error`;

const EXIT: Record<Level, number> = { allow: 0, ask: 1, deny: 2 };

export interface ExplainArgs {
  json: boolean;
  cwd: string | null;
  workspaces: string[];
  config: string | null;
  settings: string[];
  shell: ShellDialect | null;
  presets: PresetName[];
  mode: Mode | null;
  channel: string | null;
  agent: AgentProfile | null;
  agentSettings: boolean;
  tool: string | null;
  toolArgs: Record<string, string>;
  color: 'auto' | 'always' | 'never';
  command: string | null;
}

export function parseExplainArgs(argv: string[]): ExplainArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        cwd: { type: 'string' },
        workspace: { type: 'string', multiple: true },
        config: { type: 'string' },
        settings: { type: 'string', multiple: true },
        preset: { type: 'string', multiple: true },
        mode: { type: 'string' },
        shell: { type: 'string' },
        channel: { type: 'string' },
        agent: { type: 'string' },
        'no-agent-settings': { type: 'boolean' },
        tool: { type: 'string' },
        arg: { type: 'string', multiple: true },
        color: { type: 'string' },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (e) {
    throw new UsageError(`${(e as Error).message.split('\n')[0]} (try: shellgate explain --help)`);
  }
  const v = parsed.values;
  const mode = checkMode(v.mode);
  const presets = checkPresets(v.preset ?? []);
  let agent: AgentProfile | null = null;
  if (v.agent !== undefined) {
    if (!isAgentId(v.agent)) throw new UsageError(`unknown --agent "${v.agent}" (known: ${AGENT_IDS.join(', ')})`);
    agent = AGENTS[v.agent] ?? null;
    if (agent === null) throw new UsageError(`no profile for ${v.agent} yet (known: ${Object.keys(AGENTS).join(', ')})`);
  }
  if (v['no-agent-settings'] && agent === null) throw new UsageError('--no-agent-settings is for --agent');
  const color = v.color ?? 'auto';
  if (color !== 'auto' && color !== 'always' && color !== 'never') throw new UsageError('--color must be auto, always or never');
  const toolArgs: Record<string, string> = {};
  for (const a of v.arg ?? []) {
    const eq = a.indexOf('=');
    if (eq <= 0) throw new UsageError(`--arg takes NAME=VALUE, not ${JSON.stringify(a)}`);
    toolArgs[a.slice(0, eq)] = a.slice(eq + 1);
  }
  if (v.arg !== undefined && v.tool === undefined) throw new UsageError('--arg is for --tool');
  return {
    json: v.json === true,
    cwd: v.cwd ?? null,
    workspaces: v.workspace ?? [],
    config: v.config ?? null,
    settings: v.settings ?? [],
    presets: presets as PresetName[],
    mode: mode as Mode | null,
    shell: v.shell === undefined ? null : checkShell(v.shell),
    channel: v.channel ?? null,
    agent,
    agentSettings: v['no-agent-settings'] !== true,
    tool: v.tool ?? null,
    toolArgs,
    color,
    command: parsed.positionals.length > 0 ? parsed.positionals.join(' ') : null,
  };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The settings the call is judged by: the agent's files (as its hook reads them), then --config and --settings. */
function settingsFor(args: ExplainArgs, cwd: string): SettingsSource[] {
  const out: SettingsSource[] = [];
  if (args.agent && args.agentSettings) out.push(...agentSettingsSources(args.agent, projectRootOf(args.agent, cwd), homedir()));
  if (args.config) out.push({ source: 'project', file: args.config, format: 'shellgate' });
  for (const f of args.settings) out.push({ source: commandLineSource(f, homedir()), file: f, format: settingsFormatOf(f) });
  return out;
}

/** The format of a settings file named on the command line, read from the agent folder it is in. */
function settingsFormatOf(file: string): SettingsSource['format'] {
  if (/\.qwen\//.test(file)) return 'qwen';
  if (/\.claude\//.test(file)) return 'claude';
  return undefined;
}

/** The agent's own shell tool (`Bash`) and its command argument, so the call reads as the hook reads it. */
function shellCall(agent: AgentProfile | null, command: string): ToolCall {
  const found = agent === null ? undefined : Object.entries(agent.tools).find(([, spec]) => spec.family === 'shell');
  if (found === undefined) return { tool: 'shell', args: { command } };
  return { tool: found[0], args: { [found[1].command?.[0] ?? 'command']: command } };
}

function readStdin(): string {
  if (process.stdin.isTTY === true) throw new UsageError('give a COMMAND, or pipe one on stdin (try: shellgate explain --help)');
  // One command, heredocs and newlines included; only the newline that ends the input is dropped.
  return readFileSync(0, 'utf8').replace(/\r?\n$/, '');
}

export async function runExplain(argv: string[], stdin: () => string = readStdin): Promise<{ output: string; exitCode: number }> {
  const args = parseExplainArgs(argv);
  const cwd = resolve(args.cwd ?? process.cwd());
  if (args.cwd !== null && !isDirectory(cwd)) throw new UsageError(`--cwd ${args.cwd}: not an existing directory`);
  for (const w of args.workspaces) if (!isDirectory(resolve(w))) throw new UsageError(`--workspace ${w}: not an existing directory`);
  let call: ToolCall;
  if (args.tool !== null) {
    if (args.command !== null) throw new UsageError('give either --tool with --arg, or a COMMAND');
    call = { tool: args.tool, args: { ...args.toolArgs } };
  } else {
    const command = args.command ?? stdin();
    call = shellCall(args.agent, command);
  }
  if (args.agent) call.agent = args.agent.id;
  const settings = settingsFor(args, cwd);
  const gate = await createGate({ settings, presets: args.presets });
  const context: GateContext = {
    cwd,
    workspaceRoots: args.workspaces.length > 0 ? args.workspaces.map((w) => resolve(w)) : [cwd],
    env: { ...process.env },
    ...(args.shell !== null ? { shell: args.shell } : {}),
    ...(args.mode !== null ? { mode: args.mode } : {}),
    ...(args.channel !== null ? { channel: args.channel } : {}),
  };
  const decision = gate.evaluate(call, context);
  const safer = new Map(gate.rules.filter((r) => r.safer).map((r) => [r.id, r.safer!]));
  const hint = (rule: string) => safer.get(rule) ?? (CORE_FINDINGS as Record<string, FindingMeta>)[rule]?.safer;
  const explanation = buildExplanation({
    tool: call.tool,
    args: call.args ?? {},
    agent: args.agent?.id ?? null,
    decision,
    context: {
      cwd,
      workspaceRoots: context.workspaceRoots!,
      mode: args.mode ?? gate.policy.defaultMode ?? 'default',
      channel: args.channel ?? 'cli',
      settings: settings.map((s) => ({ file: s.file ?? '(inline)', source: s.source, present: s.file === undefined || existsSync(s.file) })),
      presets: gate.policy.presets,
      warnings: gate.policy.warnings,
    },
    rulesInForce: gate.policy.rules,
    guardIds: new Set(gate.rules.map((r) => r.id)),
    hint,
    steering: steeringReason(decision, hint),
  });
  const color = args.color === 'always' || (args.color === 'auto' && process.stdout.isTTY === true && !process.env.NO_COLOR);
  return { output: args.json ? JSON.stringify(explanation) : renderExplanation(explanation, color), exitCode: EXIT[decision.level] };
}
