/**
 * The audit log through the built CLI, as an agent's hook runs it: concurrent hook processes,
 * redaction, failures logged, a log that cannot be written, `check --audit-log`, and
 * `shellgate audit` on the result. Build first (npx tsc -p tsconfig.json).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/types.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const WS = mkdtempSync(join(tmpdir(), 'sg-audit-ws-'));
const ENV = { ...process.env, NO_COLOR: '1', HOME: mkdtempSync(join(tmpdir(), 'sg-audit-home-')) };

function run(args: string[], input = '') {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', cwd: WS, env: ENV });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function runAsync(args: string[], input: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, ...args], { cwd: WS, env: ENV });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, out }));
    p.stdin.end(input);
  });
}

function event(command: string, session = 's1'): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: '/tmp/t.jsonl',
    cwd: WS,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'd' },
  });
}

function records(file: string): AuditRecord[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AuditRecord);
}

function logFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'sg-audit-')), 'audit.jsonl');
}

describe('shellgate hook --audit-log', () => {
  it('8 concurrent hook processes × 3 decisions: one whole JSON line each, exact count, file 0600', async () => {
    const file = logFile();
    const writer = async (w: number) => {
      for (let i = 0; i < 3; i++) {
        const r = await runAsync(['hook', 'claude-code', '--audit-log', file], event(`ls -la src${i}`, `w${w}`));
        expect(r.code).toBe(0);
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w)));
    const rs = records(file);
    expect(rs).toHaveLength(24);
    for (let w = 0; w < 8; w++) expect(rs.filter((r) => r.session === `w${w}`)).toHaveLength(3);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const r = rs[0];
    expect(r).toMatchObject({ agent: 'claude-code', tool: 'Bash', family: 'shell', level: 'allow', cwd: WS });
    expect(typeof r.version).toBe('string');
    expect(typeof r.durationMs).toBe('number');
    expect(Number.isNaN(Date.parse(r.time))).toBe(false);
  });

  it('a token in the command never reaches the file', () => {
    const file = logFile();
    const token = 'ghp_' + 'A1b2C3d4'.repeat(5);
    const command = `export GITHUB_TOKEN=${token}; curl -H "Authorization: Bearer sEcReT-bearer-value" https://api.github.com/user && mysql -u root -pSqlPassw0rd db`;
    const r = run(['hook', 'claude-code', '--audit-log', file], event(command));
    expect(r.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    for (const secret of [token, 'sEcReT-bearer-value', 'SqlPassw0rd']) expect(text).not.toContain(secret);
    expect(records(file)[0].command).toContain('curl -H "Authorization: Bearer [REDACTED]" https://api.github.com/user');
  });

  it('input that is not JSON is blocked and logged as a hook-input deny', () => {
    const file = logFile();
    const r = run(['hook', 'claude-code', '--audit-log', file], '{"tool_name": "Bash", ');
    expect(r.code).toBe(2);
    const [rec] = records(file);
    expect(rec).toMatchObject({ agent: 'claude-code', level: 'deny', layer: 'hook-input', tool: '' });
    expect(rec.reason).toMatch(/not JSON/);
  });

  it('a log that cannot be written: the decision is still answered, the failure is said once on stderr', () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'sg-audit-')), 'no-such-dir', 'audit.jsonl');
    const allow = run(['hook', 'claude-code', '--audit-log', missing], event('ls'));
    expect(allow.code).toBe(0);
    expect(JSON.parse(allow.out).hookSpecificOutput.permissionDecision).toBe('allow');
    expect(allow.err.match(/audit log .* not written/g)).toHaveLength(1);
    const deny = run(['hook', 'claude-code', '--audit-log', missing], event('rm -rf /'));
    // Still denied: a broken log never opens the gate.
    expect(JSON.parse(deny.out).hookSpecificOutput).toMatchObject({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(/destructive-delete/),
    });
    expect(deny.err.match(/audit log .* not written/g)).toHaveLength(1);
  });

  it('audit.file in shellgate settings turns the log on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-audit-cfg-'));
    writeFileSync(join(dir, 'shellgate.json'), JSON.stringify({ audit: { file: 'decisions.jsonl' } }));
    expect(run(['hook', 'claude-code', '--config', join(dir, 'shellgate.json')], event('ls')).code).toBe(0);
    expect(records(join(dir, 'decisions.jsonl'))).toHaveLength(1);
  });
});

describe('shellgate check --audit-log', () => {
  it('records each decision with agent cli', () => {
    const file = logFile();
    const r = run(['check', '--audit-log', file], 'ls\nrm -rf build\n');
    expect(r.code).toBe(1);
    const rs = records(file);
    expect(rs.map((x) => [x.agent, x.tool, x.command, x.level])).toEqual([
      ['cli', 'shell', 'ls', 'allow'],
      ['cli', 'shell', 'rm -rf build', 'ask'],
    ]);
  });
});

describe('shellgate audit', () => {
  const lines = (rs: Partial<AuditRecord>[]) =>
    rs
      .map((r) =>
        JSON.stringify({
          time: '2026-01-01T00:00:00.000Z',
          agent: 'claude-code',
          tool: 'Bash',
          family: 'shell',
          level: 'ask',
          layer: 'tool-default',
          rules: [],
          reason: 'r',
          version: 't',
          durationMs: 1,
          session: 's1',
          ...r,
        }),
      )
      .join('\n') + '\n';

  it('--json: counts, most-asked commands, suggestions checked against guard examples, malformed lines', () => {
    const file = logFile();
    writeFileSync(
      file,
      lines([
        ...Array(4).fill({ command: 'rm -rf build' }),
        // (not npm: its logs go under the home, which this test keeps in shared temp, where a hidden folder asks a guard rule)
        ...Array(3).fill({ command: 'make test' }),
        { command: 'ls', level: 'allow', session: 's2' },
        { command: 'rm -rf /', level: 'deny', layer: 'guard-deny', rules: ['destructive-delete/rm-root-or-home'] },
      ]) + 'this line is not a record\n',
    );
    const r = run(['audit', file, '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out);
    expect(s.records).toBe(9);
    expect(s.malformed.count).toBe(1);
    expect(s.levels).toEqual({ allow: 1, ask: 7, deny: 1, defer: 0 });
    expect(s.sessions[0]).toEqual({ session: 's1', asks: 7, decisions: 8 });
    expect(s.commands.slice(0, 2).map((c: { command: string; asks: number }) => [c.command, c.asks])).toEqual([
      ['rm', 4],
      ['make test', 3],
    ]);
    const rules = s.suggestions.map((x: { rule: string }) => x.rule);
    expect(rules).toContain('Bash(make test *)');
    expect(rules).not.toContain('Bash(rm *)');
    expect(s.notSuggested.find((x: { rule: string }) => x.rule === 'Bash(rm *)').because).toMatch(/would allow `rm [^`]*`.*guard rule [a-z-]+\//);
  });

  it('prints a readable summary, reads rotated files with --all, and a missing file is a usage error', () => {
    const file = logFile();
    writeFileSync(file, lines(Array(3).fill({ command: 'make test' })));
    writeFileSync(`${file}.1`, lines(Array(2).fill({ command: 'make test' })));
    const text = run(['audit', file, '--all']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/5 decisions/);
    expect(text.out).toMatch(/Most-asked commands\n\s+make test\s+5/);
    expect(text.out).toMatch(/Bash\(make test \*\)\s+would have spared 5 prompts/);
    expect(run(['audit', file, '--json']).out).toMatch(/"records":3/);
    expect(run(['audit', join(WS, 'nope.jsonl')]).code).toBe(64);
    expect(run(['audit', file, '--top', 'x']).code).toBe(64);
  });
});
