#!/usr/bin/env node
/**
 * `shellgate check [--json] [--null] [--cwd DIR] [--workspace DIR]… [--mode MODE] [--config FILE] [--] [COMMAND]`
 * Exit status: 0 all allow, 1 strictest is ask, 2 deny, 64 usage error, 70 internal error.
 */
import { readFileSync, statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { resolve } from 'node:path';
import { createGate, type Decision, type GateContext } from '../policy/gate.js';
import { familyOf, type ToolCall } from '../policy/tool-calls.js';
import { createAutoGate } from '../auto/auto-gate.js';
import { createOpenAIClassifier } from '../auto/classifier.js';
import { MODES, type Mode } from '../policy/modes.js';
import { PRESETS, type PresetName } from '../policy/presets.js';
import { detectFormat, type SettingsSource } from '../policy/settings.js';
import { ShellgateError } from '../errors.js';
import { LEVEL_ORDER, type Level } from '../verdict/types.js';
import { parseCheckArgs, UsageError, type CheckArgs } from './args.js';
import { formatVerdict } from './format-text.js';
import { renderDecision } from './render.js';
import { runJobs } from './jobs.js';
import { parseRulesArgs, rulesOutput } from './rules-command.js';
import { HOOK_USAGE, runHook } from './hook-command.js';
import { INIT_USAGE, runInit } from './init-command.js';
import { EXPLAIN_USAGE, runExplain } from './explain-command.js';

const EXIT: Record<Level, number> = { allow: 0, ask: 1, deny: 2 };
const EXIT_USAGE = 64;
const EXIT_INTERNAL = 70;

const USAGE = `usage: shellgate check [--json] [--null|-0] [--cwd DIR] [--workspace DIR]... [--mode MODE] [--channel NAME]
                      [--config FILE] [--settings FILE]... [--preset NAME]... [--tool NAME --arg K=V...]\n                      [--classifier-url URL --classifier-model NAME] [--] [COMMAND]

Analyse COMMAND (or stdin: one command per line, or NUL-separated with --null) and print
allow / ask / deny with the sub-commands, operations and findings behind it.

  --json            one JSON verdict per input command, one per line, in input order
  --null, -0        stdin holds NUL-separated commands
  --cwd DIR         directory the command runs in (default: current directory)
  --workspace DIR   workspace root; may repeat (default: --cwd)
  --mode MODE       approval mode: plan, default, auto-edit, auto, yolo
  --channel NAME    cli (default), ide, chat, api, non-interactive (ask becomes deny)
  --config FILE     shellgate settings (rules, presets, mode, analyser options; rules/settings.schema.json)
  --settings FILE   import a Claude Code or Qwen Code settings file (.claude/… or .qwen/…); may repeat
  --preset NAME     jail or sensitive; may repeat
  --tool NAME       check a tool call instead of a shell command (read_file, write_file, edit, web_fetch, mcp__…)
  --arg NAME=VALUE  an argument of that tool call (path=…, url=…); may repeat
  --classifier-url URL         with --mode auto: an OpenAI-compatible endpoint (…/v1) for the classifier
  --classifier-model NAME      its model (stage 2, and stage 1 unless --classifier-fast-model)
  --classifier-fast-model NAME the model for stage 1
  --classifier-key-env VAR     the environment variable holding its API key
  --jobs N          analyse stdin in N worker threads (output keeps input order)
  --color WHEN      auto (default), always, never

exit status: 0 all allow, 1 ask, 2 deny, 64 usage error, 70 internal error

       shellgate explain [--json] [--agent AGENT] [options of check] [--] COMMAND

Show the whole story behind one decision: sub-commands, each operation and where it came from,
findings, every policy layer, and the reason the agent reads (shellgate explain --help).

       shellgate rules [--json] [--config FILE] [ID]

List every guard rule and core finding (id, level, message), or show one with why it exists,
a safer way, and (guard rules) its examples.`;

function settingsSources(config: string | null, settings: string[]): SettingsSource[] {
  const out: SettingsSource[] = [];
  if (config) out.push({ source: 'project', file: config, format: 'shellgate' });
  // --settings imports Claude Code or Qwen Code files; settings.local.json is the local layer.
  for (const f of settings) out.push({ source: /\.local\.json$/.test(f) ? 'local' : 'project', file: f, format: detectFormat(f), optional: false });
  return out;
}

async function check(args: CheckArgs): Promise<number> {
  if (args.mode !== null && !(MODES as readonly string[]).includes(args.mode)) {
    throw new UsageError(`unknown --mode "${args.mode}" (known: ${MODES.join(', ')})`);
  }
  for (const p of args.presets) if (!Object.prototype.hasOwnProperty.call(PRESETS, p)) throw new UsageError(`unknown --preset "${p}" (known: ${Object.keys(PRESETS).join(', ')})`);
  const gate = await createGate({ settings: settingsSources(args.config, args.settings), presets: args.presets as PresetName[] });
  const cwd = resolve(args.cwd ?? process.cwd());
  if (args.cwd !== null && !isDirectory(cwd)) throw new UsageError(`--cwd ${args.cwd}: not an existing directory`);
  for (const w of args.workspaces) if (!isDirectory(resolve(w))) throw new UsageError(`--workspace ${w}: not an existing directory`);
  const context: GateContext = {
    cwd,
    workspaceRoots: args.workspaces.length > 0 ? args.workspaces.map((w) => resolve(w)) : [cwd],
    env: { ...process.env },
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
  const decide = async (call: ToolCall): Promise<Decision> => (auto ? auto.decide(call, context) : gate.evaluate(call, context));
  if (args.tool !== null && familyOf(args.tool) !== 'shell') {
    const d = await decide({ tool: args.tool, args: args.toolArgs });
    process.stdout.write((args.json ? JSON.stringify({ tool: args.tool, args: args.toolArgs, level: d.level, reason: d.reason, findings: d.findings, parts: d.parts, trace: d.trace }) : formatDecision(args.tool, d, color)) + '\n');
    return EXIT[d.level];
  }
  let commands: string[];
  if (args.command !== null) commands = [args.command];
  else if (args.toolArgs.command !== undefined) commands = [args.toolArgs.command];
  else {
    const input = readFileSync(0, 'utf8');
    commands = args.nul ? input.split('\0') : input.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    if (commands.length > 0 && commands[commands.length - 1] === '') commands.pop();
  }
  let worst: Level = 'allow';
  const out: string[] = [];
  if (args.jobs > 1 && auto === null && commands.length > 1) {
    // Worker threads, each with its own gate; results come back in input order.
    const r = await runJobs(args.jobs, commands, { settings: settingsSources(args.config, args.settings), presets: args.presets, context, json: args.json, color });
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

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
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

async function main(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    process.stdout.write(USAGE + '\n');
    return sub === undefined ? EXIT_USAGE : 0;
  }
  if (sub === '--version') {
    process.stdout.write(version() + '\n');
    return 0;
  }
  if (sub === 'init') {
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(INIT_USAGE + '\n');
      return 0;
    }
    const r = runInit(rest);
    if (r.changed === undefined) process.stdout.write(`# add to ${r.file}\n${r.text}\n`);
    else if (!r.changed) process.stdout.write(`${r.file} already registers shellgate; nothing changed\n`);
    else process.stdout.write(`wrote ${r.file}${r.backup ? ` (the old file is kept as ${r.backup})` : ''}\n`);
    for (const n of r.notes) process.stderr.write(`note: ${n}\n`);
    return 0;
  }
  if (sub === 'hook') {
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(HOOK_USAGE + '\n');
      return 0;
    }
    const answer = await runHook(rest, version());
    if (answer.stderr) process.stderr.write(answer.stderr);
    if (answer.stdout) process.stdout.write(answer.stdout);
    return answer.exitCode;
  }
  if (sub === 'check') {
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    return check(parseCheckArgs(rest));
  }
  if (sub === 'explain') {
    const dash = rest.indexOf('--');
    const flags = dash < 0 ? rest : rest.slice(0, dash);
    if (flags.includes('--help') || flags.includes('-h')) {
      process.stdout.write(EXPLAIN_USAGE + '\n');
      return 0;
    }
    const r = await runExplain(rest);
    process.stdout.write(r.output + '\n');
    return r.exitCode;
  }
  if (sub === 'rules') {
    const args = parseRulesArgs(rest);
    const gate = await createGate({ settings: settingsSources(args.config, []) });
    process.stdout.write(rulesOutput(gate.rules, args) + '\n');
    return 0;
  }
  throw new UsageError(`unknown command "${sub}" (try: shellgate check --help)`);
}

// One decision per process: tiering WASM up to optimised code costs more than it saves, and Node
// waits at exit for the background compile (0.6–0.9 s against 0.3 s). Long runs keep tier-up.
if (process.argv[2] === 'hook' || (process.argv[2] === 'check' && process.stdin.isTTY !== false) || process.argv[2] === 'explain') setFlagsFromString('--liftoff-only');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UsageError || (e instanceof ShellgateError && e.kind !== 'internal')) {
      process.stderr.write(`shellgate: ${e.message}\n`);
      process.exitCode = EXIT_USAGE;
    } else {
      process.stderr.write(`shellgate: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = EXIT_INTERNAL;
    }
  },
);
