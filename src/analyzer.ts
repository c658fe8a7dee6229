/**
 * createAnalyzer: parse → walk → operations → verdict. Loading is async (WASM, command specs);
 * `analyze` is synchronous and never throws for any string: on doubt it answers `ask`.
 */
import { homedir } from 'node:os';
import { readFileSync, statSync } from 'node:fs';
import { parseBash } from './syntax/parser/index.js';
import type { ParseResult } from './syntax/parse-result.js';
import { commandSegments } from './syntax/recovery-segments.js';
import { mapSpans } from './syntax/spans.js';
import { bashReading } from './syntax/tree-sitter/alternative-readings.js';
import { compareStructures, structureOf } from './expand/structure.js';
import { Walker, type RawFinding } from './walk/walker.js';
import { identity } from './walk/nested-scripts.js';
import { newScope } from './walk/scope.js';
import type { Arg, CommandContext } from './walk/types.js';
import { operandRoles, parseArgv } from './ops/parse-argv.js';
import { defaultSpecs, layerSpecs, loadSpecDir, type SpecTable } from './programs/load-specs.js';
import { commandFacts, type CommandFacts } from './ops/operations.js';
import type { Operation } from './ops/types.js';
import { PathClassifier } from './paths/classify.js';
import { assessCommand, makeFinding, type AssessOptions } from './verdict/assess.js';
import { LEVEL_ORDER, stricter, type Finding, type Level, type TraceStep, type Verdict } from './verdict/types.js';
import { ShellgateError } from './errors.js';
import { checkContext, checkOptions, NO_CONTEXT, sameRoots, type AnalysisContext, type AnalyzerOptions, type CheckedContext, type ParserChoice } from './analyzer-options.js';

export type { AnalysisContext, AnalyzerOptions } from './analyzer-options.js';
import { VerdictCache } from './verdict-cache.js';
import { stageClock } from './stage-clock.js';
import { loadRules } from './guard/load-rules.js';
import { applyGuards } from './guard/apply.js';
import type { GuardRule } from './guard/rule-types.js';

export interface Analyzer {
  analyze(command: string, context?: AnalysisContext): Verdict;
  /** The guard rules in force (built-in and from `ruleFiles`). */
  readonly rules: readonly GuardRule[];
}

const MAX_FINDINGS = 1000;

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
const MAX_SOURCE_BYTES = 256 * 1024;
function mergeSpecs(base: SpecTable, dirs: string[]): SpecTable {
  let merged = base;
  for (const d of dirs) merged = layerSpecs(merged, loadSpecDir(d));
  return merged;
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

/**
 * Keep in `primary` what another reading of the same command found that is stricter (or that
 * `keep` asks for), so the verdict is never less strict than either reading. The other reading's
 * commands are not listed: its findings lose their command and operation references.
 */
function withStricterFindings(primary: Verdict, other: Verdict, keep: (f: Finding) => boolean, note: string): Verdict {
  const added = other.findings.filter((f) => keep(f) || LEVEL_ORDER[f.level] > LEVEL_ORDER[primary.level]);
  if (added.length === 0) return primary;
  let level = primary.level;
  const findings = primary.findings.slice();
  for (const f of added) {
    const { command: _c, operation: _o, ...rest } = f;
    findings.push(keep(f) ? rest : { ...rest, message: `${f.message} (${note})` });
    level = stricter(level, f.level);
  }
  findings.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  const trace = primary.trace.slice();
  if (level !== primary.level) {
    trace.push({ layer: 'recovery', level, reason: `another plausible reading (${note}) is stricter` });
    const last = trace.find((t) => t.layer === 'final');
    if (last) trace[trace.indexOf(last)] = { ...last, level };
  }
  return { ...primary, level, findings, trace };
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
 * The parser in front: ours, or tree-sitter (loaded only when asked for: its WASM costs start-up
 * time and memory the default path does not pay).
 */
async function frontEnd(choice: ParserChoice): Promise<(s: string) => ParseResult> {
  if (choice !== 'tree-sitter') return parseBash;
  const { BashParser } = await import('./syntax/tree-sitter/parser.js');
  const parser = await BashParser.create();
  return (s) => parser.parse(s);
}

/**
 * Consensus: tree-sitter-bash and bash-parser read the text too, and any structural difference
 * from our reading asks. Where one of them cannot parse, there is nothing to compare with it.
 */
async function secondOpinions(): Promise<(ours: ParseResult, source: string) => { difference: string | null; reason: string }> {
  const [{ BashParser }, { loadBashParser, parseWithBashParser }] = await Promise.all([import('./syntax/tree-sitter/parser.js'), import('./syntax/bash-parser-adapter.js')]);
  const treeSitter = await BashParser.create();
  await loadBashParser();
  return (ours, source) => {
    const mine = structureOf(ours.script);
    const ts = treeSitter.parse(source);
    if (ts.issues.length === 0) {
      const d = compareStructures(mine, structureOf(ts.script));
      if (d !== null) return { difference: `tree-sitter-bash: ${d}`, reason: `tree-sitter-bash reads it otherwise: ${d}` };
    }
    const bp = parseWithBashParser(source);
    if (bp !== null) {
      const d = compareStructures(mine, structureOf(bp));
      if (d !== null) return { difference: `bash-parser: ${d}`, reason: `bash-parser reads it otherwise: ${d}` };
    }
    const unread = [ts.issues.length > 0 ? 'tree-sitter-bash' : '', bp === null ? 'bash-parser' : ''].filter(Boolean);
    return { difference: null, reason: unread.length === 0 ? 'all three parsers agree' : `the parsers that could read it agree (${unread.join(' and ')} could not)` };
  };
}

export async function createAnalyzer(options: AnalyzerOptions = {}): Promise<Analyzer> {
  const opts = checkOptions(options);
  const parse = await frontEnd(opts.parser);
  const consensus = opts.parser === 'consensus' ? await secondOpinions() : null;
  const specs = mergeSpecs(defaultSpecs(), opts.commandSpecDirs);
  const assessOpts: AssessOptions = { chaining: opts.chaining };
  let currentHome = homedir();
  const cache = new VerdictCache<Verdict>(opts.cacheSize, opts.cacheTtlMs);
  // Each env object gets an id: the same object (as a caller passes it call after call) hits the
  // cache. An env changed in place keeps its id, so pass a new object when it changes.
  const envIds = new WeakMap<object, number>();
  let nextEnvId = 0;
  const envId = (env: object): number => {
    let empty = true;
    for (const _ in env) {
      empty = false;
      break;
    }
    if (empty) return 0;
    let id = envIds.get(env);
    if (id === undefined) {
      id = ++nextEnvId;
      envIds.set(env, id);
    }
    return id;
  };
  // A context object passed again with the same fields is not checked and normalised again.
  const contexts = new WeakMap<AnalysisContext, CheckedContext>();
  const checkedContext = (context: AnalysisContext): CheckedContext => {
    const m = contexts.get(context);
    if (m !== undefined && m.from.cwd === context.cwd && m.from.home === context.home && m.from.env === context.env && sameRoots(m, context.workspaceRoots) && (context.cwd !== undefined || m.processCwd === process.cwd())) {
      return m;
    }
    const ctx = checkContext(context);
    const fresh: CheckedContext = {
      ctx,
      prefix: `${ctx.cwd}\0${ctx.workspaceRoots.join('\u0001')}\0${ctx.home}\0`,
      from: { cwd: context.cwd, home: context.home, env: context.env, workspaceRoots: context.workspaceRoots },
      roots: context.workspaceRoots === undefined ? undefined : [...context.workspaceRoots],
      processCwd: context.cwd === undefined ? process.cwd() : null,
    };
    contexts.set(context, fresh);
    return fresh;
  };
  const guards = loadRules(opts.ruleFiles, () => currentHome);
  const classifiers = new Map<string, PathClassifier>();

  const classifierFor = (ctx: Required<AnalysisContext>): PathClassifier => {
    const key = ctx.home + '\0' + ctx.workspaceRoots.join('\0');
    let c = classifiers.get(key);
    if (!c) {
      if (classifiers.size > 64) classifiers.clear();
      // Realpaths are reused across analyses only as long as verdicts are (none with the cache off).
      c = new PathClassifier({ home: ctx.home, workspaceRoots: ctx.workspaceRoots, realpathTtlMs: opts.cacheSize > 0 ? opts.cacheTtlMs : 0 });
      classifiers.set(key, c);
    }
    return c;
  };

  return {
    rules: guards.rules,
    analyze(command: string, context: AnalysisContext = NO_CONTEXT): Verdict {
      if (typeof command !== 'string') throw new ShellgateError('input', `command must be a string, got ${command === null ? 'null' : typeof command}`);
      if (typeof context !== 'object' || context === null) throw new ShellgateError('options', 'context must be an object');
      const checked = checkedContext(context);
      if (opts.cacheSize === 0) return analyzeUncached(command, checked.ctx);
      const key = `${checked.prefix}${envId(checked.ctx.env)}\0${command}`;
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      const v = analyzeUncached(command, checked.ctx);
      cache.set(key, v);
      return v;
    },
  };

  function analyzeUncached(command: string, ctx: Required<AnalysisContext>): Verdict {
    classifierFor(ctx).startAnalysis();
    {
      try {
        const verdict = analyzeOnce(command, ctx);
        if (verdict.findings.some((f) => f.rule === 'parse-error')) recoverSegments(verdict, ctx);
        // tree-sitter only: where bash reads the text otherwise than tree-sitter does
        // (backslash-newline removed before tokens, `coproc` as a keyword), the text rewritten to
        // bash's reading is analysed and its commands are the ones listed. tree-sitter's reading
        // of the text as written is a plausible reading too: whatever it finds that is stricter
        // is kept, and so are the findings about the continuations themselves (an allow rule
        // must not lift them). Our own parser reads both as bash does.
        const reading = opts.parser === 'tree-sitter' ? bashReading(command) : null;
        if (reading === null) return verdict;
        const alt = analyzeOnce(reading.text, ctx);
        mapSpans(alt, reading.toOriginal);
        return withStricterFindings({ ...alt, command }, verdict, (f) => f.rule === 'line-continuation', 'in the text as written');
      } catch (e) {
        // A bug must not become an allow: report it as a finding that asks.
        const span = { start: 0, end: command.length };
        const f = makeFinding('internal-error', (e as Error).message, span, undefined, assessOpts);
        return { command, level: 'ask', findings: [f], commands: [], operations: [], trace: [{ layer: 'final', level: 'ask', reason: 'internal error' }] };
      }
    }
  }

  /**
   * A parse error may hide whole commands inside tree-sitter's ERROR node: analyse each piece
   * between separators on its own and keep what they find (the verdict only gets stricter).
   */
  function recoverSegments(verdict: Verdict, ctx: Required<AnalysisContext>): void {
    const segments = commandSegments(verdict.command);
    if (segments.length < 2) return;
    let raised: Level = verdict.level;
    for (const seg of segments) {
      const v = analyzeOnce(seg.text, ctx);
      for (const f of v.findings) {
        if (f.level === 'allow' || f.rule === 'parse-error') continue;
        const { command: _c, operation: _o, ...rest } = f;
        verdict.findings.push({ ...rest, message: `${f.message} (read on its own after a parse error)`, span: { start: seg.start + f.span.start, end: seg.start + f.span.end } });
        raised = stricter(raised, f.level);
      }
    }
    if (raised !== verdict.level) {
      verdict.trace.push({ layer: 'recovery', level: raised, reason: 'pieces between separators, read on their own, are stricter' });
      verdict.level = raised;
      const last = verdict.trace.find((t) => t.layer === 'final');
      if (last) last.level = raised;
    }
  }

  function analyzeOnce(command: string, ctx: Required<AnalysisContext>): Verdict {
    const clock = stageClock.current; // bench/stages.mjs only
    clock?.lap('other');
    const trace: TraceStep[] = [];
    const raw: RawFinding[] = [];
    currentHome = ctx.home;
    let source = command;
    if (source.length > opts.maxInputLength) {
      raw.push({ rule: 'input-limit', detail: `${opts.maxInputLength} characters`, span: { start: opts.maxInputLength, end: command.length } });
      source = source.slice(0, opts.maxInputLength);
    }
    for (const m of source.matchAll(/\S\\\n(?=\S)/g)) {
      raw.push({ rule: 'line-continuation', detail: `\`${m[0][0]}\\⏎${source[m.index! + 3] ?? ''}\``, span: { start: m.index! + 1, end: m.index! + 3 } });
      if (raw.length >= 5) break;
    }
    for (const m of source.matchAll(CONTROL_CHARACTERS)) {
      raw.push({ rule: 'control-character', detail: describeControl(m[0]), span: { start: m.index!, end: m.index! + 1 } });
      if (raw.length >= 5) break;
    }
    const parsed = parse(source);
    for (const issue of parsed.issues) {
      const rule = issue.kind === 'doubt' ? 'parse-doubt' : 'parse-error';
      raw.push({ rule, detail: issue.kind === 'missing' ? `a missing \`${issue.text}\`` : `\`${issue.text.slice(0, 40)}\``, span: issue.span });
    }
    trace.push({ layer: 'parse', level: parsed.issues.length > 0 ? 'ask' : 'allow', reason: parsed.issues.length > 0 ? `${parsed.issues.length} parse issue(s)` : 'parsed cleanly' });
    if (consensus !== null && parsed.issues.length === 0) {
      const { difference, reason } = consensus(parsed, source);
      if (difference !== null) raw.push({ rule: 'parser-disagreement', detail: difference, span: { start: 0, end: source.length } });
      trace.push({ layer: 'consensus', level: difference === null ? 'allow' : 'ask', reason });
    }

    clock?.lap('parse');
    const walker = new Walker({
      home: ctx.home,
      env: ctx.env,
      cwd: ctx.cwd,
      parse,
      maxScriptDepth: opts.maxScriptDepth,
      readSource: opts.followSource ? readSourceFile : () => null,
      commandStart: (program, args) => commandOperandStart(specs, program, args),
    });
    const rootCtx: CommandContext = {
      pipeline: null, substitution: null, background: false, negated: false, conditional: false, loop: false, infiniteLoop: false,
      functionName: null, depth: 0, via: [], remote: null, privileged: false,
    };
    walker.walkScript(parsed.script, { source, map: identity, scriptDepth: 0 }, rootCtx, newScope(ctx.cwd));
    clock?.lap('walk');
    raw.push(...walker.findings);
    trace.push({ layer: 'walk', level: 'allow', reason: `${walker.commands.length} sub-command(s)` });

    const env = { specs, classifier: classifierFor(ctx), home: ctx.home, vars: ctx.env, links: walker.lineLinks, readScript: opts.followSource ? readSourceFile : () => null };
    const findings: Finding[] = raw.map((r) => makeFinding(r.rule, r.detail, r.span, r.command, assessOpts));
    const operations: Operation[] = [];
    let opsLevel: Level = 'allow';
    for (const cmd of walker.commands) {
      const facts: CommandFacts = commandFacts(cmd, env);
      const fs = assessCommand(cmd, facts, assessOpts, operations.length);
      operations.push(...facts.ops);
      for (const f of fs) opsLevel = stricter(opsLevel, f.level);
      findings.push(...fs);
    }
    trace.push({ layer: 'ops', level: opsLevel, reason: `${operations.length} operation(s)` });
    clock?.lap('ops');

    const guardFindings = applyGuards(guards, walker.commands, operations, specs);
    clock?.lap('guard');
    let guardLevel: Level = 'allow';
    for (const f of guardFindings) guardLevel = stricter(guardLevel, f.level);
    findings.push(...guardFindings);
    trace.push({
      layer: 'guard',
      level: guardLevel,
      reason: guardFindings.length > 0 ? [...new Set(guardFindings.map((f) => f.rule))].join(', ') : 'no guard rule matched',
    });

    let level: Level = 'allow';
    for (const f of findings) level = stricter(level, f.level);
    if (walker.commands.length === 0 && parsed.issues.length > 0) level = stricter(level, 'ask');
    findings.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
    const shown = findings.length > MAX_FINDINGS ? findings.slice(0, MAX_FINDINGS) : findings;
    if (shown !== findings) {
      shown.push(makeFinding('input-limit', `${findings.length - MAX_FINDINGS} more findings not listed`, { start: 0, end: command.length }, undefined, assessOpts));
    }
    const top = findings.find((f) => f.level === level && level !== 'allow');
    trace.push({ layer: 'final', level, reason: top ? `${top.rule}: ${top.message}` : 'every part is read-only inside the workspace' });
    clock?.lap('other');
    return { command, level, findings: shown, commands: walker.commands, operations, trace };
  }
}
