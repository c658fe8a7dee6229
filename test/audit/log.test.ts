/**
 * The audit log a user relies on: concurrent hooks never tear or lose a line, rotation keeps
 * FILE.1…FILE.3, the file is private, and a log that cannot be written never throws.
 * The concurrency tests run separate processes against the built module (build first).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog, MAX_AUDIT_COMMAND_CHARS } from '../../src/audit/log.js';
import type { AuditRecord } from '../../src/audit/types.js';

const CHILD = join(import.meta.dirname, 'append-child.mjs');

function record(command: string, extra: Partial<AuditRecord> = {}): AuditRecord {
  return {
    time: new Date().toISOString(),
    agent: 'claude-code',
    tool: 'Bash',
    command,
    level: 'allow',
    layer: 'tool-default',
    rules: [],
    reason: 'r',
    version: 't',
    durationMs: 1,
    ...extra,
  };
}

function runChild(args: (string | number)[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [CHILD, ...args.map(String)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, err }));
  });
}

/** Every line of the files, parsed; throws on a line that is not JSON. */
function linesOf(...files: string[]): AuditRecord[] {
  return files
    .filter((f) => existsSync(f))
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as AuditRecord),
    );
}

function writersAndIndexes(records: AuditRecord[]): string[] {
  return records.map((r) => /^echo (\d+:\d+) /.exec(r.command)![1]).sort();
}

describe('concurrent writers', () => {
  it('8 processes × 250 long records: every line is whole JSON, none lost, none twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-audit-'));
    const file = join(dir, 'audit.jsonl');
    const results = await Promise.all(Array.from({ length: 8 }, (_, w) => runChild([file, w, 250, 4000, 1e12])));
    expect(results.map((r) => r.code)).toEqual(Array(8).fill(0));
    const records = linesOf(file);
    expect(records).toHaveLength(2000);
    const expected = Array.from({ length: 8 }, (_, w) => Array.from({ length: 250 }, (_, i) => `${w}:${i}`))
      .flat()
      .sort();
    expect(writersAndIndexes(records)).toEqual(expected);
  });

  it('rotating while 8 processes write: no line lost or torn, at most FILE.3 kept, no lock left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-audit-'));
    const file = join(dir, 'audit.jsonl');
    const perLine = JSON.stringify(record(`echo 0:0 ${'x'.repeat(2000)}`, { session: 'w0', family: 'shell' })).length + 1;
    const total = 8 * 100 * perLine;
    // At most three rotations fit (each rotated file holds at least maxBytes): nothing is dropped.
    const maxBytes = Math.ceil(total / 3.5);
    const results = await Promise.all(Array.from({ length: 8 }, (_, w) => runChild([file, w, 100, 2000, maxBytes])));
    expect(results.map((r) => r.code)).toEqual(Array(8).fill(0));
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.4`)).toBe(false);
    expect(existsSync(`${file}.lock`)).toBe(false);
    const records = linesOf(`${file}.3`, `${file}.2`, `${file}.1`, file);
    expect(records).toHaveLength(800);
    expect(new Set(writersAndIndexes(records)).size).toBe(800);
  });
});

describe('rotation', () => {
  it('keeps FILE.1 … FILE.3, newest in FILE, oldest dropped', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-audit-'));
    const file = join(dir, 'audit.jsonl');
    const log = new AuditLog(file, { maxBytes: 1000 });
    for (let i = 0; i < 40; i++) expect(log.append(record(`echo ${i} ${'y'.repeat(300)}`))).toBe(true);
    expect([file, `${file}.1`, `${file}.2`, `${file}.3`].every((f) => existsSync(f))).toBe(true);
    expect(existsSync(`${file}.4`)).toBe(false);
    const seq = linesOf(`${file}.3`, `${file}.2`, `${file}.1`, file).map((r) => Number(r.command.split(' ')[1]));
    expect(seq[seq.length - 1]).toBe(39);
    expect(seq).toEqual([...seq].sort((a, b) => a - b)); // oldest file first, in order
    expect(seq.length).toBeLessThan(40); // the oldest were dropped
    // A file is rotated once it reaches maxBytes: it holds at most one line more.
    const line = JSON.stringify(record(`echo 39 ${'y'.repeat(300)}`)).length + 1;
    for (const f of [file, `${file}.1`, `${file}.2`, `${file}.3`]) expect(statSync(f).size).toBeLessThan(1000 + line);
  });

  it('a rotation lock left by a dead process is taken over; a fresh one means someone else rotates', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-audit-'));
    const file = join(dir, 'audit.jsonl');
    writeFileSync(file, JSON.stringify(record('old')) + '\n'.padStart(2000, ' '));
    writeFileSync(`${file}.lock`, '');
    const log = new AuditLog(file, { maxBytes: 1000 });
    log.append(record('while locked'));
    expect(existsSync(`${file}.1`)).toBe(false); // fresh lock: not rotated, but written
    expect(readFileSync(file, 'utf8')).toContain('while locked');
    const past = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, past, past);
    log.append(record('after'));
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(readFileSync(file, 'utf8')).toContain('after');
  });
});

describe('the file', () => {
  it('is created readable by its owner only, and rotated files stay so', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-audit-'));
    const file = join(dir, 'audit.jsonl');
    const log = new AuditLog(file, { maxBytes: 200 });
    log.append(record('echo one'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    log.append(record('echo two'));
    log.append(record('echo three'));
    expect(statSync(`${file}.1`).mode & 0o777).toBe(0o600);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('bounds a huge command and marks the cut', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-audit-'));
    const file = join(dir, 'audit.jsonl');
    new AuditLog(file).append(record('echo ' + 'z'.repeat(100_000)));
    const [r] = linesOf(file);
    expect(r.command.length).toBeLessThan(MAX_AUDIT_COMMAND_CHARS + 200);
    expect(r.command).toMatch(/more characters not logged; 100005 in all, sha256 [0-9a-f]{64}\]$/);
  });
});

describe('a log that cannot be written', () => {
  it('never throws, reports once per outage, and again after it had recovered', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-audit-'));
    const sub = join(dir, 'logs');
    const errors: string[] = [];
    const log = new AuditLog(join(sub, 'audit.jsonl'), { onError: (m) => errors.push(m) });
    expect(log.append(record('a'))).toBe(false);
    expect(log.append(record('b'))).toBe(false);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(join(sub, 'audit.jsonl'));
    expect(errors[0]).toMatch(/does not exist/);
    mkdirSync(sub);
    expect(log.append(record('c'))).toBe(true);
    // The first record written after the outage says what was lost in it, and why.
    expect(linesOf(join(sub, 'audit.jsonl'))[0]).toMatchObject({ command: 'c', lost: 2, lostBecause: expect.stringMatching(/does not exist/) });
    expect(log.append(record('c2'))).toBe(true);
    expect(linesOf(join(sub, 'audit.jsonl'))[1]).not.toHaveProperty('lost');
    rmSync(sub, { recursive: true });
    expect(log.append(record('d'))).toBe(false);
    expect(errors).toHaveLength(2);
  });

  it('a path under a regular file, or a directory as the log, fails without throwing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-audit-'));
    writeFileSync(join(dir, 'plain'), '');
    const errors: string[] = [];
    expect(new AuditLog(join(dir, 'plain', 'audit.jsonl'), { onError: (m) => errors.push(m) }).append(record('x'))).toBe(false);
    expect(new AuditLog(dir, { onError: (m) => errors.push(m) }).append(record('x'))).toBe(false);
    expect(errors).toHaveLength(2);
  });

  it('does not create the folder (a mistyped path is reported, not made)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-audit-'));
    new AuditLog(join(dir, 'typo', 'audit.jsonl')).append(record('x'));
    expect(existsSync(join(dir, 'typo'))).toBe(false);
  });
});
