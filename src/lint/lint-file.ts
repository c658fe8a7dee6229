/**
 * One file through the linter: its kind's snippets through the analyser, each finding's span mapped
 * back to the file, filtered to what a linter reports, suppressions applied, fingerprinted.
 */
import type { ShellDialect } from '../syntax/dialects.js';
import { createHash } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import type { Analyzer, WalkBudget } from '../analyzer.js';
import { lintFileBudget } from './analyzer-for-lint.js';
import { CORE_FINDINGS } from '../findings/catalog.js';
import type { Finding } from '../findings/types.js';
import { LINT_RULES, lintMessage } from './lint-rules.js';
import { LineIndex } from './source-text.js';
import type { Extracted, Snippet, SourceFinding, SourceKind } from './sources/types.js';
import { findSuppressions, isSuppressed } from './suppressions.js';
import { workspacePath } from './files.js';
import type { FileResult, LintFinding } from './types.js';

export interface LintOptions {
  /** The workspace: the repository (or directory) being linted, absolute. */
  root: string;
  /** Report every finding at ask or deny, also the core findings that only say what a command does. */
  all?: boolean;
  /** Home directory for `~` on the host (default: the analyser's, the user's home). */
  home?: string;
  /** The walk's budget of one file (settings' `maxWalkSteps`; default: lintFileBudget's, by the file's length). */
  maxWalkSteps?: number;
}

/**
 * Core findings a linter reports without `--all`: what bash would run cannot be known (a parse
 * bash or shellgate may read otherwise, a limit reached, control characters), a prompt string
 * runs code, secrets are printed whole, a sensitive file is touched. The others (`network`,
 * `exec`, `write`, `unknown-command`, `secret-variable`, `arithmetic-injection`…) say what a
 * command does or could do with input nobody checked, which in a script is its everyday work
 * (`$((i + 1))` on an argument); the guard rules say when it is a risk. A core finding at deny is
 * always reported.
 */
export const REPORTED_CORE_FINDINGS: ReadonlySet<string> = new Set([
  'parse-error',
  'unsupported-syntax',
  'internal-error',
  'parser-disagreement',
  'parse-doubt',
  // the shell that runs the script (its shebang, `shell:`, a Dockerfile's /bin/sh) reads it otherwise
  'dialect-difference',
  'expansion-limit',
  'depth-limit',
  'input-limit',
  'control-character',
  'prompt-expansion',
  'env-dump',
  'sensitive-path',
]);

/** The shells whose code the linter reads, each in its own reading (walk/dialect.ts): `sh` as dash (`/bin/sh` on Debian and Ubuntu, and the stricter of it and bash). */
const READ_SHELLS: Readonly<Record<string, ShellDialect>> = { sh: 'sh', bash: 'bash', zsh: 'zsh' };

function reported(f: Finding, opts: LintOptions, snippet: Snippet): boolean {
  if (f.level === 'allow') return false;
  if (opts.all || snippet.lifecycle || f.level === 'deny') return true;
  return !Object.hasOwn(CORE_FINDINGS, f.rule) || REPORTED_CORE_FINDINGS.has(f.rule);
}

interface Located {
  rule: string;
  category: string;
  level: Finding['level'];
  message: string;
  start: number;
  end: number;
  /** File offset where the command the finding is about starts. */
  commandStart: number;
  command: string;
  origin: string;
  attack?: string[];
  lifecycle?: true;
}

const oneLine = (s: string): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 200 ? t.slice(0, 199) + '…' : t;
};

function contextOf(snippet: Snippet, absPath: string, opts: LintOptions) {
  if (snippet.where === 'container') return { cwd: snippet.cwd ?? '/', workspaceRoots: ['/'], home: '/root' };
  const cwd = snippet.cwd !== undefined ? resolve(dirname(absPath), snippet.cwd) : opts.root;
  return { cwd, workspaceRoots: [opts.root], ...(opts.home ? { home: opts.home } : {}) };
}

function analyseSnippet(analyzer: Analyzer, snippet: Snippet, absPath: string, opts: LintOptions, budget: WalkBudget): Located[] {
  const first = snippet.offsets[0] ?? 0;
  const fileEnd = (i: number) => snippet.offsets[Math.min(Math.max(i, 0), snippet.text.length)] ?? first;
  const shell = READ_SHELLS[snippet.shell];
  if (shell === undefined) {
    const nl = snippet.text.indexOf('\n');
    const end = nl < 0 ? snippet.text.length : nl;
    return [
      {
        rule: 'lint/unsupported-shell',
        category: LINT_RULES['lint/unsupported-shell'].category,
        level: 'ask',
        message: lintMessage('lint/unsupported-shell', snippet.shell),
        start: first,
        end: end > 0 ? fileEnd(end - 1) + 1 : first,
        commandStart: first,
        command: oneLine(snippet.text),
        origin: snippet.origin,
      },
    ];
  }
  // The file's one budget: a snippet walked after it is spent asks (expansion-limit) at its start.
  const verdict = analyzer.analyze(snippet.text, { ...contextOf(snippet, absPath, opts), shell }, budget);
  const out: Located[] = [];
  for (const f of verdict.findings) {
    if (!reported(f, opts, snippet)) continue;
    const s = Math.min(Math.max(f.span.start, 0), snippet.text.length);
    const e = Math.min(Math.max(f.span.end, s), snippet.text.length);
    const cmd = f.command !== undefined ? verdict.commands[f.command] : undefined;
    const start = fileEnd(s);
    out.push({
      rule: f.rule,
      category: f.category,
      level: f.level,
      message: snippet.lifecycle ? `${f.message} (install script: runs on every npm install)` : f.message,
      start,
      end: e > s ? fileEnd(e - 1) + 1 : start,
      commandStart: cmd && cmd.span.start >= 0 && cmd.span.start <= snippet.text.length ? fileEnd(cmd.span.start) : start,
      command: oneLine(cmd ? cmd.text : snippet.text.slice(s, e)),
      origin: snippet.origin,
      ...(f.attack ? { attack: f.attack } : {}),
      ...(snippet.lifecycle ? { lifecycle: true as const } : {}),
    });
  }
  return out;
}

function fromSource(f: SourceFinding, file: string, origin: string): Located {
  const meta = (LINT_RULES as Record<string, { category: string } | undefined>)[f.rule];
  return {
    rule: f.rule,
    category: meta?.category ?? 'lint',
    level: f.level,
    message: f.message,
    start: f.start,
    end: f.end,
    commandStart: f.start,
    command: oneLine(file.slice(f.start, Math.min(f.end, f.start + 400))),
    origin,
  };
}

/**
 * A source kind's snippets; a bug in one must not stop the lint of the other files, and a file
 * whose code could not be listed is never passed as clean: it is reported as unread.
 */
function extractSafely(kind: SourceKind, text: string, file: string): Extracted {
  try {
    return kind.extract(text, file);
  } catch (e) {
    const why = `shellgate failed reading it: ${e instanceof Error ? e.message : String(e)}; please report it`;
    return {
      snippets: [],
      findings: [
        { rule: 'lint/unreadable-file', level: 'ask', message: `${lintMessage('lint/unreadable-file', `a ${kind.name} file`)} (${why})`, start: 0, end: 0 },
      ],
    };
  }
}

/** Lint one file's text as `kind`. `file` is the path shown, `absPath` where it is. */
export function lintText(analyzer: Analyzer, kind: SourceKind, text: string, file: string, absPath: string, opts: LintOptions): FileResult {
  // The kind was chosen by the path inside the workspace (a workflow is `.github/workflows/…`),
  // and reads it the same way, wherever the linter was started from.
  const rel = workspacePath(opts.root, absPath);
  const extracted = extractSafely(kind, text, rel);
  const located: Located[] = extracted.findings.map((f) => fromSource(f, text, kind.name));
  // One budget of walking for the whole file, whatever the number of snippets it is cut into.
  const budget = lintFileBudget(text.length, opts.maxWalkSteps);
  // One at a time, not spread: a file may have more findings than a call takes arguments.
  for (const s of extracted.snippets) for (const l of analyseSnippet(analyzer, s, absPath, opts, budget)) located.push(l);
  const lines = new LineIndex(text);
  const suppressions = findSuppressions(text, lines);
  const seen = new Set<string>();
  const occurrences = new Map<string, number>();
  const findings: LintFinding[] = [];
  let suppressed = 0;
  located.sort((a, b) => a.start - b.start || a.end - b.end || a.rule.localeCompare(b.rule));
  for (const l of located) {
    const key = `${l.rule}\0${l.start}\0${l.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const from = lines.position(l.start);
    const to = lines.position(Math.max(l.end, l.start));
    if (isSuppressed(suppressions, l.rule, from.line, lines.lineOf(l.commandStart))) {
      suppressed++;
      continue;
    }
    const stable = `${l.rule}\0${rel}\0${oneLine(lines.lineText(from.line))}\0${oneLine(text.slice(l.start, l.end))}`;
    const n = occurrences.get(stable) ?? 0;
    occurrences.set(stable, n + 1);
    findings.push({
      file,
      line: from.line,
      column: from.column,
      endLine: to.line,
      endColumn: to.column,
      rule: l.rule,
      category: l.category,
      level: l.level,
      message: l.message,
      command: l.command,
      origin: l.origin,
      kind: kind.name,
      ...(l.attack ? { attack: l.attack } : {}),
      ...(l.lifecycle ? { lifecycle: true as const } : {}),
      fingerprint: createHash('sha256').update(`${stable}\0${n}`).digest('hex').slice(0, 32),
    });
  }
  const shown: Record<number, string> = {};
  for (const f of findings) shown[f.line] = lines.lineText(f.line);
  return { file, kind: kind.name, findings, suppressed, snippets: extracted.snippets.length, lines: shown };
}
