/**
 * `shellgate lint [PATH…]`: the shell code in scripts, Dockerfiles, CI workflows, package.json
 * scripts, Makefiles and compose files, judged like any command and reported at file positions
 * as text, JSON, SARIF or GitHub annotations. Exit 0 when nothing reaches `--fail-on`, 1 otherwise.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import type { Analyzer } from '../analyzer.js';
import { lintAnalyzer, lintAnalyzerOptions } from '../lint/analyzer-for-lint.js';
import { applyBaseline, readBaseline, writeBaseline } from '../lint/baseline.js';
import { findFiles, LintPathError, repositoryRoot, type FoundFile } from '../lint/files.js';
import { formatGithub } from '../lint/format/github.js';
import { formatJson } from '../lint/format/json.js';
import { formatSarif } from '../lint/format/sarif.js';
import { formatText } from '../lint/format/text.js';
import type { LintOptions } from '../lint/lint-file.js';
import { allRules } from '../lint/rule-catalog.js';
import { lintFound, summarise } from '../lint/run.js';
import type { FileResult } from '../lint/types.js';
import { LEVEL_ORDER, stricter, type Level } from '../verdict/types.js';
import { UsageError } from './args.js';
import { packageVersion } from './exit.js';
import { lintInWorkers } from './lint-jobs.js';

export const LINT_USAGE = `usage: shellgate lint [--format text|json|sarif|github] [--output FILE] [--fail-on deny|ask] [--all]
                     [--baseline FILE | --write-baseline FILE] [--jobs N] [--config FILE] [--workspace DIR]
                     [--color auto|always|never] [PATH…]

Find the shell code in PATH… (default: .) and report what it could destroy, fetch, run or leak, at
the file, line and column where it is written. Directories are walked with .gitignore honoured,
never into node_modules or .git; a file named on the command line is always read.

Files read: shell scripts (*.sh, *.bash, a sh/bash shebang), Dockerfile/Containerfile (RUN, CMD,
ENTRYPOINT, SHELL), GitHub Actions workflows and action.yml (run:, and \${{ }} script injection),
.gitlab-ci.yml (script, before_script, after_script), package.json scripts (install lifecycle
scripts are code every npm install runs), Makefile recipes, docker-compose command/entrypoint.

  --format F          text (default; colour on a terminal), json, sarif (SARIF 2.1.0 for code
                      scanning), github (workflow annotations)
  --output FILE, -o   write the report to FILE instead of stdout
  --fail-on LEVEL     exit 1 when a finding is at LEVEL or above: deny (default) or ask
  --all               also report the core findings that only say what a command does
                      (network, exec, write, unknown-command…); install scripts always get them
  --baseline FILE     report only findings not in FILE
  --write-baseline FILE  save the findings as a baseline and exit 0
  --jobs N            lint in N worker threads (default 1)
  --config FILE       shellgate settings whose analyser options apply (ruleFiles, commandSpecDirs,
                      trustedInstallers…)
  --workspace DIR     the tree commands may work in (default: the git repository holding the first
                      PATH, else the current directory)
  --color WHEN        auto (default), always, never

Suppress a finding with a comment on its line or alone on the line above:
  # shellgate-ignore RULE[,RULE] -- reason        (RULE: a rule id or a guard category)

exit status: 0 nothing at or above --fail-on, 1 findings at or above it, 64 usage error,
70 internal error`;

export interface LintArgs {
  paths: string[];
  format: 'text' | 'json' | 'sarif' | 'github';
  output: string | null;
  failOn: Level;
  all: boolean;
  baseline: string | null;
  writeBaseline: string | null;
  jobs: number;
  config: string | null;
  workspace: string | null;
  color: 'auto' | 'always' | 'never';
}

function oneOf<T extends string>(flag: string, v: string | undefined, allowed: readonly T[], dflt: T): T {
  if (v === undefined) return dflt;
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, not ${JSON.stringify(v)}`);
  return v as T;
}

export function parseLintArgs(argv: string[]): LintArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string', short: 'f' },
        output: { type: 'string', short: 'o' },
        'fail-on': { type: 'string' },
        all: { type: 'boolean' },
        baseline: { type: 'string' },
        'write-baseline': { type: 'string' },
        jobs: { type: 'string', short: 'j' },
        config: { type: 'string' },
        workspace: { type: 'string' },
        color: { type: 'string' },
      },
    });
  } catch (e) {
    const msg = e instanceof Error ? e.message.split('\n')[0]! : String(e);
    const unknown = /Unknown option '([^']+)'/.exec(msg);
    throw new UsageError(unknown ? `unknown option ${unknown[1]} (shellgate lint --help lists them)` : msg);
  }
  const v = parsed.values;
  const jobs = v.jobs === undefined ? 1 : Number(v.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 256) throw new UsageError(`--jobs must be a whole number from 1 to 256, not ${JSON.stringify(v.jobs)}`);
  if (v.baseline !== undefined && v['write-baseline'] !== undefined) throw new UsageError('give --baseline or --write-baseline, not both');
  return {
    paths: parsed.positionals.length > 0 ? parsed.positionals : ['.'],
    format: oneOf('format', v.format, ['text', 'json', 'sarif', 'github'] as const, 'text'),
    output: v.output ?? null,
    failOn: oneOf('fail-on', v['fail-on'], ['deny', 'ask'] as const, 'deny'),
    all: v.all === true,
    baseline: v.baseline ?? null,
    writeBaseline: v['write-baseline'] ?? null,
    jobs,
    config: v.config ?? null,
    workspace: v.workspace ?? null,
    color: oneOf('color', v.color, ['auto', 'always', 'never'] as const, 'auto'),
  };
}

/** A path as shown: relative to the current directory when under it, else absolute; `/`-separated. */
function shownPath(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  const p = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
  return sep === '/' ? p : p.split(sep).join('/');
}

/** A progress line on stderr, redrawn at most ten times a second, only on a terminal. */
function progressLine(total: number): { update(done: number): void; clear(): void } {
  if (!process.stderr.isTTY || total < 2) return { update() {}, clear() {} };
  let last = 0;
  return {
    update(done) {
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      process.stderr.write(`\rshellgate lint: ${done}/${total} files`);
    },
    clear() {
      process.stderr.write('\r\x1b[K');
    },
  };
}

export async function runLint(args: LintArgs): Promise<number> {
  const cwd = process.cwd();
  const root = resolve(args.workspace ?? repositoryRoot(resolve(args.paths[0]!)) ?? cwd);
  let found: FoundFile[];
  try {
    found = findFiles(args.paths, root);
  } catch (e) {
    if (e instanceof LintPathError) throw new UsageError(e.message);
    throw e;
  }
  const analyzerOptions = lintAnalyzerOptions(args.config);
  const baseline = args.baseline !== null ? readBaseline(args.baseline) : null;
  const opts: LintOptions = { root, all: args.all, ...(analyzerOptions.maxWalkSteps !== undefined ? { maxWalkSteps: analyzerOptions.maxWalkSteps } : {}) };
  const items = found.map((file) => ({ file, shown: shownPath(file.abs, cwd) }));
  const progress = progressLine(items.length);
  let results: (FileResult | null)[];
  let analyzer: Analyzer | null = null;
  if (args.jobs > 1 && items.length > 1) {
    results = await lintInWorkers(Math.min(args.jobs, availableParallelism() * 4), items, { analyzer: analyzerOptions, lint: opts }, progress.update);
  } else {
    const a = (analyzer = await lintAnalyzer(analyzerOptions));
    results = items.map((it, i) => {
      const r = lintFound(a, it.file, it.shown, opts);
      progress.update(i + 1);
      return r;
    });
  }
  progress.clear();
  // A file named on the command line is never skipped silently; one line for all of them, as
  // pre-commit passes every changed file of the types it was given.
  const skipped = items.filter((it, i) => results[i] === null && it.file.explicit).map((it) => it.shown);
  if (skipped.length > 0)
    process.stderr.write(
      `shellgate: note: not ${skipped.length === 1 ? 'a file' : 'files'} shellgate lint reads (see shellgate lint --help), skipped: ${skipped.slice(0, 10).join(', ')}${skipped.length > 10 ? `, and ${skipped.length - 10} more` : ''}\n`,
    );
  let files = results.filter((r): r is FileResult => r !== null);
  const all = files.flatMap((r) => r.findings);
  if (args.writeBaseline !== null) {
    writeBaseline(args.writeBaseline, all);
    process.stderr.write(`shellgate: wrote ${all.length} finding${all.length === 1 ? '' : 's'} to ${args.writeBaseline}\n`);
    return 0;
  }
  let held = 0;
  if (baseline) {
    const { kept, held: h } = applyBaseline(all, baseline);
    held = h;
    const keep = new Set(kept);
    files = files.map((r) => ({ ...r, findings: r.findings.filter((f) => keep.has(f)) }));
  }
  const summary = summarise(files, found.length, held);
  const findings = files.flatMap((r) => r.findings);
  const color = args.color === 'always' || (args.color === 'auto' && args.output === null && process.stdout.isTTY === true && !process.env.NO_COLOR);
  const version = packageVersion();
  let report: string;
  if (args.format === 'json') report = formatJson(findings, summary, version);
  // SARIF lists every rule, so it needs the guard rules in force (the workers' are not at hand).
  else if (args.format === 'sarif') report = formatSarif(files, allRules((analyzer ?? (await lintAnalyzer(analyzerOptions))).rules), { version, baseDir: cwd });
  else if (args.format === 'github') report = formatGithub(findings);
  else report = formatText(files, summary, color);
  if (args.output !== null) {
    try {
      writeFileSync(args.output, report + '\n');
    } catch (e) {
      throw new UsageError(`--output ${args.output}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (args.format !== 'text') process.stderr.write(formatText([], summary, false) + '\n');
  } else if (report !== '') process.stdout.write(report + '\n');
  const worst = findings.reduce<Level>((w, f) => stricter(w, f.level), 'allow');
  return LEVEL_ORDER[worst] >= LEVEL_ORDER[args.failOn] ? 1 : 0;
}
