/**
 * `shellgate check`: analyse commands (an argument, or stdin one per line / NUL-separated) or one
 * tool call, print the verdicts, exit 0 / 1 / 2 for the strictest.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createGate, type Decision, type GateContext } from '../policy/gate.js';
import { familyOf, type ToolCall } from '../policy/tool-calls.js';
import { createAutoGate } from '../auto/auto-gate.js';
import { createOpenAIClassifier } from '../auto/classifier.js';
import type { Mode } from '../policy/modes.js';
import type { PresetName } from '../policy/presets.js';
import { checkMode, checkPresets } from './policy-flags.js';
import { commandLineSource, detectFormat, type SettingsSource } from '../policy/settings.js';
import { homedir } from 'node:os';
import { LEVEL_ORDER, type Level } from '../verdict/types.js';
import { UsageError, type CheckArgs } from './args.js';
import { formatVerdict } from './format-text.js';
import { renderDecision } from './render.js';
import { runJobs } from './jobs.js';
import { AuditLog } from '../audit/log.js';
import { decisionRecord } from '../audit/record.js';
import { EXIT, packageVersion } from './exit.js';
import { AGENT_IDS } from '../agents/types.js';

export function settingsSources(config: string | null, settings: string[]): SettingsSource[] {
  const out: SettingsSource[] = [];
  if (config) out.push({ source: 'project', file: config, format: 'shellgate' });
  // --settings imports Claude Code or Qwen Code files; settings.local.json is the local layer.
  for (const f of settings) out.push({ source: commandLineSource(f, homedir()), file: f, format: detectFormat(f), optional: false });
  return out;
}

export async function check(args: CheckArgs): Promise<number> {
  checkMode(args.mode);
  checkPresets(args.presets);
  const gate = await createGate({ settings: settingsSources(args.config, args.settings), presets: args.presets as PresetName[] });
  for (const w of gate.policy.warnings) process.stderr.write(`shellgate: warning: ${w}\n`);
  const cwd = resolve(args.cwd ?? process.cwd());
  if (args.cwd !== null && !isDirectory(cwd)) throw new UsageError(`--cwd ${args.cwd}: not an existing directory`);
  for (const w of args.workspaces) if (!isDirectory(resolve(w))) throw new UsageError(`--workspace ${w}: not an existing directory`);
  const context: GateContext = {
    cwd,
    workspaceRoots: args.workspaces.length > 0 ? args.workspaces.map((w) => resolve(w)) : [cwd],
    env: { ...process.env },
    ...(args.shell !== null ? { shell: args.shell } : {}),
    ...(args.mode !== null ? { mode: args.mode as Mode } : {}),
    ...(args.channel !== null ? { channel: args.channel } : {}),
  };
  const color = args.color === 'always' || (args.color === 'auto' && process.stdout.isTTY === true && !process.env.NO_COLOR);
  if (args.classifierUrl !== null && args.mode !== 'auto') throw new UsageError('--classifier-url is for --mode auto');
  const auto =
    args.mode === 'auto' && args.classifierUrl !== null
      ? createAutoGate(gate, {
          classifier: createOpenAIClassifier({
            baseUrl: args.classifierUrl,
            ...(args.classifierModel !== null ? { model: args.classifierModel } : {}),
            ...(args.classifierFastModel !== null ? { fastModel: args.classifierFastModel } : {}),
            ...(args.classifierKeyEnv !== null ? { apiKeyEnv: args.classifierKeyEnv } : {}),
          }),
        })
      : null;
  const audit = args.auditLog !== null ? new AuditLog(resolve(args.auditLog), { onError: (m) => process.stderr.write(`shellgate: warning: ${m}\n`) }) : null;
  const ver = audit ? packageVersion() : '';
  const decide = async (call: ToolCall): Promise<Decision> => {
    const start = performance.now();
    const d = await (auto ? auto.decide(call, context) : gate.evaluate(call, context));
    audit?.append(decisionRecord(call, d, { agent: 'cli', version: ver, cwd, durationMs: performance.now() - start }));
    return d;
  };
  if (args.tool !== null && familyOf(args.tool) !== 'shell') {
    const d = await decide({ tool: args.tool, args: args.toolArgs });
    process.stdout.write(
      (args.json
        ? JSON.stringify({ tool: args.tool, args: args.toolArgs, level: d.level, reason: d.reason, findings: d.findings, parts: d.parts, trace: d.trace })
        : formatDecision(args.tool, d, color)) + '\n',
    );
    return EXIT[d.level];
  }
  const commands = commandsOf(args);
  if (commands === null) return EXIT.deny;
  let worst: Level = 'allow';
  const out: string[] = [];
  // Worker threads do not log: with an audit log every decision is made (and recorded) here.
  if (args.jobs > 1 && auto === null && audit === null && commands.length > 1) {
    // Worker threads, each with its own gate; results come back in input order.
    const r = await runJobs(args.jobs, commands, {
      settings: settingsSources(args.config, args.settings),
      presets: args.presets,
      context,
      json: args.json,
      color,
    });
    process.stdout.write(r.outputs.map((o) => o + '\n').join(''));
    return EXIT[r.worst];
  }
  for (const c of commands) {
    const d = await decide({ tool: 'shell', args: { command: c } });
    if (LEVEL_ORDER[d.level] > LEVEL_ORDER[worst]) worst = d.level;
    out.push(renderDecision(d, args.json, color));
    if (out.length >= 256) flush(out);
  }
  flush(out);
  return EXIT[worst];
}

/**
 * The command lines to check: the argument, `--arg command=…`, or stdin's lines (NUL-separated with
 * `-0`). Null when stdin holds an agent's hook event instead: `check` wired as an agent's hook would
 * answer with exit 1 or 64, which most agents read as a non-blocking error and run the tool, so it
 * refuses with the one exit code they all block on.
 */
function commandsOf(args: CheckArgs): string[] | null {
  if (args.command !== null) return [args.command];
  if (args.toolArgs.command !== undefined) return [args.toolArgs.command];
  const input = readFileSync(0, 'utf8');
  const event = hookEventIn(input);
  if (event !== null) {
    process.stderr.write(
      `shellgate: stdin holds an agent's hook event (${event}), not commands: use \`shellgate hook AGENT\` (${AGENT_IDS.join(', ')}), which answers in the agent's protocol; blocked (exit 2)\n`,
    );
    return null;
  }
  const commands = args.nul ? input.split('\0') : input.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (commands.length > 0 && commands[commands.length - 1] === '') commands.pop();
  return commands;
}

/** The field that marks stdin as an agent's hook event (one JSON object), or null. */
export function hookEventIn(input: string): string | null {
  const t = input.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return null;
  let o: unknown;
  try {
    o = JSON.parse(t);
  } catch {
    return null;
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return null;
  for (const k of ['hook_event_name', 'tool_name', 'toolName', 'tool_input']) if (k in o) return `"${k}"`;
  return null;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function formatDecision(tool: string, d: Decision, color: boolean): string {
  const lines = [formatVerdict({ command: tool, level: d.level, findings: [], commands: [], operations: [], trace: d.trace }, color).split('\n')[0]];
  for (const p of d.parts) lines.push(`  ${p.label}: ${p.level} (${p.decidedBy})`);
  for (const f of d.findings) lines.push(`  ${f.level} ${f.rule}: ${f.message}`);
  lines.push(`  decided: ${d.reason}`);
  return lines.join('\n');
}

function flush(out: string[]): void {
  if (out.length === 0) return;
  process.stdout.write(out.join('\n') + '\n');
  out.length = 0;
}
