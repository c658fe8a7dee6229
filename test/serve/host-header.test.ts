/**
 * The HTTP transport answers only requests whose Host header names it (issue 29, item 11): a web
 * page that rebinds its own DNS name to 127.0.0.1 sends that name as the Host, and must not read
 * /health (or anything else). Driven against the built CLI with raw requests (fetch will not send a
 * Host header of our choosing).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEvent } from '../agents/hook-process.js';
import { decisionOf, httpRaw, startServe, type Served } from './serve-process.js';

const TMP = mkdtempSync(join(tmpdir(), 'sg-host-'));
const HOME = join(TMP, 'home');
const PROJECT = join(TMP, 'project');
mkdirSync(HOME);
mkdirSync(PROJECT);
const ALLOW = JSON.stringify(claudeEvent({ cwd: PROJECT, home: HOME }, 'Bash', { command: 'ls' }));

let s: Served;
let token: string;
beforeAll(async () => {
  s = await startServe(['--socket', join(TMP, 's', 'sock'), '--http', '0', '--idle-timeout', '0'], {
    cwd: PROJECT,
    env: { ...process.env, HOME, XDG_RUNTIME_DIR: '' },
  });
  token = readFileSync(s.tokenFile!, 'utf8').trim();
});
afterAll(async () => {
  if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await s.exited;
  rmSync(TMP, { recursive: true, force: true });
});

describe('the Host header on HTTP', () => {
  it('serves /health and hooks for 127.0.0.1, localhost and [::1] with the port', async () => {
    for (const host of [`127.0.0.1:${s.port}`, `localhost:${s.port}`, `LocalHost:${s.port}`, `[::1]:${s.port}`]) {
      expect((await httpRaw(s.port!, { method: 'GET', path: '/health', headers: { host } })).status, host).toBe(200);
      const r = await httpRaw(s.port!, { method: 'POST', path: '/hook/claude-code', headers: { host, authorization: `Bearer ${token}` }, body: ALLOW });
      expect(r.status, host).toBe(200);
      expect(decisionOf(r.body).level).toBe('allow');
    }
  });

  it('refuses any other host, /health included, even with the token', async () => {
    const others = [
      'attacker.example',
      `attacker.example:${s.port}`,
      `127.0.0.1`,
      `localhost:${s.port + 1}`,
      `127.0.0.1.nip.io:${s.port}`,
      `0.0.0.0:${s.port}`,
    ];
    for (const host of others) {
      const health = await httpRaw(s.port!, { method: 'GET', path: '/health', headers: { host } });
      expect(health.status, host).toBe(421);
      expect(health.body).not.toMatch(/version/);
      const hook = await httpRaw(s.port!, { method: 'POST', path: '/hook/claude-code', headers: { host, authorization: `Bearer ${token}` }, body: ALLOW });
      expect(hook.status, host).toBe(421);
    }
  });
});
