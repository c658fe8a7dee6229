/**
 * `shellgate serve` under load and under attack (issue 29, items 9 and 10), driven as a user and as
 * an attacker would: the built CLI through its launcher, real concurrent connections on its socket
 * and on 127.0.0.1. Nothing is asserted on wall-clock time: the order in which answers arrive, and
 * which connections the server closed. Waits are bounded only so that a broken server fails.
 *
 * The slow command is the slowest line of bench/walk-budget.mjs (about a second of analysis
 * on an idle machine, under 4 KB): the analyser's work budget ends it with expansion-limit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEvent } from '../agents/hook-process.js';
import { askSocket, decisionOf, httpRaw, idleFlood, startServe, until, type Served } from './serve-process.js';

const TMP = mkdtempSync(join(tmpdir(), 'sg-starve-'));
const HOME = join(TMP, 'home');
const PROJECT = join(TMP, 'project');
mkdirSync(HOME);
mkdirSync(join(PROJECT, 'src'), { recursive: true });
writeFileSync(join(PROJECT, 'src', 'index.ts'), 'export {};\n');
const ENV = { ...process.env, HOME, NO_COLOR: '1', XDG_RUNTIME_DIR: '' };
const OPTS = { cwd: PROJECT, env: ENV };

const bash = (command: string): string => JSON.stringify(claudeEvent({ cwd: PROJECT, home: HOME }, 'Bash', { command }));
const words = Array(1500).fill('x').join(' ');
const SLOW_COMMAND = `f(){ grep -rn ${words} .; }; ${Array(60).fill('f').join(';')}`;
const SLOW = bash(SLOW_COMMAND);
const FAST = bash('git status && ls -la src');
const req = (input: string): { agent: string; input: string } => ({ agent: 'claude-code', input });

const servers: Served[] = [];
const others: ChildProcess[] = [];
async function serve(args: string[], fdLimit?: number): Promise<Served> {
  const s = await startServe(['--idle-timeout', '0', ...args], { ...OPTS, ...(fdLimit !== undefined ? { fdLimit } : {}) });
  servers.push(s);
  return s;
}
const tokenOf = (s: Served): string => readFileSync(s.tokenFile!, 'utf8').trim();
const hookPost = (s: Served, body: string, token = tokenOf(s)) =>
  httpRaw(s.port!, {
    method: 'POST',
    path: '/hook/claude-code',
    headers: { host: `127.0.0.1:${s.port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });

afterAll(async () => {
  for (const c of [...servers.map((s) => s.child), ...others]) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
  rmSync(TMP, { recursive: true, force: true });
});

describe('a slow analysis does not hold up the others (item 9)', () => {
  const SOCK = join(TMP, 'a', 'sock');
  beforeAll(async () => {
    expect(SLOW_COMMAND.length).toBeLessThan(4096);
    // A deadline far past the slow analysis: here it ends on its own.
    await serve(['--socket', SOCK, '--workers', '2', '--deadline', '600']);
  });

  it('answers fast requests from other clients while a slow one is still being analysed', async () => {
    await Promise.all([askSocket(SOCK, req(FAST)), askSocket(SOCK, req(FAST))]); // both threads warm
    let slowDone = false;
    const slow = askSocket(SOCK, req(SLOW)).then((r) => {
      slowDone = true;
      return r;
    });
    for (let i = 0; i < 3; i++) {
      const fast = await askSocket(SOCK, req(FAST));
      expect(decisionOf(fast.stdout).level).toBe('allow');
      expect(slowDone).toBe(false);
    }
    const s = await slow;
    expect(decisionOf(s.stdout).level).toBe('ask');
    expect(decisionOf(s.stdout).reason).toMatch(/expansion-limit/);
  });
});

describe('a request past its deadline (item 9)', () => {
  let b: Served;
  const SOCK = join(TMP, 'b', 'sock');
  const AUDIT = join(TMP, 'b-audit.jsonl');
  beforeAll(async () => {
    // 50 ms: far below the slow analysis, so it is always late.
    b = await serve(['--socket', SOCK, '--http', '0', '--workers', '2', '--deadline', '0.05', '--audit-log', AUDIT]);
  });

  it('is answered ask with an input-limit finding that says the deadline passed, over the socket and HTTP', async () => {
    const viaSocket = decisionOf((await askSocket(SOCK, req(SLOW))).stdout);
    expect(viaSocket.level).toBe('ask');
    expect(viaSocket.reason).toMatch(/input-limit: .*the server's deadline of 0\.05 s passed before the analysis ended/);
    const viaHttp = await hookPost(b, SLOW);
    expect(viaHttp.status).toBe(200);
    expect(decisionOf(viaHttp.body).level).toBe('ask');
    expect(decisionOf(viaHttp.body).reason).toMatch(/deadline of 0\.05 s passed/);
  });

  it('replaces the thread it stopped and keeps answering; the late answers are in the audit log', async () => {
    const late = await Promise.all([askSocket(SOCK, req(SLOW)), askSocket(SOCK, req(SLOW)), askSocket(SOCK, req(SLOW))]);
    for (const r of late) expect(decisionOf(r.stdout).level).toBe('ask');
    // On a loaded machine even this one may be late; either way it is answered, never dropped.
    const next = await askSocket(SOCK, req(FAST));
    expect(['allow', 'ask']).toContain(decisionOf(next.stdout).level);
    expect(b.child.exitCode).toBeNull();
    const records = readFileSync(AUDIT, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { level: string; rules: string[]; command: string });
    expect(records.filter((r) => r.rules.includes('input-limit') && r.level === 'ask' && r.command.startsWith('f(){')).length).toBeGreaterThanOrEqual(5);
  });
});

describe('connection floods (item 10)', () => {
  // The server under a descriptor limit of 256: each transport may hold 48 connections, 12 of
  // them unauthenticated per peer. Today's server accepts until it runs out of descriptors.
  let c: Served;
  const SOCK = join(TMP, 'c', 'sock');
  const FLOOD = 300;
  beforeAll(async () => {
    c = await serve(['--socket', SOCK, '--http', '0', '--workers', '2', '--auth-timeout', '600'], 256);
  });

  it('closes idle HTTP connections past the cap at once, answers the authenticated hook, and the socket too', async () => {
    const flood = await idleFlood(FLOOD, () => createConnection(c.port!, '127.0.0.1'));
    try {
      // The server keeps a dozen of them (the per-peer cap); the rest are closed without waiting for the auth deadline.
      expect(await until(() => flood.closed() >= FLOOD - 48, 60_000)).toBe(true);
      const r = await hookPost(c, FAST);
      expect(r.status).toBe(200);
      expect(decisionOf(r.body).level).toBe('allow');
      // The socket has connections of its own: an HTTP flood does not reach them.
      expect(decisionOf((await askSocket(SOCK, req(FAST))).stdout).level).toBe('allow');
    } finally {
      flood.end();
    }
  });

  it('closes idle socket connections past the cap at once and answers the hook', async () => {
    const flood = await idleFlood(FLOOD, () => createConnection(SOCK));
    try {
      expect(await until(() => flood.closed() >= FLOOD - 48, 60_000)).toBe(true);
      expect(decisionOf((await askSocket(SOCK, req(FAST))).stdout).level).toBe('allow');
    } finally {
      flood.end();
    }
  });

  it.runIf(process.getuid?.() === 0)('answers every hook request while another user (uid 65534) keeps reopening idle connections', async () => {
    // The attacker holds FLOOD connections and opens a new one whenever the server closes one.
    const script = `const net=require('net');let open=0;const go=()=>{const s=net.createConnection(${c.port},'127.0.0.1');s.on('error',()=>{});s.once('connect',()=>{if(++open===${FLOOD})console.log('flooding')});s.once('close',()=>setTimeout(go,1))};for(let i=0;i<${FLOOD};i++)go()`;
    const attacker = spawn(process.execPath, ['-e', script], { uid: 65534, gid: 65534, cwd: '/', stdio: ['ignore', 'pipe', 'ignore'] });
    others.push(attacker);
    try {
      let out = '';
      attacker.stdout!.on('data', (d) => (out += d));
      expect(await until(() => out.includes('flooding'), 60_000)).toBe(true);
      for (let i = 0; i < 10; i++) {
        const r = await hookPost(c, FAST);
        expect(r.status).toBe(200);
        expect(decisionOf(r.body).level).toBe('allow');
      }
    } finally {
      attacker.kill('SIGKILL');
    }
  });

  it('closes a connection that does not authenticate in time, on HTTP and on the socket', async () => {
    const d = await serve(['--socket', join(TMP, 'd', 'sock'), '--http', '0', '--workers', '2', '--auth-timeout', '0.5']);
    const idle = await idleFlood(
      2,
      (() => {
        let i = 0;
        return () => (i++ === 0 ? createConnection(d.port!, '127.0.0.1') : createConnection(join(TMP, 'd', 'sock')));
      })(),
    );
    expect(await until(() => idle.closed() === 2, 30_000)).toBe(true);
    // A wrong token is answered 401, and its connection is not kept.
    const wrong = await hookPost(d, FAST, 'x'.repeat(43));
    expect(wrong.status).toBe(401);
  });
});
