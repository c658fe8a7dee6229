#!/usr/bin/env node
/**
 * The `shellgate` command line: one dispatcher, each command in its own module, loaded only when
 * that command runs (a hook call should not initialise the linter, the server or the auditor).
 */
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { ShellgateError } from '../errors.js';
import { UsageError } from './args.js';
import { EXIT_INTERNAL, EXIT_USAGE, packageVersion } from './exit.js';

const USAGE = `usage: shellgate check [--json] [--null|-0] [--cwd DIR] [--workspace DIR]... [--mode MODE] [--shell SHELL]
                      [--channel NAME] [--config FILE] [--settings FILE]... [--preset NAME]... [--tool NAME --arg K=V...]\n                      [--classifier-url URL --classifier-model NAME] [--] [COMMAND]

Analyse COMMAND (or stdin: one command per line, or NUL-separated with --null) and print
allow / ask / deny with the sub-commands, operations and findings behind it.

  --json            one JSON verdict per input command, one per line, in input order
  --null, -0        stdin holds NUL-separated commands
  --cwd DIR         directory the command runs in (default: current directory)
  --workspace DIR   workspace root; may repeat (default: --cwd)
  --mode MODE       approval mode: plan, default, auto-edit, auto, yolo
  --shell SHELL     the shell that runs the command: bash (default), zsh, sh (dash: /bin/sh on Debian
                    and Ubuntu), auto (not known: every reading, the strictest kept); or settings "shell"
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
  --audit-log FILE  append one JSON line per decision to FILE (agent "cli"; see shellgate audit)
  --color WHEN      auto (default), always, never

exit status: 0 all allow, 1 ask, 2 deny, 64 usage error, 70 internal error

       shellgate explain [--json] [--agent AGENT] [options of check] [--] COMMAND

Show the whole story behind one decision: sub-commands, each operation and where it came from,
findings, every policy layer, and the reason the agent reads (shellgate explain --help).

       shellgate rules [--json] [--config FILE] [ID]

List every guard rule, core finding and lint rule (id, level, message), or show one with why it exists,
a safer way, and (guard rules) its examples.

       shellgate lint [--format text|json|sarif|github] [--fail-on deny|ask] [PATH…]

Report the risky commands in scripts, Dockerfiles, CI workflows, package.json scripts, Makefiles
and compose files at their file positions (shellgate lint --help).

       shellgate playground [--port N]

Serve the playground, a page that runs shellgate in the browser, on 127.0.0.1 (npm run playground builds it).

       shellgate audit FILE [--all] [--json] [--top N] [--min-asks N]

Summarise an audit log and suggest allow rules for frequent prompts (shellgate audit --help).

       shellgate serve [--socket PATH] [--http PORT] [--idle-timeout SECONDS] [hook flags]

Answer hook events from a resident server per user (Unix socket, HTTP on 127.0.0.1); see serve --help.`;

const wantsHelp = (args: string[]): boolean => {
  const dash = args.indexOf('--');
  const flags = dash < 0 ? args : args.slice(0, dash);
  return flags.includes('--help') || flags.includes('-h');
};

async function main(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    process.stdout.write(USAGE + '\n');
    return sub === undefined ? EXIT_USAGE : 0;
  }
  if (sub === '--version') {
    process.stdout.write(packageVersion() + '\n');
    return 0;
  }
  switch (sub) {
    case 'check': {
      if (wantsHelp(rest)) return help(USAGE);
      const [{ check }, { parseCheckArgs }] = await Promise.all([import('./check-command.js'), import('./args.js')]);
      return check(parseCheckArgs(rest));
    }
    case 'hook': {
      const { HOOK_USAGE, runHook } = await import('./hook-command.js');
      if (wantsHelp(rest)) return help(HOOK_USAGE);
      const answer = await runHook(rest, packageVersion());
      if (answer.stderr) process.stderr.write(answer.stderr);
      if (answer.stdout) process.stdout.write(answer.stdout);
      return answer.exitCode;
    }
    case 'init': {
      const { INIT_USAGE, runInit } = await import('./init-command.js');
      if (wantsHelp(rest)) return help(INIT_USAGE);
      const r = runInit(rest);
      if (r.changed === undefined) process.stdout.write(`# add to ${r.file}\n${r.text}\n`);
      else if (!r.changed) process.stdout.write(`${r.file} already registers shellgate; nothing changed\n`);
      else process.stdout.write(`wrote ${r.file}${r.backup ? ` (the old file is kept as ${r.backup})` : ''}\n`);
      for (const n of r.notes) process.stderr.write(`note: ${n}\n`);
      return 0;
    }
    case 'serve': {
      const { SERVE_USAGE, runServe } = await import('./serve-command.js');
      if (wantsHelp(rest)) return help(SERVE_USAGE);
      return runServe(rest, packageVersion());
    }
    case 'explain': {
      const { EXPLAIN_USAGE, runExplain } = await import('./explain-command.js');
      if (wantsHelp(rest)) return help(EXPLAIN_USAGE);
      const r = await runExplain(rest);
      process.stdout.write(r.output + '\n');
      return r.exitCode;
    }
    case 'audit': {
      const { AUDIT_USAGE, auditOutput, parseAuditArgs } = await import('./audit-command.js');
      if (wantsHelp(rest)) return help(AUDIT_USAGE);
      process.stdout.write((await auditOutput(parseAuditArgs(rest))) + '\n');
      return 0;
    }
    case 'lint': {
      const { LINT_USAGE, parseLintArgs, runLint } = loadLint();
      if (wantsHelp(rest)) return help(LINT_USAGE);
      return runLint(parseLintArgs(rest));
    }
    case 'playground': {
      const { PLAYGROUND_USAGE, parsePlaygroundArgs, servePlayground } = await import('./playground-command.js');
      if (wantsHelp(rest)) return help(PLAYGROUND_USAGE);
      const { url } = await servePlayground(parsePlaygroundArgs(rest).port);
      process.stdout.write(`shellgate playground: ${url}  (Ctrl-C stops it)\n`);
      return new Promise<number>(() => {});
    }
    case 'rules': {
      const [{ parseRulesArgs, rulesOutput }, { createGate }, { settingsSources }] = await Promise.all([
        import('./rules-command.js'),
        import('../policy/gate.js'),
        import('./check-command.js'),
      ]);
      const args = parseRulesArgs(rest);
      const gate = await createGate({ settings: settingsSources(args.config, []) });
      process.stdout.write(rulesOutput(gate.rules, args) + '\n');
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${sub}" (try: shellgate check --help)`);
  }
}

/**
 * The linter is a bundle of its own (dist/cli/lint.cjs, next to this file and to the CLI bundle):
 * its YAML parser and source kinds would add 400 KB to what every hook call loads.
 */
function loadLint(): typeof import('./lint-command.js') {
  return createRequire(import.meta.url)('./lint.cjs') as typeof import('./lint-command.js');
}

/**
 * A usage or configuration error (exit 64) rather than a bug (exit 70). Known by name, not by
 * class: the lint bundle (dist/cli/lint.cjs) has its own copies of both classes.
 */
function isUserError(e: unknown): e is Error {
  if (e instanceof UsageError || (e instanceof ShellgateError && e.kind !== 'internal')) return true;
  if (!(e instanceof Error)) return false;
  return e.name === 'UsageError' || (e.name === 'ShellgateError' && (e as { kind?: unknown }).kind !== 'internal');
}

function help(text: string): number {
  process.stdout.write(text + '\n');
  return 0;
}

// One decision per process: tiering WASM up to optimised code costs more than it saves, and Node
// waits at exit for the background compile (0.6–0.9 s against 0.3 s). Long runs keep tier-up.
// (bin/shellgate.cjs sets the same flag before anything is compiled.)
const oneCommand = (argv: string[]): boolean => !argv.includes('--jobs') && (argv.includes('--') || !(argv[argv.length - 1] ?? '-').startsWith('-'));
if (process.argv[2] === 'hook' || process.argv[2] === 'explain' || (process.argv[2] === 'check' && process.argv.length > 3 && oneCommand(process.argv)))
  setFlagsFromString('--liftoff-only');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (isUserError(e)) {
      process.stderr.write(`shellgate: ${e.message}\n`);
      process.exitCode = EXIT_USAGE;
    } else {
      process.stderr.write(`shellgate: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = EXIT_INTERNAL;
    }
  },
);
