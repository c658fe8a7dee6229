/**
 * One reading of a command, in stages: input checks → parse → walk → operations → guard → final
 * level. Each stage adds its findings and one trace step; what they share (the parser, the
 * command specs, the guard rules, the path classifiers) is the analyser's `Engine`.
 */
import { readFileSync, statSync } from 'node:fs';
import type { ParseResult } from './syntax/parse-result.js';
import { LineWalker, type RawFinding, type WalkBudget } from './walk/walker.js';
import { identity } from './walk/source-frame.js';
import { newScope } from './walk/scope.js';
import { topLevelContext, type Arg } from './walk/types.js';
import { readersOf, readingsOf, readingsToWalk, walksText } from './walk/dialect.js';
import type { ShellReading } from './syntax/shell-readings.js';
import { operandRoles, parseArgv } from './programs/argv.js';
import type { SpecTable } from './programs/load-specs.js';
import { commandFacts } from './ops/operations.js';
import type { Operation } from './ops/types.js';
import { LineLinks } from './paths/line-links.js';
import { assessCommand, makeFinding, type AssessOptions } from './verdict/assess.js';
import { LEVEL_ORDER, stricter, type Finding, type Level, type TraceStep, type Verdict } from './verdict/types.js';
import { stageClock } from './stage-clock.js';
import { applyGuards } from './guard/apply.js';
import type { RuleSet } from './guard/load-rules.js';
import type { AnalysisContext, AnalyzerOptions } from './analyzer-options.js';
import type { ClassifierCache } from './analyzer-context.js';
import type { Consensus, FrontEnd } from './analyzer-front-ends.js';

/** What every analysis of one analyser shares, made once by createAnalyzer. */
export interface Engine {
  readonly opts: Required<AnalyzerOptions>;
  readonly parse: FrontEnd;
  /** The other parsers' reading, in consensus mode only. */
  readonly consensus: Consensus | null;
  readonly specs: SpecTable;
  readonly assessOpts: AssessOptions;
  readonly guards: RuleSet;
  readonly classifiers: ClassifierCache;
  /** The home of the analysis under way: what `~` in a guard rule stands for. */
  readonly analysisHome: { current: string };
}

const MAX_SOURCE_BYTES = 256 * 1024;

/**
 * Characters read differently by bash, tree-sitter and terminals: C0 controls other than tab and
 * newline (a lone CR hides text on a terminal and is part of a word for bash), DEL, and invisible
 * or direction-changing Unicode.
 */
const CONTROL_CHARACTERS = /[\x00-\x08\x0b-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

function describeControl(ch: string): string {
  const code = ch.codePointAt(0)!;
  const names: Record<number, string> = { 0: 'a NUL byte', 13: 'a carriage return', 11: 'a vertical tab', 12: 'a form feed', 27: 'an escape character' };
  return names[code] ?? `the invisible character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

const runsCommand = new WeakMap<object, boolean>();

function commandOperandStart(specs: SpecTable, program: string, args: Arg[]): number | null {
  const spec = specs.get(program);
  if (!spec) return null;
  let has = runsCommand.get(spec);
  if (has === undefined) {
    has = JSON.stringify(spec).includes('"command"');
    runsCommand.set(spec, has);
  }
  if (!has) return null;
  const parsed = parseArgv(spec, args);
  const roles = operandRoles(parsed);
  const i = roles.indexOf('command');
  return i < 0 ? null : args.indexOf(parsed.operands[i]);
}

/** Per spec and role: does any option of the spec have it (most have none: no parse then). */
const hasRole = new WeakMap<object, Map<string, boolean>>();

/** Values of a program's options of `role` (`tar --to-command=CMD`: shell-string), in order. */
function optionValues(specs: SpecTable, program: string, args: Arg[], role: 'shell-string' | 'chdir'): Arg[] {
  const spec = specs.get(program);
  if (!spec) return [];
  let known = hasRole.get(spec);
  if (known === undefined) hasRole.set(spec, (known = new Map()));
  let has = known.get(role);
  if (has === undefined) {
    has = JSON.stringify(spec).includes(`"${role}"`);
    known.set(role, has);
  }
  if (!has) return [];
  return parseArgv(spec, args).options.flatMap((o) => (o.spec?.role === role && o.value !== null ? [o.value] : []));
}

function readSourceFile(path: string): string | null {
  // /dev/fd/N and /proc are this process's own descriptors, not the script bash would read.
  if (path.startsWith('/dev/') || path.startsWith('/proc/')) return null;
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_SOURCE_BYTES) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * A directory `cd` can enter as the disk is now: it exists, is a directory, and everyone may
 * search it (or we own it and may): anything less may make the cd fail.
 */
function enterable(path: string): boolean {
  try {
    const st = statSync(path);
    if (!st.isDirectory()) return false;
    const uid = typeof process !== 'undefined' && typeof process.getuid === 'function' ? process.getuid() : -1;
    return uid === 0 || (st.mode & 0o111) === 0o111 || (st.uid === uid && (st.mode & 0o100) !== 0);
  } catch {
    return false;
  }
}

/** One reading of `command`: its verdict, with a trace step per stage. */
export function analyzeOnce(engine: Engine, command: string, ctx: Required<AnalysisContext>, budget?: WalkBudget): Verdict {
  const clock = stageClock.current; // bench/stages.mjs only
  clock?.lap('other');
  const trace: TraceStep[] = [];
  engine.analysisHome.current = ctx.home;
  const { source, raw } = checkInput(engine.opts.maxInputLength, command);
  const { parsed, readings, asWritten } = parseStage(engine, ctx, source, raw, trace);
  clock?.lap('parse');
  const walker = walkStage(engine, ctx, readings, source, budget);
  clock?.lap('walk');
  raw.push(...walker.findings);
  trace.push({ layer: 'walk', level: 'allow', reason: `${walker.commands.length} sub-command(s)` });
  const { findings, operations } = operationsStage(engine, ctx, walker, raw, trace);
  clock?.lap('ops');
  const guardFindings = applyGuards(engine.guards, walker.commands, operations, engine.specs);
  clock?.lap('guard');
  findings.push(...guardFindings);
  trace.push(guardStep(guardFindings));
  const { level, shown } = finalLevel(engine, command, asWritten ? parsed : null, walker, findings, trace);
  clock?.lap('other');
  return { command, level, findings: shown, commands: walker.commands, operations, trace };
}

/**
 * Before parsing: the text cut at the input limit, and findings for backslash-newlines inside a
 * word and for control characters (at most 5 findings in all from these checks).
 */
function checkInput(maxInputLength: number, command: string): { source: string; raw: RawFinding[] } {
  const raw: RawFinding[] = [];
  let source = command;
  if (source.length > maxInputLength) {
    raw.push({ rule: 'input-limit', detail: `${maxInputLength} characters`, span: { start: maxInputLength, end: command.length } });
    source = source.slice(0, maxInputLength);
  }
  for (const m of source.matchAll(/\S\\\n(?=\S)/g)) {
    raw.push({ rule: 'line-continuation', detail: `\`${m[0][0]}\\⏎${source[m.index! + 3] ?? ''}\``, span: { start: m.index! + 1, end: m.index! + 3 } });
    if (raw.length >= 5) break;
  }
  for (const m of source.matchAll(CONTROL_CHARACTERS)) {
    raw.push({ rule: 'control-character', detail: describeControl(m[0]), span: { start: m.index!, end: m.index! + 1 } });
    if (raw.length >= 5) break;
  }
  return { source, raw };
}

/**
 * Parse, read the text in each shell that may run it (bash's reading is the parse; dash's and
 * zsh's are it said in bash), a finding per parse issue of a reading that walks the text as
 * written, and in consensus mode the other parsers' opinion.
 */
function parseStage(
  engine: Engine,
  ctx: Required<AnalysisContext>,
  source: string,
  raw: RawFinding[],
  trace: TraceStep[],
): { parsed: ParseResult; readings: ShellReading[]; asWritten: boolean } {
  const parsed = engine.parse(source);
  const readings = readingsOf(readersOf(topLevelContext(), ctx.shell), source, parsed, engine.parse);
  // The parse's issues count where some shell's reading walks the text as written.
  const asWritten = walksText(readings);
  const issues = asWritten ? parsed.issues : [];
  for (const issue of issues) {
    const rule = issue.kind === 'doubt' ? 'parse-doubt' : 'parse-error';
    raw.push({ rule, detail: issue.kind === 'missing' ? `a missing \`${issue.text}\`` : `\`${issue.text.slice(0, 40)}\``, span: issue.span });
  }
  const clean = asWritten ? 'parsed cleanly' : `parsed cleanly as ${ctx.shell} reads it`;
  trace.push({ layer: 'parse', level: issues.length > 0 ? 'ask' : 'allow', reason: issues.length > 0 ? `${issues.length} parse issue(s)` : clean });
  if (engine.consensus !== null && parsed.issues.length === 0) {
    const { difference, reason } = engine.consensus(parsed, source);
    if (difference !== null) raw.push({ rule: 'parser-disagreement', detail: difference, span: { start: 0, end: source.length } });
    trace.push({ layer: 'consensus', level: difference === null ? 'allow' : 'ask', reason });
  }
  return { parsed, readings, asWritten };
}

/** Walk each shell's reading from the top level: its commands, findings and line links. */
function walkStage(engine: Engine, ctx: Required<AnalysisContext>, readings: ShellReading[], source: string, budget: WalkBudget | undefined): LineWalker {
  const { opts, specs } = engine;
  const walker = new LineWalker({
    home: ctx.home,
    env: ctx.env,
    cwd: ctx.cwd,
    parse: engine.parse,
    maxScriptDepth: opts.maxScriptDepth,
    maxFunctionWalks: opts.maxFunctionWalks,
    maxWalkSteps: opts.maxWalkSteps,
    ...(budget ? { budget } : {}),
    readSource: opts.followSource ? readSourceFile : () => null,
    enterable,
    commandStart: (program, args) => commandOperandStart(specs, program, args),
    optionValues: (program, args, role) => optionValues(specs, program, args, role),
    shell: ctx.shell,
  });
  const frame = { source, map: identity, scriptDepth: 0 };
  for (const walk of readingsToWalk(walker, readings, frame)) {
    const top = topLevelContext();
    walker.walkScript(walk.script, walk.frame, walk.via === null ? top : { ...top, via: [walk.via] }, newScope(ctx.cwd));
  }
  return walker;
}

/** The findings so far, then each walked command's operations and what they are judged. */
function operationsStage(
  engine: Engine,
  ctx: Required<AnalysisContext>,
  walker: LineWalker,
  raw: RawFinding[],
  trace: TraceStep[],
): { findings: Finding[]; operations: Operation[] } {
  const { opts, specs, assessOpts } = engine;
  const env = {
    specs,
    classifier: engine.classifiers.for(ctx),
    home: ctx.home,
    vars: ctx.env,
    links: new LineLinks(walker.lineLinks),
    readScript: opts.followSource ? readSourceFile : () => null,
  };
  const findings: Finding[] = raw.map((r) => makeFinding(r.rule, r.detail, r.span, r.command, assessOpts));
  const operations: Operation[] = [];
  let opsLevel: Level = 'allow';
  const all = walker.commands.map((cmd) => ({ cmd, facts: commandFacts(cmd, env) }));
  // Split names the disk showed whole (`find . | xargs cat`) may not be when the line itself can
  // make names first (`touch 'a /etc/passwd'; find . | xargs cat`): then they are unknown again.
  if (all.some(({ facts }) => facts.class !== 'read-only')) {
    for (const { facts } of all) for (const op of facts.ops) if (op.splitWhole) Object.assign(op, { dynamic: true, splitNames: true });
  }
  for (const { cmd, facts } of all) {
    const fs = assessCommand(cmd, facts, assessOpts, operations.length);
    operations.push(...facts.ops);
    for (const f of fs) opsLevel = stricter(opsLevel, f.level);
    findings.push(...fs);
  }
  trace.push({ layer: 'ops', level: opsLevel, reason: `${operations.length} operation(s)` });
  return { findings, operations };
}

function guardStep(guardFindings: Finding[]): TraceStep {
  let guardLevel: Level = 'allow';
  for (const f of guardFindings) guardLevel = stricter(guardLevel, f.level);
  return {
    layer: 'guard',
    level: guardLevel,
    reason: guardFindings.length > 0 ? [...new Set(guardFindings.map((f) => f.rule))].join(', ') : 'no guard rule matched',
  };
}

/**
 * The strictest finding's level (ask when nothing was read and the parse had issues), the
 * findings in text order with at most MAX_FINDINGS shown, and the final trace step.
 */
function finalLevel(
  engine: Engine,
  command: string,
  parsed: ParseResult | null,
  walker: LineWalker,
  findings: Finding[],
  trace: TraceStep[],
): { level: Level; shown: Finding[] } {
  let level: Level = 'allow';
  for (const f of findings) level = stricter(level, f.level);
  if (walker.commands.length === 0 && parsed !== null && parsed.issues.length > 0) level = stricter(level, 'ask');
  const byPlace = (a: Finding, b: Finding) => a.span.start - b.span.start || a.span.end - b.span.end;
  findings.sort(byPlace);
  const max = engine.opts.maxFindings;
  let shown = findings;
  if (findings.length > max) {
    // The strictest are listed first, so a deny is never among those left out; at one level, each
    // rule's first finding before any repeat, so a flood of one kind hides no other reason.
    const seen = new Set<string>();
    const repeat = findings.map((f) => seen.has(f.rule) || !seen.add(f.rule));
    shown = findings
      .map((f, i) => ({ f, i }))
      .sort((a, b) => LEVEL_ORDER[b.f.level] - LEVEL_ORDER[a.f.level] || Number(repeat[a.i]) - Number(repeat[b.i]) || a.i - b.i)
      .slice(0, max)
      .map((x) => x.f)
      .sort(byPlace);
    shown.push(
      makeFinding('input-limit', `${findings.length - max} more findings not listed`, { start: 0, end: command.length }, undefined, engine.assessOpts),
    );
  }
  const top = findings.find((f) => f.level === level && level !== 'allow');
  trace.push({ layer: 'final', level, reason: top ? `${top.rule}: ${top.message}` : 'every part is read-only inside the workspace' });
  return { level, shown };
}
