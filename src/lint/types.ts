/** What the linter reports: findings at file positions, and a run's totals. */
import type { Level } from '../findings/types.js';
import type { SourceKindName } from './sources/types.js';

export interface LintFinding {
  /** The file as given or found, relative to the current directory when under it (`/`-separated). */
  file: string;
  /** 1-based line and column (UTF-16 code units) where the finding starts. */
  line: number;
  column: number;
  /** Where it ends: the line, and the column just after its last character (as SARIF counts). */
  endLine: number;
  endColumn: number;
  rule: string;
  category: string;
  level: Level;
  message: string;
  /** The command the finding is about, as the shell is given it (one line, at most 200 characters). */
  command: string;
  /** Where in the file the code comes from (`script`, `RUN`, `jobs.build.steps[1].run`, `scripts.postinstall`). */
  origin: string;
  kind: SourceKindName;
  /** MITRE ATT&CK technique ids (guard rules). */
  attack?: string[];
  /** An npm install lifecycle script: code every `npm install` runs. */
  lifecycle?: true;
  /**
   * Stable across commits that do not change the finding's line: the rule, the file's path in the workspace, the
   * whitespace-normalised text of the line and of the finding, and which occurrence of those it is.
   */
  fingerprint: string;
}

export interface FileResult {
  file: string;
  kind: SourceKindName | null;
  findings: LintFinding[];
  /** Findings a `shellgate-ignore` comment suppressed. */
  suppressed: number;
  /** Pieces of shell code read. */
  snippets: number;
  /** The text of each line a finding starts on, for the terminal view and SARIF snippets. */
  lines: Record<number, string>;
}

export interface LintSummary {
  files: number;
  /** Files of a kind the linter reads. */
  linted: number;
  findings: number;
  deny: number;
  ask: number;
  suppressed: number;
  /** Findings a baseline held back. */
  baselined: number;
}
