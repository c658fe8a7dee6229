/**
 * The audit log: one JSON line per decision, appended with a single write on a file opened with
 * O_APPEND, so lines from concurrent hook processes never interleave. Rotated by size: when the
 * file passes `maxBytes` it is renamed to `FILE.1` (the previous `.1` becomes `.2`, up to `keep`).
 */
import { appendFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditRecord } from './types.js';

export interface AuditLogOptions {
  /** Rotate when the file is larger than this (default 10 MiB). */
  maxBytes?: number;
  /** Rotated files kept (default 3). */
  keep?: number;
}

export const DEFAULT_AUDIT_MAX_BYTES = 10 * 1024 * 1024;

export class AuditLog {
  private readonly maxBytes: number;
  private readonly keep: number;

  constructor(
    readonly file: string,
    options: AuditLogOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_AUDIT_MAX_BYTES;
    this.keep = Math.max(1, options.keep ?? 3);
    mkdirSync(dirname(file), { recursive: true });
  }

  append(record: AuditRecord): void {
    this.rotateIfNeeded();
    // One write of one whole line: O_APPEND makes each write land at the end, atomically for a line this size.
    appendFileSync(this.file, JSON.stringify(record) + '\n', { flag: 'a', mode: 0o600 });
  }

  private rotateIfNeeded(): void {
    let size: number;
    try {
      size = statSync(this.file).size;
    } catch {
      return;
    }
    if (size < this.maxBytes) return;
    // Two processes may rotate at once: a rename that finds nothing is harmless.
    for (let i = this.keep - 1; i >= 1; i--) {
      const from = `${this.file}.${i}`;
      if (existsSync(from)) tryRename(from, `${this.file}.${i + 1}`);
    }
    tryRename(this.file, `${this.file}.1`);
  }
}

function tryRename(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch {
    // another process rotated it first
  }
}
