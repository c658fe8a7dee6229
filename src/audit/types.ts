/** One line of the audit log: a decision, what it was about, and who decided. */
import type { Level } from '../verdict/types.js';
import type { ToolFamily } from '../agents/types.js';

export interface AuditRecord {
  /** ISO 8601 time the decision was made. */
  time: string;
  /** Agent id (`claude-code`…) or `cli` for `shellgate check`. */
  agent: string;
  session?: string;
  /** The agent's tool name. */
  tool: string;
  /** The tool's family (`shell`, `read`, `edit`…), when the tool is known: `command` is a shell command line when it is `shell`. */
  family?: ToolFamily;
  /** The shell command, or the tool's arguments as JSON, with secrets redacted. */
  command: string;
  cwd?: string;
  level: Level | 'defer';
  /** The gate layer that decided (`guard-deny`, `rule-allow`…), or `hook-input` for a failure. */
  layer: string;
  /** Ids of the findings at the decided level, and of the settings rule that decided if any. */
  rules: string[];
  reason: string;
  version: string;
  durationMs: number;
  /** Decisions the writer of this record could not log since its last record written (a full disk, a log that is a directory…). */
  lost?: number;
  /** Why the last of those was not written. */
  lostBecause?: string;
  /**
   * Bytes of a line found cut short at the end of the log before this record was written (a write
   * that failed or was interrupted, by any process): the line was ended, and this record starts on its own.
   */
  tornTail?: number;
}
