#!/usr/bin/env node
/**
 * `shellgate check [--json] [--null] [--cwd DIR] [--workspace DIR]… [--mode MODE] [--config FILE] [--] [COMMAND]`
 * Exit status: 0 all allow, 1 strictest is ask, 2 deny, 64 usage error, 70 internal error.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createAnalyzer } from '../analyzer.js';
import { loadConfigFile } from '../config.js';
import { ShellgateError } from '../errors.js';
import { LEVEL_ORDER, type Level, type Verdict } from '../verdict/types.js';
import { parseCheckArgs, UsageError, type CheckArgs } from './args.js';
import { formatVerdict } from './format-text.js';
import { parseRulesArgs, rulesOutput } from './rules-command.js';

const EXIT: Record<Level, number> = { allow: 0, ask: 1, deny: 2 };
const EXIT_USAGE = 64;
const EXIT_INTERNAL = 70;
const MODES = ['default'];

const USAGE = `usage: shellgate check [--json] [--null|-0] [--cwd DIR] [--workspace DIR]... [--mode MODE] [--config FILE] [--] [COMMAND]

Analyse COMMAND (or stdin: one command per line, or NUL-separated with --null) and print
allow / ask / deny with the sub-commands, operations and findings behind it.

  --json            one JSON verdict per input command, one per line, in input order
  --null, -0        stdin holds NUL-separated commands
  --cwd DIR         directory the command runs in (default: current directory)
  --workspace DIR   workspace root; may repeat (default: --cwd)
  --mode MODE       approval mode (this version: default)
  --config FILE     JSON file of analyser options
  --color WHEN      auto (default), always, never

exit status: 0 all allow, 1 ask, 2 deny, 64 usage error, 70 internal error

       shellgate rules [--json] [--config FILE] [ID]

List every guard rule (id, level, message), or show one rule's rationale and examples.`;

function toJson(v: Verdict): string {
  return JSON.stringify({
    command: v.command,
    level: v.level,
    findings: v.findings,
    operations: v.operations,
    commands: v.commands.map((c) => ({
      id: c.id,
      program: c.program,
      programRaw: c.programRaw,
      argv: c.args.map((a) => a.value),
      cwd: c.cwd,
      parent: c.parent,
      via: c.context.via,
      span: c.span,
    })),
    trace: v.trace,
  });
}

async function check(args: CheckArgs): Promise<number> {
  if (args.mode !== null && !MODES.includes(args.mode)) {
    throw new UsageError(`unknown --mode "${args.mode}" (this version knows: ${MODES.join(', ')})`);
  }
  const options = args.config ? loadConfigFile(args.config) : {};
  const analyzer = await createAnalyzer(options);
  const cwd = resolve(args.cwd ?? process.cwd());
  const context = { cwd, workspaceRoots: args.workspaces.length > 0 ? args.workspaces.map((w) => resolve(w)) : [cwd], env: { ...process.env } };
  let commands: string[];
  if (args.command !== null) commands = [args.command];
  else {
    const input = readFileSync(0, 'utf8');
    commands = args.nul ? input.split('\0') : input.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    if (commands.length > 0 && commands[commands.length - 1] === '') commands.pop();
  }
  const color = args.color === 'always' || (args.color === 'auto' && process.stdout.isTTY === true && !process.env.NO_COLOR);
  let worst: Level = 'allow';
  const out: string[] = [];
  for (const c of commands) {
    const v = analyzer.analyze(c, context);
    if (LEVEL_ORDER[v.level] > LEVEL_ORDER[worst]) worst = v.level;
    out.push(args.json ? toJson(v) : formatVerdict(v, color) + '\n');
    if (out.length >= 256) flush(out);
  }
  flush(out);
  return EXIT[worst];
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
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    process.stdout.write(pkg.version + '\n');
    return 0;
  }
  if (sub === 'check') {
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(USAGE + '\n');
      return 0;
    }
    return check(parseCheckArgs(rest));
  }
  if (sub === 'rules') {
    const args = parseRulesArgs(rest);
    const analyzer = await createAnalyzer(args.config ? loadConfigFile(args.config) : {});
    process.stdout.write(rulesOutput(analyzer, args) + '\n');
    return 0;
  }
  throw new UsageError(`unknown command "${sub}" (try: shellgate check --help)`);
}

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
