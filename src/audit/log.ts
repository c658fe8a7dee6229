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
 *
 * Nothing is lost without a trace: a record this log could not write is counted, and the next
 * record it writes says how many and why (`lost`, `lostBecause`). A line left without its newline
 * by a write that failed half-way (a full disk) is ended before the next record, in the same
 * write, and that record says so (`tornTail`): it is never glued onto the torn line.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
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
  /** Records this log could not write since its last one written, and the last cause. */
  private lost = 0;
  private lostBecause = '';

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
    try {
      this.rotateIfNeeded();
    } catch {
      // A failed rotation leaves a long file, never a lost line.
    }
    let fd: number;
    let readable = true;
    try {
      // Read and append: the last byte says whether a write before this one was cut short.
      fd = openSync(this.file, 'a+', 0o600);
    } catch (e) {
      // A log the user may append to but not read (mode 0200): appended to without the check.
      if ((e as NodeJS.ErrnoException).code !== 'EACCES') return this.failed(e);
      readable = false;
      try {
        fd = openSync(this.file, 'a', 0o600);
      } catch (e2) {
        return this.failed(e2);
      }
    }
    try {
      const torn = readable ? tornTail(fd) : 0;
      const notes: Partial<AuditRecord> = {
        ...(this.lost > 0 ? { lost: this.lost, lostBecause: this.lostBecause } : {}),
        ...(torn > 0 ? { tornTail: torn } : {}),
      };
      // A torn line is ended first, in the same write: the record is never glued onto it.
      const line = (torn > 0 ? '\n' : '') + serialise(boundRecord(record), notes) + '\n';
      writeWhole(fd, Buffer.from(line, 'utf8'));
    } catch (e) {
      return this.failed(e);
    } finally {
      closeSync(fd);
    }
    this.failing = false;
    this.lost = 0;
    this.lostBecause = '';
    return true;
  }

  /** A record not written: counted for the next record, reported once per outage. */
  private failed(e: unknown): false {
    const why = describe(e, this.file);
    this.lost++;
    this.lostBecause = why;
    if (!this.failing) {
      this.failing = true;
      this.onError?.(`audit log ${this.file} not written (${why}); the decision stands`);
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

/** The command and the reason cut at MAX_AUDIT_COMMAND_CHARS, with the length and hash of the whole. */
function boundRecord(r: AuditRecord): AuditRecord {
  const command = boundText(r.command);
  const reason = boundText(r.reason);
  return command === r.command && reason === r.reason ? r : { ...r, command, reason };
}

function boundText(text: unknown): string {
  const s = typeof text === 'string' ? text : String(text);
  if (s.length <= MAX_AUDIT_COMMAND_CHARS) return s;
  const cut = s.length - MAX_AUDIT_COMMAND_CHARS;
  const sha = createHash('sha256').update(s).digest('hex');
  return s.slice(0, MAX_AUDIT_COMMAND_CHARS) + ` [… ${cut} more characters not logged; ${s.length} in all, sha256 ${sha}]`;
}

/** The record's line, its notes after its fields; a record that cannot be serialised is logged as what is known of it. */
function serialise(r: AuditRecord, notes: Partial<AuditRecord>): string {
  try {
    return JSON.stringify({ ...r, ...notes });
  } catch (e) {
    const known: AuditRecord = {
      time: String(r.time),
      agent: String(r.agent),
      tool: String(r.tool),
      command: `[record not serialisable: ${e instanceof Error ? e.message : String(e)}]`,
      level: r.level,
      layer: String(r.layer),
      rules: [],
      reason: boundText(r.reason),
      version: String(r.version),
      durationMs: Number(r.durationMs),
    };
    return JSON.stringify({ ...known, ...notes });
  }
}

/** Bytes after the file's last newline: a line a failed or interrupted write left without its end (0: none). */
function tornTail(fd: number): number {
  const size = fstatSync(fd).size;
  if (size === 0) return 0;
  const last = Buffer.alloc(1);
  if (readSync(fd, last, 0, 1, size - 1) !== 1 || last[0] === 0x0a) return 0;
  // How long the torn line is, up to the last 64 KiB (a line is at most a few times 16 KiB).
  const n = Math.min(size, 64 * 1024);
  const tail = Buffer.alloc(n);
  const got = readSync(fd, tail, 0, n, size - n);
  const nl = tail.subarray(0, got).lastIndexOf(0x0a);
  return nl < 0 ? got : got - nl - 1;
}

/** One write where the kernel takes it whole; the rest in further writes if it does not. */
function writeWhole(fd: number, buf: Buffer): void {
  let done = 0;
  while (done < buf.length) done += writeSync(fd, buf, done, buf.length - done);
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
