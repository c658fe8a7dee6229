/**
 * The analyser a lint run uses: the default one, or the analyser options (`ruleFiles`,
 * `commandSpecDirs`, `trustedInstallers`…) of a shellgate settings file given with `--config`.
 */
import { homedir } from 'node:os';
import { createAnalyzer, type Analyzer, type AnalyzerOptions } from '../analyzer.js';
import { loadSource } from '../policy/settings.js';

/** Function bodies walked at call sites per snippet: enough for long scripts, still a bound on the work. */
export const LINT_FUNCTION_WALKS = 4096;
/** The walk's budget per snippet: a whole script with its functions walked at every call, still a bound. */
export const LINT_WALK_STEPS = 1_000_000;

export function lintAnalyzerOptions(config: string | null): AnalyzerOptions {
  if (config === null) return {};
  return loadSource({ source: 'project', file: config, format: 'shellgate' }, process.cwd(), homedir()).analyzer;
}

export function lintAnalyzer(options: AnalyzerOptions): Promise<Analyzer> {
  // A whole script calls its functions far more often than a command line does; each snippet is
  // analysed once, so a verdict cache would only hold memory.
  // A linter lists every finding of a file, not the first thousand.
  return createAnalyzer({ maxFunctionWalks: LINT_FUNCTION_WALKS, maxWalkSteps: LINT_WALK_STEPS, maxFindings: 1_000_000, ...options, cacheSize: 0 });
}
