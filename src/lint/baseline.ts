/**
 * Baselines: the findings a project has accepted for now, saved by `--write-baseline FILE`, so
 * `--baseline FILE` reports only new ones. Findings are matched by fingerprint (rule, file, the
 * text of the line and of the finding, and which occurrence it is), so moving code up or down a
 * file does not bring them back, while changing the line does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ShellgateError } from '../errors.js';
import type { LintFinding } from './types.js';

export interface BaselineFile {
  shellgateBaseline: 1;
  findings: { file: string; line: number; rule: string; fingerprint: string }[];
}

export function writeBaseline(path: string, findings: readonly LintFinding[]): void {
  const data: BaselineFile = {
    shellgateBaseline: 1,
    findings: findings.map((f) => ({ file: f.file, line: f.line, rule: f.rule, fingerprint: f.fingerprint })),
  };
  try {
    writeFileSync(path, JSON.stringify(data, null, 2) + '\n');
  } catch (e) {
    throw new ShellgateError('options', `--write-baseline ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The fingerprints a baseline holds, with how many times each occurs. */
export function readBaseline(path: string): Map<string, number> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ShellgateError('options', `--baseline ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const list = (data as Partial<BaselineFile> | null)?.findings;
  if ((data as Partial<BaselineFile> | null)?.shellgateBaseline !== 1 || !Array.isArray(list))
    throw new ShellgateError('options', `--baseline ${path}: not a shellgate baseline (write one with --write-baseline)`);
  const out = new Map<string, number>();
  for (const f of list) {
    const fp = (f as { fingerprint?: unknown } | null)?.fingerprint;
    if (typeof fp !== 'string') throw new ShellgateError('options', `--baseline ${path}: a finding without a fingerprint`);
    out.set(fp, (out.get(fp) ?? 0) + 1);
  }
  return out;
}

/** The findings a baseline does not hold, and how many it held back. */
export function applyBaseline(findings: readonly LintFinding[], baseline: Map<string, number>): { kept: LintFinding[]; held: number } {
  const left = new Map(baseline);
  const kept: LintFinding[] = [];
  let held = 0;
  for (const f of findings) {
    const n = left.get(f.fingerprint) ?? 0;
    if (n > 0) {
      left.set(f.fingerprint, n - 1);
      held++;
    } else kept.push(f);
  }
  return { kept, held };
}
