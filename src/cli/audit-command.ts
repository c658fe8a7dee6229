/**
 * `shellgate audit FILE [--all] [--json] [--top N] [--min-asks N] [--config FILE]`: summarise an
 * audit log — decisions per level, layer and rule, prompts per session, the most-asked commands,
 * and allow rules that would have spared the most frequent prompts (each checked against every
 * guard rule's examples). Malformed lines are counted and named, never fatal.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createGate } from '../policy/gate.js';
import { defaultSpecs, layerSpecs, loadSpecDir, type SpecTable } from '../programs/load-specs.js';
import { auditLogFiles } from '../audit/log.js';
import { readAuditFiles } from '../audit/read.js';
import { summariseAudit, type AuditSummary } from '../audit/summary.js';
import { jsonForTerminal, visible } from '../audit/terminal-text.js';
import { UsageError } from './args.js';

export const AUDIT_USAGE = `usage: shellgate audit FILE [--all] [--json] [--top N] [--min-asks N] [--config FILE]

Summarise an audit log (written by shellgate hook --audit-log, check --audit-log, or audit.file in
settings): decisions per level, deciding layer and rule; prompts per session; the most-asked
commands; and suggested allow rules for frequent prompts, none of which matches an example of a
guard rule.

  --all           read the rotated files too (FILE.1 … FILE.3)
  --json          one JSON object instead of text
  --top N         rows in each ranked list (default 10)
  --min-asks N    prompts a command needs before a rule is suggested for it (default 3)
  --config FILE   shellgate settings whose ruleFiles and commandSpecDirs apply`;

export interface AuditArgs {
  file: string;
  all: boolean;
  json: boolean;
  top: number;
  minAsks: number;
  config: string | null;
}

export function parseAuditArgs(argv: string[]): AuditArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        all: { type: 'boolean' },
        json: { type: 'boolean' },
        top: { type: 'string' },
        'min-asks': { type: 'string' },
        config: { type: 'string' },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('audit takes one log file (try: shellgate audit --help)');
  return {
    file: resolve(positionals[0]),
    all: values.all === true,
    json: values.json === true,
    top: positive(values.top, '--top', 10),
    minAsks: positive(values['min-asks'], '--min-asks', 3),
    config: values.config ?? null,
  };
}

function positive(v: string | undefined, flag: string, fallback: number): number {
  if (v === undefined) return fallback;
  if (!/^[1-9][0-9]*$/.test(v)) throw new UsageError(`${flag} takes a positive number`);
  return Number(v);
}

/** The log files to read, oldest first so records come in time order. */
function logFilesToRead(args: AuditArgs): string[] {
  if (args.all) return auditLogFiles(args.file).reverse();
  return existsSync(args.file) ? [args.file] : [];
}

export async function auditOutput(args: AuditArgs): Promise<string> {
  const files = logFilesToRead(args);
  if (files.length === 0) throw new UsageError(`${args.file}: no such audit log${args.all ? ' (nor rotated files)' : ''}`);
  const gate = await createGate({ settings: args.config ? [{ source: 'project', file: args.config, format: 'shellgate' }] : [] });
  let specs: SpecTable = defaultSpecs();
  for (const dir of gate.policy.analyzer.commandSpecDirs ?? []) specs = layerSpecs(specs, loadSpecDir(dir));
  const lines = readAuditFiles(files);
  const summary = summariseAudit(lines, {
    top: args.top,
    minAsks: args.minAsks,
    specs,
    guardRules: gate.rules,
    analyse: (command) => {
      const v = gate.evaluate({ tool: 'shell', args: { command } }).verdict;
      if (!v) throw new Error('no verdict');
      return v;
    },
  });
  // Everything shown comes from the log, which holds what an agent (or whoever steers it) wrote.
  return args.json ? jsonForTerminal(JSON.stringify({ files, ...summary })) : formatSummary(files, summary, args.top);
}

export function formatSummary(files: string[], s: AuditSummary, top = 10): string {
  const out: string[] = [];
  const pct = (n: number) => (s.records > 0 ? `${Math.round((n / s.records) * 100)}%` : '');
  out.push(`${files.join(', ')}: ${s.records} decision${s.records === 1 ? '' : 's'}${s.period ? `, ${s.period.first} → ${s.period.last}` : ''}`);
  if (s.notLogged.decisions > 0)
    out.push(`${s.notLogged.decisions} decision${s.notLogged.decisions === 1 ? '' : 's'} not logged (a write that failed, noted by the next record written)`);
  if (s.notLogged.tornLines > 0) out.push(`${s.notLogged.tornLines} line${s.notLogged.tornLines === 1 ? '' : 's'} cut short by a write that failed`);
  if (s.malformed.count > 0) {
    out.push(`${s.malformed.count} malformed line${s.malformed.count === 1 ? '' : 's'} skipped:`);
    for (const m of s.malformed.lines) out.push(`  ${m.file}:${m.line}: ${m.problem}`);
    if (s.malformed.count > s.malformed.lines.length) out.push(`  … and ${s.malformed.count - s.malformed.lines.length} more`);
  }
  const table = (title: string, rows: [string, string, string?][]) => {
    if (rows.length === 0) return;
    out.push('', title);
    // Escaped before the columns are measured, so an escape does not shift them.
    rows = rows.map(([a, b, c]) => [visible(a), visible(b), ...(c !== undefined ? [visible(c)] : [])] as [string, string, string?]);
    const w0 = Math.max(...rows.map((r) => r[0].length));
    const w1 = Math.max(...rows.map((r) => r[1].length));
    for (const [a, b, c] of rows) out.push(`  ${a.padEnd(w0)}  ${b.padStart(w1)}${c ? `  ${c}` : ''}`);
  };
  table(
    'Decisions',
    Object.entries(s.levels)
      .filter(([k, n]) => n > 0 || k !== 'defer')
      .map(([k, n]) => [k, String(n), pct(n)]),
  );
  table(
    'Deciding layer',
    Object.entries(s.layers).map(([k, n]) => [k, String(n), pct(n)]),
  );
  const ruleRows = Object.entries(s.rules);
  table(
    `Rules behind decisions${ruleRows.length > top ? ` (top ${top} of ${ruleRows.length})` : ''}`,
    ruleRows.slice(0, top).map(([k, n]) => [k, String(n)]),
  );
  if (Object.keys(s.agents).length > 1)
    table(
      'Agents',
      Object.entries(s.agents).map(([k, n]) => [k, String(n)]),
    );
  table(
    `Prompts per session${s.sessionCount > s.sessions.length ? ` (top ${s.sessions.length} of ${s.sessionCount})` : ''}`,
    s.sessions.map((x) => [x.session ?? '(no session)', String(x.asks), `asks in ${x.decisions} decision${x.decisions === 1 ? '' : 's'}`]),
  );
  table(
    'Asks per tool',
    Object.entries(s.askedTools).map(([k, n]) => [k, String(n)]),
  );
  table(
    `Most-asked commands${s.commandGroupCount > s.commands.length ? ` (top ${s.commands.length} of ${s.commandGroupCount})` : ''}`,
    s.commands.map((c) => [c.command, String(c.asks), c.distinct > 1 ? `${c.distinct} distinct, most often: ${clip(c.example)}` : clip(c.example)]),
  );
  out.push('', `Suggested allow rules (asked at least ${s.minAsks} times; none matches a guard rule's example)`);
  if (s.suggestions.length === 0) out.push('  none');
  else {
    const w = Math.max(...s.suggestions.map((x) => x.rule.length));
    for (const x of s.suggestions) out.push(`  ${x.rule.padEnd(w)}  would have spared ${x.asks} prompt${x.asks === 1 ? '' : 's'}`);
    out.push('  Paste into permissions.allow of your settings. Guard rules still deny what they deny.');
  }
  if (s.notSuggested.length > 0) {
    out.push('', 'Not suggested');
    for (const x of s.notSuggested) out.push(`  ${x.rule}  ${x.asks} prompt${x.asks === 1 ? '' : 's'}`, `      ${x.because}`);
  }
  // Each line escaped on its own: a newline inside a logged field is shown, not obeyed.
  return out.map(visible).join('\n');
}

function clip(text: string, max = 80): string {
  const one = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return one.length > max ? one.slice(0, max - 1) + '…' : one;
}
