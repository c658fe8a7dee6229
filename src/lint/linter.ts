/**
 * The linter as a library: `createLinter` loads one analyser, then lints files or texts. The CLI
 * (`shellgate lint`) is this plus finding files, baselines, workers and output formats.
 */
import { resolve } from 'node:path';
import type { AnalyzerOptions } from '../analyzer.js';
import { lintAnalyzer } from './analyzer-for-lint.js';
import { findFiles } from './files.js';
import { lintText as lintKind, type LintOptions } from './lint-file.js';
import { lintFound } from './run.js';
import { kindOf } from './sources/index.js';
import type { FileResult } from './types.js';

export interface LinterOptions {
  /** The workspace: the tree commands may work in (absolute, or relative to the current directory). */
  root: string;
  /** Also report the core findings that only say what a command does (`network`, `exec`…). */
  all?: boolean;
  /** Analyser options (`ruleFiles`, `commandSpecDirs`, `trustedInstallers`…). */
  analyzer?: AnalyzerOptions;
}

export interface Linter {
  /**
   * Lint a file's text; `path` (relative to the root, `/`-separated) decides its kind. Null when
   * the linter does not read files of that name and the text has no sh/bash shebang.
   */
  lintText(path: string, text: string): FileResult | null;
  /** Lint files and directories as `shellgate lint PATH…` does (.gitignore honoured); file paths in results are absolute. */
  lintPaths(paths: readonly string[]): FileResult[];
}

export async function createLinterNow(options: LinterOptions): Promise<Linter> {
  const analyzer = await lintAnalyzer(options.analyzer ?? {});
  const steps = options.analyzer?.maxWalkSteps;
  const opts: LintOptions = { root: resolve(options.root), all: options.all === true, ...(steps !== undefined ? { maxWalkSteps: steps } : {}) };
  return {
    lintText(path, text) {
      const kind = kindOf(path, text.slice(0, 512));
      return kind ? lintKind(analyzer, kind, text, path, resolve(opts.root, path), opts) : null;
    },
    lintPaths(paths) {
      const out: FileResult[] = [];
      for (const f of findFiles(paths, opts.root)) {
        const r = lintFound(analyzer, f, f.abs, opts);
        if (r) out.push(r);
      }
      return out;
    },
  };
}
