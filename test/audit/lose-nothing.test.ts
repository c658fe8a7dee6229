/**
 * An audit log that loses nothing, through the built CLI as an agent's hook runs it (a process per
 * call): an argument nested 5,000 deep is logged summarised, not dropped; a line left torn by a
 * failed write is ended before the next record and counted by `shellgate audit`; a log that is a
 * directory is reported on stderr; and `shellgate audit` shows control characters as escapes.
 * Build first (npm run build).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/types.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const ROOT = mkdtempSync(join(tmpdir(), 'sg-audit-lose-'));
const WS = join(ROOT, 'ws');
mkdirSync(WS);
const ENV = { ...process.env, NO_COLOR: '1', HOME: join(ROOT, 'home') };
mkdirSync(ENV.HOME);
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

let n = 0;
const logFile = (): string => join(mkdtempSync(join(ROOT, `log${n++}-`)), 'audit.jsonl');

function run(args: string[], input = '') {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', cwd: WS, env: ENV });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A Claude Code PreToolUse event; `toolInput` is raw JSON text, so it may nest deeper than JSON.stringify goes. */
function event(tool: string, toolInput: string): string {
  return `{"session_id":"s1","cwd":${JSON.stringify(WS)},"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"${tool}","tool_input":${toolInput}}`;
}
const bash = (command: string) => event('Bash', JSON.stringify({ command }));

describe('every decision is recorded', () => {
  it('a tool argument nested 5,000 deep is logged with a marker for what is past depth 64', () => {
    const file = logFile();
    const deep = '{"a":'.repeat(5000) + '"x"' + '}'.repeat(5000);
    const r = run(
      ['hook', 'claude-code', '--audit-log', file],
      event('Write', `{"file_path":${JSON.stringify(join(WS, 'a.txt'))},"content":"hi","extra":${deep}}`),
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).hookSpecificOutput.permissionDecision).toBe('ask');
    expect(r.err).toBe('');
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(2); // one record and its newline
    const rec = JSON.parse(lines[0]!) as AuditRecord;
    expect(rec).toMatchObject({ tool: 'Write', level: 'ask' });
    const args = JSON.parse(rec.command) as { content: string; extra: unknown };
    expect(args.content).toBe('hi');
    let v: unknown = args.extra;
    let depth = 1;
    while (typeof v === 'object' && v !== null && 'a' in v) {
      v = (v as { a: unknown }).a;
      depth++;
    }
    expect(depth).toBe(64);
    expect(v).toEqual({ '…': expect.stringMatching(/^depth 5001 > 64, \d+ KB, sha256 [0-9a-f]{64}$/) });
  });
});

describe('a torn tail', () => {
  it('the next record starts on a line of its own and says so; shellgate audit skips the torn line and counts it', () => {
    const file = logFile();
    const torn = '{"time":"2026-01-01T00:00:00.000Z","agent":"claude-code","tool":"Bash","command":"ls -l sr';
    writeFileSync(file, torn);
    const r = run(['hook', 'claude-code', '--audit-log', file], bash('ls'));
    expect(r.code).toBe(0);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[0]).toBe(torn);
    expect(JSON.parse(lines[1]!)).toMatchObject({ command: 'ls', level: 'allow', tornTail: torn.length });
    expect(lines[2]).toBe('');
    const s = JSON.parse(run(['audit', '--json', file]).out);
    expect(s.records).toBe(1);
    expect(s.malformed).toMatchObject({ count: 1, lines: [{ line: 1, problem: 'not JSON' }] });
    expect(s.notLogged).toEqual({ decisions: 0, tornLines: 1 });
    expect(run(['audit', file]).out).toContain('1 line cut short by a write that failed');
  });

  it('a record an older writer glued onto a torn line is still read, the torn part counted', () => {
    const file = logFile();
    const whole = JSON.stringify({
      time: '2026-01-01T00:00:01.000Z',
      agent: 'claude-code',
      tool: 'Bash',
      command: 'rm -rf /',
      level: 'deny',
      layer: 'guard-deny',
      rules: [],
      reason: 'r',
      version: 't',
      durationMs: 1,
    });
    writeFileSync(file, `{"time":"2026-01-01T00:00:00.000Z","agent":"claude-co${whole}\n`);
    const s = JSON.parse(run(['audit', '--json', file]).out);
    expect(s.records).toBe(1);
    expect(s.levels.deny).toBe(1);
    expect(s.malformed.lines).toEqual([{ file, line: 1, problem: 'a line cut short, with a record after it' }]);
  });
});

describe('a failed write', () => {
  it('a log path that is a directory: the decision stands and stderr says the log was not written', () => {
    // A directory fails even for root (CI), where a read-only file would not.
    const dir = mkdtempSync(join(ROOT, 'dirlog-'));
    const r = run(['hook', 'claude-code', '--audit-log', dir], bash('rm -rf /'));
    expect(JSON.parse(r.out).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(r.err).toMatch(new RegExp(`audit log ${dir} not written \\(it is a directory\\)`));
  });
});

describe('shellgate audit on hostile records', () => {
  const hostile = 'echo \x1b]0;pwned\x07 \x1b[2J \x9b31m \u202eevil \x7f';

  it('text output shows control characters as escapes; --json stays JSON with the same values', () => {
    const file = logFile();
    for (let i = 0; i < 3; i++) expect(run(['hook', 'claude-code', '--audit-log', file], bash(hostile)).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('\\u001b]0;pwned'); // the log itself is JSON: escaped there already

    const text = run(['audit', file]).out;
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
    expect(text).toContain('\\x1b]0;pwned\\x07 \\x1b[2J \\x9b31m \\u202eevil \\x7f');

    const json = run(['audit', '--json', file]).out;
    expect(json).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
    const s = JSON.parse(json) as { commands: { example: string }[]; records: number };
    expect(s.records).toBe(3);
    expect(s.commands.some((c) => c.example === hostile)).toBe(true);
  });
});
