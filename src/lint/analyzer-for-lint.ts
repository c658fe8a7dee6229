/**
 * The analyser a lint run uses: the default one, or the analyser options (`ruleFiles`,
 * `commandSpecDirs`, `trustedInstallers`…) of a shellgate settings file given with `--config`.
 */
import { homedir } from 'node:os';
import { createAnalyzer, type Analyzer, type AnalyzerOptions, type WalkBudget } from '../analyzer.js';
import { DEFAULT_WALK_STEPS } from '../analyzer-options.js';
import { loadSource } from '../policy/settings.js';

/** Function bodies walked at call sites per snippet: enough for long scripts, still a bound on the work. */
export const LINT_FUNCTION_WALKS = 4096;
/**
 * The walk's budget of a file, shared by all its snippets (a workflow's hundred `run:` steps draw
 * on one budget): what one command line gets (DEFAULT_WALK_STEPS), and one step more per
 * character, so a longer file may walk more but the work stays linear in its size. The 621 real
 * files measured (the shell scripts, Makefiles and other files under /usr and /etc of a Debian
 * machine) stay inside it: xdg-open, 26 KB, walks the most, 9,319 steps with its functions walked
 * at every call. A budget per snippet (a million steps) let a 1 KB fan-out (bench/walk-budget.mjs)
 * run for minutes and take a gigabyte.
 */
export const LINT_FILE_STEPS = DEFAULT_WALK_STEPS;
export const LINT_STEPS_PER_CHARACTER = 1;

/** The budget for a file of `length` characters; settings' `maxWalkSteps` replaces the whole of it. */
export function lintFileBudget(length: number, maxWalkSteps?: number): WalkBudget {
  return { limit: maxWalkSteps ?? LINT_FILE_STEPS + LINT_STEPS_PER_CHARACTER * length, spent: 0, name: "the file's budget" };
}

export function lintAnalyzerOptions(config: string | null): AnalyzerOptions {
  if (config === null) return {};
  return loadSource({ source: 'project', file: config, format: 'shellgate' }, process.cwd(), homedir()).analyzer;
}

export function lintAnalyzer(options: AnalyzerOptions): Promise<Analyzer> {
  // A whole script calls its functions far more often than a command line does; each snippet is
  // analysed once, so a verdict cache would only hold memory.
  // A linter lists every finding of a file, not the first thousand. The walk's budget is the
  // file's, passed with each snippet (lintFileBudget).
  return createAnalyzer({ maxFunctionWalks: LINT_FUNCTION_WALKS, maxFindings: 1_000_000, ...options, cacheSize: 0 });
}
