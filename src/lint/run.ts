/**
 * A lint run over found files: read each (its first bytes first, to learn its kind), lint it,
 * and hold back what a baseline already knows.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import type { Analyzer } from '../analyzer.js';
import { lintText, type LintOptions } from './lint-file.js';
import { lintMessage } from './lint-rules.js';
import { kindOf } from './sources/index.js';
import type { FoundFile } from './files.js';
import type { FileResult, LintFinding, LintSummary } from './types.js';

const HEAD = 512;

function head(abs: string): Buffer {
  const fd = openSync(abs, 'r');
  try {
    const buf = Buffer.alloc(HEAD);
    const n = readSync(fd, buf, 0, HEAD, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Lint one found file; null when it is not of a kind the linter reads (or is binary). */
export function lintFound(analyzer: Analyzer, f: FoundFile, shown: string, opts: LintOptions): FileResult | null {
  let first: Buffer;
  try {
    first = head(f.abs);
  } catch (e) {
    return unreadable(shown, e);
  }
  if (first.includes(0)) return null;
  const kind = kindOf(f.rel, first.toString('utf8'));
  if (!kind) return null;
  let text: string;
  try {
    text = readFileSync(f.abs, 'utf8');
  } catch (e) {
    return unreadable(shown, e);
  }
  if (text.charCodeAt(0) === 0xfeff) text = ' ' + text.slice(1);
  return lintText(analyzer, kind, text, shown, f.abs, opts);
}

function unreadable(file: string, e: unknown): FileResult {
  const why = e instanceof Error && 'code' in e ? String((e as NodeJS.ErrnoException).code) : String(e);
  const finding: LintFinding = {
    file,
    line: 1,
    column: 1,
    endLine: 1,
    endColumn: 1,
    rule: 'lint/unreadable-file',
    category: 'parse',
    level: 'ask',
    message: `${lintMessage('lint/unreadable-file', 'a file')} (${why})`,
    command: '',
    origin: 'file',
    kind: 'shell',
    fingerprint: `unreadable:${file}`,
  };
  return { file, kind: null, findings: [finding], suppressed: 0, snippets: 0, lines: {} };
}

export function summarise(results: readonly FileResult[], files: number, baselined: number): LintSummary {
  const s: LintSummary = { files, linted: 0, findings: 0, deny: 0, ask: 0, suppressed: 0, baselined };
  for (const r of results) {
    if (r.kind !== null) s.linted++;
    s.suppressed += r.suppressed;
    for (const f of r.findings) {
      s.findings++;
      if (f.level === 'deny') s.deny++;
      else if (f.level === 'ask') s.ask++;
    }
  }
  return s;
}
