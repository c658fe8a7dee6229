/**
 * createAnalyzer: parse → walk → operations → verdict. Loading is async (WASM, command specs);
 * `analyze` is synchronous and never throws for any string: on doubt it answers `ask`.
 *
 * Here: loading, the verdict cache, and the readings combined into one verdict (pieces after a
 * parse error, bash's reading where tree-sitter's differs). One reading's stages are in
 * analyzer-stages.ts, the parsers in analyzer-front-ends.ts, the per-context caches in
 * analyzer-context.ts.
 */
import { homedir } from 'node:os';
import { commandSegments } from './syntax/recovery-segments.js';
import { mapSpans } from './syntax/spans.js';
import { bashReading } from './syntax/tree-sitter/alternative-readings.js';
import { defaultSpecs, layerSpecs, loadSpecDir, type SpecTable } from './programs/load-specs.js';
import { makeFinding } from './verdict/assess.js';
import { LEVEL_ORDER, stricter, type Finding, type Level, type Verdict } from './verdict/types.js';
import { ShellgateError } from './errors.js';
import { checkOptions, NO_CONTEXT, type AnalysisContext, type AnalyzerOptions } from './analyzer-options.js';

export type { AnalysisContext, AnalyzerOptions } from './analyzer-options.js';
export type { WalkBudget } from './walk/walker.js';
import { VerdictCache } from './verdict-cache.js';
import { loadRules } from './guard/load-rules.js';
import { TrustedInstallers } from './guard/installer-urls.js';
import type { GuardRule } from './guard/rule-types.js';
import { ClassifierCache, ContextCache } from './analyzer-context.js';
import { frontEnd, secondOpinions } from './analyzer-front-ends.js';
import { analyzeOnce, type Engine } from './analyzer-stages.js';
import type { WalkBudget } from './walk/walker.js';

export interface Analyzer {
  /**
   * `budget`: a walk budget shared by several analyses (a linter's file), spent by each in turn in
   * place of `maxWalkSteps`; the verdict cache is not used with one (the verdict depends on it).
   */
  analyze(command: string, context?: AnalysisContext, budget?: WalkBudget): Verdict;
  /** The guard rules in force (built-in and from `ruleFiles`). */
  readonly rules: readonly GuardRule[];
}

function mergeSpecs(base: SpecTable, dirs: string[]): SpecTable {
  let merged = base;
  for (const d of dirs) merged = layerSpecs(merged, loadSpecDir(d));
  return merged;
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

export async function createAnalyzer(options: AnalyzerOptions = {}): Promise<Analyzer> {
  const opts = checkOptions(options);
  const parse = await frontEnd(opts.parser);
  const consensus = opts.parser === 'consensus' ? await secondOpinions() : null;
  const specs = mergeSpecs(defaultSpecs(), opts.commandSpecDirs);
  const analysisHome = { current: homedir() };
  const cache = new VerdictCache<Verdict>(opts.cacheSize, opts.cacheTtlMs);
  const contexts = new ContextCache(opts.shell);
  const trustedInstallers = TrustedInstallers.from(opts.trustedInstallers, () => {
    throw new ShellgateError('options', 'option "trustedInstallers" was checked by checkOptions');
  });
  const guards = loadRules(opts.ruleFiles, () => analysisHome.current, { trustedInstallers });
  // Realpaths are reused across analyses only as long as verdicts are (none with the cache off).
  const classifiers = new ClassifierCache(opts.cacheSize > 0 ? opts.cacheTtlMs : 0);
  const engine: Engine = { opts, parse, consensus, specs, assessOpts: { chaining: opts.chaining }, guards, classifiers, analysisHome };

  return {
    rules: guards.rules,
    analyze(command: string, context: AnalysisContext = NO_CONTEXT, budget?: WalkBudget): Verdict {
      if (typeof command !== 'string') throw new ShellgateError('input', `command must be a string, got ${command === null ? 'null' : typeof command}`);
      if (typeof context !== 'object' || context === null) throw new ShellgateError('options', 'context must be an object');
      const checked = contexts.checked(context);
      if (opts.cacheSize === 0 || budget !== undefined) return analyzeUncached(engine, command, checked.ctx, budget);
      const key = `${checked.prefix}${contexts.envId(checked.ctx.env)}\0${command}`;
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      const v = analyzeUncached(engine, command, checked.ctx);
      cache.set(key, v);
      return v;
    },
  };
}

function analyzeUncached(engine: Engine, command: string, ctx: Required<AnalysisContext>, budget?: WalkBudget): Verdict {
  engine.classifiers.for(ctx).startAnalysis();
  try {
    const verdict = analyzeOnce(engine, command, ctx, budget);
    if (verdict.findings.some((f) => f.rule === 'parse-error')) recoverSegments(engine, verdict, ctx, budget);
    // tree-sitter only: where bash reads the text otherwise than tree-sitter does
    // (backslash-newline removed before tokens, `coproc` as a keyword), the text rewritten to
    // bash's reading is analysed and its commands are the ones listed. tree-sitter's reading
    // of the text as written is a plausible reading too: whatever it finds that is stricter
    // is kept, and so are the findings about the continuations themselves (an allow rule
    // must not lift them). Our own parser reads both as bash does.
    const reading = engine.opts.parser === 'tree-sitter' ? bashReading(command) : null;
    if (reading === null) return verdict;
    const alt = analyzeOnce(engine, reading.text, ctx, budget);
    mapSpans(alt, reading.toOriginal);
    return withStricterFindings({ ...alt, command }, verdict, (f) => f.rule === 'line-continuation', 'in the text as written');
  } catch (e) {
    // A bug must not become an allow: report it as a finding that asks.
    const span = { start: 0, end: command.length };
    const f = makeFinding('internal-error', (e as Error).message, span, undefined, engine.assessOpts);
    return { command, level: 'ask', findings: [f], commands: [], operations: [], trace: [{ layer: 'final', level: 'ask', reason: 'internal error' }] };
  }
}

/**
 * A parse error may hide whole commands inside tree-sitter's ERROR node: analyse each piece
 * between separators on its own and keep what they find (the verdict only gets stricter).
 */
function recoverSegments(engine: Engine, verdict: Verdict, ctx: Required<AnalysisContext>, budget: WalkBudget | undefined): void {
  const segments = commandSegments(verdict.command);
  if (segments.length < 2) return;
  let raised: Level = verdict.level;
  for (const seg of segments) {
    const v = analyzeOnce(engine, seg.text, ctx, budget);
    for (const f of v.findings) {
      if (f.level === 'allow' || f.rule === 'parse-error') continue;
      const { command: _c, operation: _o, ...rest } = f;
      verdict.findings.push({
        ...rest,
        message: `${f.message} (read on its own after a parse error)`,
        span: { start: seg.start + f.span.start, end: seg.start + f.span.end },
      });
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
