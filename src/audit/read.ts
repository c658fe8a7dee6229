/**
 * Reading an audit log back: one record per line. A line that is not a record (cut short by a
 * crash, edited by hand, from another program) is counted and named, never fatal: a summary of
 * what could be read is worth more than no summary.
 */
import { readFileSync } from 'node:fs';
import type { AuditRecord } from './types.js';

export interface MalformedLine {
  file: string;
  /** 1-based. */
  line: number;
  problem: string;
}

export interface AuditLines {
  records: AuditRecord[];
  /** Every malformed line is counted here… */
  malformedCount: number;
  /** …and the first few are named. */
  malformed: MalformedLine[];
}

const LEVELS = new Set(['allow', 'ask', 'deny', 'defer']);
const NAMED_MALFORMED = 20;

/** Read log files (oldest first gives records in time order); a file that cannot be read is an error for the caller. */
export function readAuditFiles(files: readonly string[]): AuditLines {
  const out: AuditLines = { records: [], malformedCount: 0, malformed: [] };
  for (const file of files) parseAuditText(readFileSync(file, 'utf8'), file, out);
  return out;
}

export function parseAuditText(text: string, file: string, out: AuditLines = { records: [], malformedCount: 0, malformed: [] }): AuditLines {
  const lines = text.split('\n');
  // The writer ends every line with a newline: what follows the last one is empty, or a line being written.
  if (lines[lines.length - 1] === '') lines.pop();
  const malformed = (line: number, problem: string) => {
    out.malformedCount++;
    if (out.malformed.length < NAMED_MALFORMED) out.malformed.push({ file, line, problem });
  };
  lines.forEach((line, i) => {
    const problem = recordProblem(line);
    if (typeof problem !== 'string') return void out.records.push(problem);
    // A line cut short by a failed write, with a record glued onto it by a writer that did not end
    // it: the record is kept, the torn part counted. `{"time":"` cannot occur inside a JSON string
    // (its quotes would be escaped), so where it starts a later record does.
    const at = line.lastIndexOf(RECORD_START);
    const glued = at > 0 ? recordProblem(line.slice(at)) : null;
    if (glued !== null && typeof glued !== 'string') {
      malformed(i + 1, 'a line cut short, with a record after it');
      out.records.push(glued);
    } else malformed(i + 1, problem);
  });
  return out;
}

/** How every record the writer makes starts (`time` is its first field). */
const RECORD_START = '{"time":"';

/** The record on a line, or what is wrong with it. */
function recordProblem(line: string): AuditRecord | string {
  if (line.trim() === '') return 'empty line';
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const r = v as Record<string, unknown>;
  for (const k of ['time', 'agent', 'tool', 'command', 'layer'] as const) if (typeof r[k] !== 'string') return `"${k}" is not a string`;
  if (typeof r.level !== 'string' || !LEVELS.has(r.level)) return '"level" is not allow, ask, deny or defer';
  if (!Array.isArray(r.rules) || r.rules.some((x) => typeof x !== 'string')) return '"rules" is not a list of strings';
  if (r.session !== undefined && typeof r.session !== 'string') return '"session" is not a string';
  if (r.cwd !== undefined && typeof r.cwd !== 'string') return '"cwd" is not a string';
  if (r.family !== undefined && typeof r.family !== 'string') return '"family" is not a string';
  for (const k of ['lost', 'tornTail'] as const) if (r[k] !== undefined && typeof r[k] !== 'number') return `"${k}" is not a number`;
  return r as unknown as AuditRecord;
}
