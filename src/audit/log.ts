/**
 * The audit log: one JSON line per decision, appended with a single write on a file opened with
 * O_APPEND, so lines from concurrent hook processes never interleave. The file is created 0600
 * (it holds the commands an agent ran, even redacted). Rotated by size: when the file reaches
 * `maxBytes` it is renamed to `FILE.1` (the previous `.1` becomes `.2`, up to `FILE.keep`; the
 * oldest is dropped).
 *
 * The log records decisions; it does not make them. A log that cannot be written (its folder is
 * missing, read-only, the disk is full) never changes or delays the decision and never throws:
 * `onError` is told once, and told again only after a write has succeeded in between, so a hook
 * reports it on every call where it fails but a long-running server reports it once per outage.
 * The folder is not created: a mistyped path should be reported, not silently made.
 */
import { appendFileSync, closeSync, existsSync, openSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditRecord } from './types.js';

export interface AuditLogOptions {
  /** Rotate when the file reaches this size (default 10 MiB). */
  maxBytes?: number;
  /** Rotated files kept: FILE.1 … FILE.keep (default 3). */
  keep?: number;
  /** Told (once per outage) when a record cannot be written; the message names the file and the cause. */
  onError?: (message: string) => void;
}

export const DEFAULT_AUDIT_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_AUDIT_KEEP = 3;

/**
 * The longest command kept in a record: a line stays small enough to be written (and read back)
 * whole, and a pasted file does not fill the log. The cut is marked.
 */
export const MAX_AUDIT_COMMAND_CHARS = 16 * 1024;

/** A rotation lock older than this was left by a process that died while rotating. */
const STALE_LOCK_MS = 10_000;

export class AuditLog {
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly onError: ((message: string) => void) | undefined;
  private failing = false;

  constructor(
    readonly file: string,
    options: AuditLogOptions = {},
  ) {
    this.maxBytes = options.maxBytes !== undefined && options.maxBytes > 0 ? options.maxBytes : DEFAULT_AUDIT_MAX_BYTES;
    this.keep = Math.max(1, Math.floor(options.keep ?? DEFAULT_AUDIT_KEEP));
    this.onError = options.onError;
  }

  /** Append one record; true when it was written. Never throws. */
  append(record: AuditRecord): boolean {
    let line: string;
    try {
      line = JSON.stringify(boundRecord(record)) + '\n';
    } catch (e) {
      return this.failed(e);
    }
    try {
      this.rotateIfNeeded();
    } catch {
      // A failed rotation leaves a long file, never a lost line.
    }
    try {
      // One write of one whole line: O_APPEND makes each write land at the end, whole.
      appendFileSync(this.file, line, { flag: 'a', mode: 0o600 });
    } catch (e) {
      return this.failed(e);
    }
    this.failing = false;
    return true;
  }

  private failed(e: unknown): false {
    if (!this.failing) {
      this.failing = true;
      this.onError?.(`audit log ${this.file} not written (${describe(e, this.file)}); the decision stands`);
    }
    return false;
  }

  private rotateIfNeeded(): void {
    if (sizeOf(this.file) < this.maxBytes) return;
    // One rotator at a time: without the lock two processes that both saw a full file rotate twice,
    // and the second moves the first one's fresh FILE.1 along (a generation lost, a tiny FILE.1).
    const lock = `${this.file}.lock`;
    let fd: number;
    try {
      fd = openSync(lock, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return;
      if (!isStale(lock)) return; // another process is rotating: append to whichever file is there
      tryUnlink(lock);
      try {
        fd = openSync(lock, 'wx', 0o600);
      } catch {
        return;
      }
    }
    try {
      // Another process may have rotated between our look and the lock.
      if (sizeOf(this.file) < this.maxBytes) return;
      for (let i = this.keep - 1; i >= 1; i--) {
        const from = `${this.file}.${i}`;
        if (existsSync(from)) renameSync(from, `${this.file}.${i + 1}`);
      }
      renameSync(this.file, `${this.file}.1`);
    } finally {
      closeSync(fd);
      tryUnlink(lock);
    }
  }
}

/** The files of a log, newest first: FILE, FILE.1, … FILE.keep (those that exist). */
export function auditLogFiles(file: string, keep = DEFAULT_AUDIT_KEEP): string[] {
  const out: string[] = [];
  if (existsSync(file)) out.push(file);
  for (let i = 1; i <= keep; i++) if (existsSync(`${file}.${i}`)) out.push(`${file}.${i}`);
  return out;
}

function boundRecord(r: AuditRecord): AuditRecord {
  if (r.command.length <= MAX_AUDIT_COMMAND_CHARS) return r;
  const cut = r.command.length - MAX_AUDIT_COMMAND_CHARS;
  return { ...r, command: r.command.slice(0, MAX_AUDIT_COMMAND_CHARS) + ` [… ${cut} more characters not logged]` };
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function isStale(lock: string): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS;
  } catch {
    return true; // gone already
  }
}

function tryUnlink(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

function describe(e: unknown, file: string): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return `its folder ${dirname(file)} does not exist`;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'ENOSPC') return 'no space left on the device';
  if (code === 'EISDIR') return 'it is a directory';
  return e instanceof Error ? e.message : String(e);
}
