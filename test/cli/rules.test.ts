/** `shellgate rules` explains core findings as it does guard rules; an unknown id is a usage error with near ids. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const rules = (...args: string[]) => spawnSync(process.execPath, [BIN, 'rules', ...args], { encoding: 'utf8' });

describe('shellgate rules', () => {
  it('shows a core finding: id, category, level, message, why and a safer way', () => {
    const r = rules('sensitive-path');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^sensitive-path\s+\[sensitive, ask\]\s+\(core finding\)/);
    expect(r.stdout).toContain('touches a sensitive file');
    expect(r.stdout).toContain('Keys, credentials');
    expect(r.stdout).toMatch(/safer: read only the files the task needs/);
  });

  it("shows the gate's own findings too", () => {
    for (const id of ['tool-arguments', 'unknown-tool', 'outside-workspace', 'exec-config', 'unknown-effect', 'parse-doubt']) {
      const r = rules('--json', id);
      expect(r.status, id).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ id, source: 'core' });
    }
  });

  it("shows the linter's own rules, marked, with why and a safer way", () => {
    const r = rules('lint/script-injection');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^lint\/script-injection\s+\[script-injection, deny\]\s+\(lint rule\)/);
    expect(r.stdout).toMatch(/safer: pass the value through an environment variable/);
    expect(
      rules()
        .stdout.split('\n')
        .find((l) => l.startsWith('lint/unsupported-shell ')),
    ).toMatch(/\bask\s+lint\s/);
  });

  it("shows a guard rule's safer way", () => {
    const r = rules('destructive-delete/git-force-push');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('safer: push with --force-with-lease');
  });

  it('lists guard rules and core findings, the core ones marked, as text and JSON lines', () => {
    const text = rules().stdout.split('\n');
    expect(text.find((l) => l.startsWith('sensitive-path '))).toMatch(/\bask\s+core\s/);
    expect(text.some((l) => l.startsWith('destructive-delete/rm-root-or-home '))).toBe(true);
    const lines = rules('--json')
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.find((l) => l.id === 'unknown-effect')).toMatchObject({ source: 'core', level: 'ask' });
    expect(lines.find((l) => l.id === 'download-exec/pipe-to-shell')).toMatchObject({ source: 'builtin', safer: expect.any(String) });
  });

  it('shows the MITRE ATT&CK techniques of a guard rule: in its page, in the list and in JSON', () => {
    expect(rules('persistence/user-cron-install').stdout).toContain('MITRE ATT&CK: T1053.003');
    expect(
      rules()
        .stdout.split('\n')
        .find((l) => l.startsWith('persistence/user-cron-install ')),
    ).toMatch(/\bT1053\.003\b/);
    const line = rules('--json')
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((l) => l.id === 'persistence/user-cron-install');
    expect(line.attack).toEqual(['T1053.003']);
  });

  it('exits 64 for an unknown id and suggests the near ones', () => {
    const typo = rules('sensitve-path');
    expect(typo.status).toBe(64);
    expect(typo.stderr).toContain('did you mean: sensitive-path');
    const part = rules('git-force');
    expect(part.status).toBe(64);
    expect(part.stderr).toContain('destructive-delete/git-force-push');
    const none = rules('zzzz-qqqq');
    expect(none.status).toBe(64);
    expect(none.stderr).toMatch(/^shellgate: no rule "zzzz-qqqq"/);
  });
});
