/** `--format json`: one document with the run's summary and every finding. */
import type { LintFinding, LintSummary } from '../types.js';

export interface LintReport {
  tool: 'shellgate';
  version: string;
  summary: LintSummary;
  findings: LintFinding[];
}

export function formatJson(findings: LintFinding[], summary: LintSummary, version: string): string {
  const report: LintReport = { tool: 'shellgate', version, summary, findings };
  return JSON.stringify(report, null, 2);
}
