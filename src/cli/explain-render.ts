/**
 * `shellgate explain`: the whole story behind one decision, as data (`buildExplanation`, the
 * `--json` output) and as text for a terminal (`renderExplanation`). The parse, each sub-command
 * with its context, each operation with where it came from (a command spec's operand or option,
 * or the code that reads the command), the findings with their spans, every policy layer of the
 * gate in order with what it returned and why, and the reason the agent would read.
 */
import type { Decision, PartDecision } from '../policy/gate.js';
import type { RuleEntry } from '../policy/settings.js';
import type { Operation, OpHandler, OpOrigin } from '../ops/types.js';
import type { WalkedCommand } from '../walk/types.js';
import type { Finding, Level, TraceStep } from '../verdict/types.js';
import type { Span } from '../syntax/ast.js';
import { CORE_FINDINGS, type FindingMeta } from '../findings/catalog.js';
import { caret, oneLine } from './format-text.js';
import { registry } from '../programs/registry.js';

/** The gate's layers, in the order it applies them (policy/gate.ts), with what each looks at. */
export const POLICY_LAYERS: readonly { layer: string; about: string }[] = [
  { layer: 'tool-default', about: "the analyser's verdict for a shell call; for other tools, reads inside the workspace allow, the rest asks" },
  { layer: 'whole-tool-deny', about: 'a deny rule naming the whole tool (`Bash`) ends it' },
  { layer: 'guard-deny', about: 'a built-in guard deny ends it; no rule, approval or mode lifts it' },
  { layer: 'rule-deny', about: 'a settings or preset deny rule matching any sub-command or operation ends it' },
  { layer: 'rule-ask', about: 'an ask rule matching any part asks, whatever allows' },
  { layer: 'rule-allow', about: 'allow rules and approvals lift the asks of the parts they match' },
  { layer: 'external-directory', about: 'a path outside the workspace asks unless a settings rule names it' },
  { layer: 'mode', about: 'plan denies what mutates, auto-edit approves workspace edits, yolo turns ask into allow' },
  { layer: 'channel', about: 'on a non-interactive channel ask becomes deny' },
];

/** Where the code paths that make operations live (ops/types.ts OpHandler). */
const HANDLER_SOURCES: Record<OpHandler, { file: string; what: string }> = {
  assignment: { file: 'src/ops/operations.ts', what: 'a NAME=value prefix or assignment' },
  redirect: { file: 'src/ops/redirects.ts', what: 'a redirect' },
  'program-handler': { file: 'src/ops/program-handlers.ts', what: 'the handler for' }, // or the program's hooks module
  wrapper: { file: 'src/ops/operations.ts', what: 'the wrapper or shell' },
  'program-path': { file: 'src/ops/operations.ts', what: 'a program given by path runs that file:' },
  'unknown-program': { file: 'src/ops/operations.ts', what: 'no command spec knows' },
  landing: { file: 'src/ops/landing.ts', what: 'where the copy, move or link lands, for' },
  'patch-targets': { file: 'src/ops/patch-targets.ts', what: 'files named inside the diff, for' },
  'project-config': { file: 'src/ops/project-config/', what: 'configuration the program loads, for' },
  'stdin-program': { file: 'src/ops/operations.ts', what: 'an interpreter reading its program from stdin:' },
  glob: { file: 'src/ops/glob-listings.ts', what: 'the shell listing a directory to expand a glob:' },
};

export interface ExplainedOperation {
  index: number;
  kind: Operation['kind'];
  /** The path, URL, host, program or target it is about. */
  what: string;
  target?: string;
  classes: string[];
  dynamic: boolean;
  glob: boolean;
  source: Operation['source'];
  origin: OpOrigin | null;
  /** `origin` in words: `rules/programs/rm.json: rm operand 1 (delete)`. */
  from: string;
  span: Span;
}

export interface ExplainedCommand {
  id: number;
  program: string | null;
  programRaw: string;
  argv: string[];
  cwd: string | null;
  /** Wrapper chain, outermost first (`wrapper:sudo`, `shell-c:bash`). */
  via: string[];
  parent: number | null;
  /** Where it sits: pipeline stage, substitution, background, conditional, loop, function, remote host. */
  where: string[];
  span: Span;
  text: string;
  operations: ExplainedOperation[];
}

export interface ExplainedFinding extends Finding {
  /** A built-in or user guard rule, a core finding of the analyser or the gate, or other. */
  source: 'guard' | 'core' | 'other';
  safer?: string;
}

export interface ExplainedLayer {
  layer: string;
  about: string;
  /** What the layer returned; null when the decision was made before it. */
  level: Level | null;
  reason: string;
  decided: boolean;
}

export interface Explanation {
  tool: string;
  args: Record<string, unknown>;
  agent: string | null;
  command: string | null;
  context: {
    cwd: string;
    workspaceRoots: string[];
    mode: string;
    channel: string;
    settings: { file: string; source: string; present: boolean }[];
    presets: string[];
    warnings?: string[];
  };
  /** Shell calls: did the command parse cleanly, and the parse findings (null for other tools). */
  parse: { clean: boolean; findings: ExplainedFinding[] } | null;
  commands: ExplainedCommand[];
  findings: ExplainedFinding[];
  /** The analyser's own steps (parse, walk, ops, guard, final), for shell calls. */
  analysis: TraceStep[];
  layers: ExplainedLayer[];
  parts: PartDecision[];
  rules: { level: string; rule: string; origin: string }[];
  decision: { level: Level; layer: string; reason: string; steering: string; rules: string[]; safer: string | null };
}

export interface ExplainInput {
  tool: string;
  args: Record<string, unknown>;
  agent: string | null;
  decision: Decision;
  context: Explanation['context'];
  rulesInForce: readonly RuleEntry[];
  guardIds: ReadonlySet<string>;
  hint: (rule: string) => string | undefined;
  steering: { text: string; rules: string[] };
}

export function originText(o: OpOrigin | undefined): string {
  if (o === undefined) return 'not recorded';
  if ('spec' in o) return `${o.spec}: ${o.program} ${specPartText(o)}${o.role !== undefined ? ` (${o.role})` : ''}`;
  const h = HANDLER_SOURCES[o.handler];
  // A program's own hooks live in programs/hooks/<module>; the shell builtins' in ops/program-handlers.ts.
  // Through the registry: a program may take its hooks from a tag (every interpreter's, every shell's).
  const hooks = o.handler === 'program-handler' && o.program !== undefined ? registry.get(o.program).hooks : undefined;
  const file = hooks?.module !== undefined ? `src/programs/hooks/${hooks.module}` : h.file;
  return `${file}: ${h.what}${o.program !== undefined ? ` ${o.program}` : ''}`;
}

/** Which part of a command spec an operation came from: an operand, an option, or a field of the spec. */
function specPartText(o: Extract<OpOrigin, { spec: string }>): string {
  if (o.operand !== undefined) return `operand ${o.operand}`;
  if (o.option !== undefined) return `option ${o.option}${o.field === 'reads' ? ' (a fixed file it reads)' : ''}`;
  if (o.field === 'reads') return '"reads" (a fixed file it reads)';
  if (o.field === 'writes') return '"writes" (what it writes whenever it runs)';
  if (o.field === 'ops') return '"ops" (an effect of the program itself)';
  return 'the program';
}

const SUBSTITUTION_SIGNS = { command: '$(…)', 'process-in': '<(…)', 'process-out': '>(…)' } as const;

function whereOf(c: WalkedCommand, all: readonly WalkedCommand[]): string[] {
  const x = c.context;
  const out: string[] = [];
  if (x.pipeline) out.push(`pipeline stage ${x.pipeline.index + 1} of ${x.pipeline.length}`);
  if (x.substitution) {
    const kind = SUBSTITUTION_SIGNS[x.substitution];
    const of = c.substitutionOf !== null ? all.find((o) => o.id === c.substitutionOf) : undefined;
    out.push(`inside ${kind}${of ? ` in #${of.id} ${of.program ?? of.programRaw}` : ''}`);
  }
  if (x.background) out.push('in the background (&)');
  if (x.negated) out.push('negated (!)');
  if (x.conditional) out.push('conditional (after && / || or in if/while/case)');
  if (x.loop) out.push(x.infiniteLoop ? 'in a loop that never ends' : 'in a loop');
  if (x.functionName) out.push(`in function ${x.functionName}`);
  if (c.calls) out.push(`calls function ${c.calls.name}${c.calls.maybe ? ' (or the program of that name)' : ''}`);
  if (x.remote) out.push(`on host ${x.remote}`);
  if (x.privileged) out.push('with raised privileges');
  if (out.length === 0) out.push('top level');
  return out;
}

function findingSource(rule: string, guardIds: ReadonlySet<string>): ExplainedFinding['source'] {
  if (guardIds.has(rule)) return 'guard';
  return Object.prototype.hasOwnProperty.call(CORE_FINDINGS, rule) ? 'core' : 'other';
}

function explainFinding(f: Finding, input: Pick<ExplainInput, 'guardIds' | 'hint'>): ExplainedFinding {
  const source = findingSource(f.rule, input.guardIds);
  const safer = input.hint(f.rule);
  return { ...f, source, ...(safer ? { safer } : {}) };
}

const PARSE_FINDINGS = new Set(
  Object.entries(CORE_FINDINGS as Record<string, FindingMeta>)
    .filter(([, m]) => m.category === 'parse')
    .map(([id]) => id),
);

export function buildExplanation(input: ExplainInput): Explanation {
  const d = input.decision;
  const v = d.verdict;
  const findings = d.findings.map((f) => explainFinding(f, input));
  const operations = (v?.operations ?? []).map((op, index): ExplainedOperation => ({
    index,
    kind: op.kind,
    what: op.path ?? op.url ?? op.host ?? op.program ?? op.target ?? '',
    ...(op.target !== undefined ? { target: op.target } : {}),
    classes: op.classes ?? [],
    dynamic: op.dynamic,
    glob: op.glob,
    source: op.source,
    origin: op.origin ?? null,
    from: originText(op.origin),
    span: op.span,
  }));
  const commands = (v?.commands ?? []).map((c): ExplainedCommand => ({
    id: c.id,
    program: c.program,
    programRaw: c.programRaw,
    argv: c.args.map((a) => a.value),
    cwd: c.cwd,
    via: c.context.via,
    parent: c.parent,
    where: whereOf(c, v!.commands),
    span: c.span,
    text: c.text,
    operations: operations.filter((_, i) => v!.operations[i].command === c.id),
  }));
  // The gate records each layer it reached, then `final`; the layers after the deciding one were not reached.
  const byLayer = new Map<string, TraceStep>();
  for (const t of d.trace) if (t.layer !== 'final') byLayer.set(t.layer, t);
  const layers = POLICY_LAYERS.map(({ layer, about }): ExplainedLayer => {
    const t = byLayer.get(layer);
    return t
      ? { layer, about, level: t.level, reason: t.reason, decided: layer === d.layer }
      : { layer, about, level: null, reason: `not reached: ${d.layer} decided`, decided: false };
  });
  const parseFindings = findings.filter((f) => PARSE_FINDINGS.has(f.rule));
  const named = input.steering.rules.filter((r) => d.reason.startsWith(`${r}:`));
  const safer = [...named, ...input.steering.rules].map((r) => input.hint(r)).find((h) => h !== undefined && h !== '') ?? null;
  return {
    tool: input.tool,
    args: input.args,
    agent: input.agent,
    command: v ? v.command : null,
    context: input.context,
    parse: v ? { clean: parseFindings.length === 0 && v.trace.find((t) => t.layer === 'parse')?.level === 'allow', findings: parseFindings } : null,
    commands,
    findings,
    analysis: v?.trace ?? [],
    layers,
    parts: d.parts,
    rules: input.rulesInForce.map((e) => ({ level: e.level, rule: e.rule.text, origin: e.origin })),
    decision: { level: d.level, layer: d.layer, reason: d.reason, steering: input.steering.text, rules: input.steering.rules, safer },
  };
}

const COLORS: Record<Level | 'dim' | 'bold', string> = { allow: '32', ask: '33', deny: '31', dim: '2', bold: '1' };
const MAX_RULES_SHOWN = 40;

export function renderExplanation(e: Explanation, color: boolean): string {
  const c = (k: keyof typeof COLORS, s: string) => (color ? `\x1b[${COLORS[k]}m${s}\x1b[0m` : s);
  const lvl = (l: Level) => c(l, l.padEnd(5));
  const out: string[] = [];
  const head = e.command !== null ? oneLine(e.command) : `${e.tool} ${oneLine(JSON.stringify(e.args))}`;
  out.push(`${c('bold', 'EXPLAIN')}  ${head}`);
  const ctx = e.context;
  out.push(`  cwd ${ctx.cwd} · workspace ${ctx.workspaceRoots.join(', ')} · mode ${ctx.mode} · channel ${ctx.channel}${e.agent ? ` · agent ${e.agent}` : ''}`);
  const files = ctx.settings.map((s) => `${s.file} (${s.source}${s.present ? '' : ', missing: skipped'})`);
  out.push(`  settings: ${files.length > 0 ? files.join(', ') : 'none'}${ctx.presets.length > 0 ? ` · presets: ${ctx.presets.join(', ')}` : ''}`);
  for (const w of ctx.warnings ?? []) out.push(`  ${c('ask', 'not applied')}: ${w}`);

  if (e.command !== null && e.parse !== null) {
    out.push('', c('bold', 'Parse'));
    if (e.parse.clean) out.push('  parsed cleanly: bash and shellgate read the text the same way');
    else if (e.parse.findings.length === 0) out.push(`  ${e.analysis.find((t) => t.layer === 'parse')?.reason ?? 'parse issues'}`);
    for (const f of e.parse.findings) out.push(...findingLines(f, e.command, c));

    out.push('', c('bold', `Sub-commands (${e.commands.length})`));
    if (e.commands.length === 0) out.push('  none: nothing runs');
    for (const cmd of e.commands) {
      out.push(
        `  #${cmd.id} ${c('bold', cmd.program ?? (cmd.programRaw || (cmd.argv.length > 0 ? '(globs the shell expands)' : '(redirects/assignments)')))}${cmd.argv.length > 0 ? ' ' + oneLine(cmd.argv.join(' ')) : ''}`,
      );
      out.push(`      argv   ${oneLine(JSON.stringify([cmd.program ?? cmd.programRaw, ...cmd.argv]))}`);
      out.push(`      cwd    ${cmd.cwd ?? '(unknown: changed by a command shellgate cannot follow)'}`);
      if (cmd.via.length > 0) out.push(`      via    ${cmd.via.join(' › ')}${cmd.parent !== null ? `  (unwrapped from #${cmd.parent})` : ''}`);
      out.push(`      where  ${cmd.where.join(', ')}`);
      if (cmd.operations.length === 0) out.push(`      ${c('dim', 'no operations')}`);
      for (const op of cmd.operations) {
        const cls = op.classes.length > 0 ? c('dim', ` [${op.classes.join(', ')}]`) : '';
        out.push(
          `      ${c('dim', `op ${op.index}`)}  ${op.kind} ${oneLine(op.what)}${op.dynamic ? c('dim', ' (dynamic)') : ''}${op.glob ? c('dim', ' (glob)') : ''}${cls}`,
        );
        out.push(`            ${c('dim', '←')} ${op.from}`);
      }
    }
  }

  out.push('', c('bold', `Findings (${e.findings.length})`));
  if (e.findings.length === 0) out.push('  none');
  for (const f of e.findings) out.push(...findingLines(f, e.command, c));

  if (e.analysis.length > 0) {
    out.push('', c('bold', 'Analyser'));
    const w = Math.max(...e.analysis.map((t) => t.layer.length));
    for (const t of e.analysis) out.push(`  ${t.layer.padEnd(w)}  ${lvl(t.level)}  ${oneLine(t.reason)}`);
  }

  out.push('', c('bold', 'Policy layers'));
  const w = Math.max(...e.layers.map((l) => l.layer.length));
  e.layers.forEach((l, i) => {
    const level = l.level === null ? c('dim', '—'.padEnd(5)) : lvl(l.level);
    out.push(
      `  ${i + 1} ${l.layer.padEnd(w)}  ${level}  ${l.level === null ? c('dim', l.reason) : oneLine(l.reason)}${l.decided ? c('bold', '  ◀ decided') : ''}`,
    );
    out.push(`    ${' '.repeat(w)}         ${c('dim', l.about)}`);
  });

  if (e.parts.length > 0) {
    out.push('', c('bold', 'Parts'));
    for (const p of e.parts) out.push(`  ${lvl(p.level)}  ${oneLine(p.label)}  ${c('dim', `(${p.decidedBy})`)}`);
  }

  out.push('', c('bold', `Settings rules in force (${e.rules.length})`));
  if (e.rules.length === 0) out.push('  none');
  if (ctx.presets.length > 0) out.push(`  ${c('dim', `and the deny rules of the preset(s) ${ctx.presets.join(', ')}`)}`);
  for (const r of e.rules.slice(0, MAX_RULES_SHOWN)) out.push(`  ${r.level.padEnd(5)}  ${r.rule}  ${c('dim', r.origin)}`);
  if (e.rules.length > MAX_RULES_SHOWN) out.push(`  … ${e.rules.length - MAX_RULES_SHOWN} more (--json lists them all)`);

  const d = e.decision;
  out.push('', `${c('bold', 'Decision')}  ${c(d.level, c('bold', d.level.toUpperCase()))}  decided by ${d.layer}`);
  out.push(`  ${flat(d.reason)}`);
  if (d.safer) out.push(`  safer: ${d.safer}`);
  out.push(`  the agent reads: ${flat(d.steering)}`);
  return out.join('\n');
}

/** One line, control characters shown harmlessly, nothing cut (the reason is read whole). */
function flat(s: string): string {
  return s.replace(/[\x00-\x1f\x7f]/g, (ch) => (ch === '\n' ? '⏎' : ' '));
}

const FINDING_KINDS: Record<ExplainedFinding['source'], string> = { guard: 'guard rule', core: 'core finding', other: 'finding' };

function findingLines(f: ExplainedFinding, text: string | null, c: (k: keyof typeof COLORS, s: string) => string): string[] {
  const about = f.command !== undefined ? ` (#${f.command}${f.operation !== undefined ? `, op ${f.operation}` : ''})` : '';
  const kind = FINDING_KINDS[f.source];
  const attack = f.attack ? `, ATT&CK ${f.attack.join(' ')}` : '';
  const lines = [
    `  ${c(f.level, f.level.padEnd(5))}  ${c('bold', f.rule)}  ${c('dim', `[${f.category}, ${kind}${attack}]${about}`)}`,
    `         ${oneLine(f.message)}`,
  ];
  if (text !== null && f.span.end > f.span.start) lines.push(...caret(text, f.span.start, f.span.end).map((l) => '         ' + l));
  if (f.safer) lines.push(`         safer: ${f.safer}`);
  return lines;
}
