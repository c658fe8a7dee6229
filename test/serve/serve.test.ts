/**
 * `shellgate serve` driven as a user runs it: the built CLI in a child process, asked over its
 * Unix socket, over HTTP, and through `shellgate hook claude-code --server`, with Claude Code
 * PreToolUse payloads. No timing is asserted: waits are for events (a line printed, an exit, a
 * decision that changes), each bounded only so that a broken server fails the test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEvent } from '../agents/hook-process.js';
import { startServe, type Served } from './serve-process.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const TMP = mkdtempSync(join(tmpdir(), 'sg-serve-'));
const HOME = join(TMP, 'home');
const PROJECT = join(TMP, 'project');
const SOCKET = join(TMP, 's', 'sock');
const AUDIT = join(TMP, 'audit.jsonl');
mkdirSync(HOME);
mkdirSync(join(PROJECT, '.claude'), { recursive: true });
mkdirSync(join(PROJECT, 'src'));
writeFileSync(join(PROJECT, 'src', 'index.ts'), 'export {};\n');
const ENV = { ...process.env, HOME, NO_COLOR: '1', XDG_RUNTIME_DIR: '' };

const children: ChildProcess[] = [];

/** A Claude Code PreToolUse event, with every field Claude Code sends. */
function event(tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify(claudeEvent({ cwd: PROJECT, home: HOME }, tool, input, extra));
}
const bash = (command: string): string => event('Bash', { command, description: 'run it', timeout: 120000 });

const ALLOW = bash('git status && ls -la src');
const ASK = bash('rm -rf build');
const DENY = bash('rm -rf ~');
const READ = event('Read', { file_path: join(PROJECT, 'src', 'index.ts') });
const MALFORMED = '{"session_id": "x", "tool_name": "Bash", "tool_input": ';

function decisionOf(stdout: string): string | undefined {
  return (JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision;
}

/** Starts `shellgate serve ARGS` from the unbundled CLI and waits for its start line. */
async function serve(args: string[]): Promise<Served> {
  const s = await startServe(args, { cwd: PROJECT, env: ENV, entry: BIN });
  children.push(s.child);
  return s;
}

/** Runs the CLI with stdin; resolves with its output (async: the test process may serve meanwhile). */
function cli(args: string[], input: string, cwd = PROJECT): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: ENV });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}

/** One request line on a Unix socket, one answer line back. */
function ask(socket: string, request: unknown): Promise<{ stdout: string; stderr: string; exitCode: number; error?: string }> {
  return new Promise((resolve, reject) => {
    const c = createConnection(socket);
    let buf = '';
    c.on('connect', () => c.write((typeof request === 'string' ? request : JSON.stringify(request)) + '\n'));
    c.on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) {
        c.destroy();
        resolve(JSON.parse(buf.slice(0, buf.indexOf('\n'))));
      }
    });
    c.on('error', reject);
  });
}

let main: Served;
let url: string;
let token: string;

function post(body: string, auth: string | null = `Bearer ${token}`, agent = 'claude-code'): Promise<Response> {
  return fetch(`${url}/hook/${agent}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...(auth !== null ? { authorization: auth } : {}) },
  });
}

beforeAll(async () => {
  main = await serve(['--socket', SOCKET, '--http', '0', '--audit-log', AUDIT]);
  url = /http (http:\/\/127\.0\.0\.1:\d+)/.exec(main.line)![1];
  const tokenFile = /bearer token in (\S+?)\)/.exec(main.line)![1];
  token = readFileSync(tokenFile, 'utf8').trim();
});

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('shellgate serve', () => {
  it('says where it listens, in a private directory, HTTP on 127.0.0.1 only', () => {
    expect(main.line).toContain(`socket ${SOCKET}`);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(statSync(join(TMP, 's')).mode & 0o777).toBe(0o700);
    expect(statSync(SOCKET).isSocket()).toBe(true);
    const tokenFile = /bearer token in (\S+?)\)/.exec(main.line)![1];
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
  });

  it('answers allow, ask and deny over the socket as Claude Code reads them', async () => {
    for (const [payload, level] of [
      [ALLOW, 'allow'],
      [ASK, 'ask'],
      [DENY, 'deny'],
      [READ, 'allow'],
    ] as const) {
      const a = await ask(SOCKET, { agent: 'claude-code', input: payload });
      expect(a.exitCode, payload).toBe(0);
      expect(decisionOf(a.stdout), payload).toBe(level);
      expect(a.error).toBeUndefined();
    }
  });

  it('blocks malformed input, an unknown agent and a bad request line over the socket', async () => {
    const bad = await ask(SOCKET, { agent: 'claude-code', input: MALFORMED });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/not JSON/);
    const unknownTool = await ask(SOCKET, { agent: 'claude-code', input: event('Frobnicate', { x: 1 }) });
    expect(unknownTool.exitCode).toBe(2);
    const agent = await ask(SOCKET, { agent: 'claude', input: ALLOW });
    expect(agent.exitCode).toBe(2);
    expect(agent.error).toMatch(/unknown agent/);
    const line = await ask(SOCKET, 'not json');
    expect(line.exitCode).toBe(2);
    expect(line.error).toMatch(/bad request/);
  });

  it('answers over HTTP with the body Claude Code parses, for allow, ask and deny', async () => {
    for (const [payload, level] of [
      [ALLOW, 'allow'],
      [ASK, 'ask'],
      [DENY, 'deny'],
      [READ, 'allow'],
    ] as const) {
      const r = await post(payload);
      expect(r.status).toBe(200);
      expect(decisionOf(await r.text()), payload).toBe(level);
    }
  });

  it('answers a malformed or unknown call over HTTP with a 200 deny, never a status that fails open', async () => {
    for (const body of [MALFORMED, '', event('Frobnicate', { x: 1 }), JSON.stringify({ tool_name: 'Bash' })]) {
      const r = await post(body);
      expect(r.status, body).toBe(200);
      const out = JSON.parse(await r.text());
      expect(out.hookSpecificOutput.permissionDecision, body).toBe('deny');
      expect(out.hookSpecificOutput.permissionDecisionReason).toMatch(/^shellgate: /);
    }
  });

  it('refuses a missing or wrong token with 401 and serves /health without one', async () => {
    expect((await post(ALLOW, null)).status).toBe(401);
    expect((await post(ALLOW, 'Bearer not-the-token')).status).toBe(401);
    expect((await post(ALLOW, token)).status).toBe(401); // no "Bearer"
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await post(ALLOW, `Bearer ${token}`, 'nobody')).status).toBe(404);
  });

  it('gives `hook claude-code --server` the same answer as the hook in-process', async () => {
    for (const payload of [ALLOW, ASK, DENY, READ, MALFORMED]) {
      // The same flags as the server (it refuses clients with others): the answer comes from the server.
      const viaServer = await cli(['hook', 'claude-code', '--audit-log', AUDIT, '--server', SOCKET], payload);
      const inProcess = await cli(['hook', 'claude-code', '--audit-log', AUDIT], payload);
      expect(viaServer.code, payload).toBe(inProcess.code);
      expect(viaServer.out, payload).toBe(inProcess.out);
      expect(viaServer.err, payload).toBe(inProcess.err);
    }
  });

  it('logs each decision to --audit-log', () => {
    const lines = readFileSync(AUDIT, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.some((l) => l.agent === 'claude-code' && l.level === 'deny' && l.command === 'rm -rf ~')).toBe(true);
  });

  it('leaves a hook with other flags to decide in-process (the server runs without a preset)', async () => {
    const payload = event('Read', { file_path: join(PROJECT, '.env') });
    const viaServer = await cli(['hook', 'claude-code', '--preset', 'sensitive', '--server', SOCKET], payload);
    const inProcess = await cli(['hook', 'claude-code', '--preset', 'sensitive'], payload);
    expect(viaServer.out).toBe(inProcess.out);
    expect(viaServer.code).toBe(inProcess.code);
    expect(viaServer.err).toMatch(/other policy options/);
  });

  it('falls back to deciding in-process when no server is listening', async () => {
    const dead = await serve(['--socket', join(TMP, 'dead', 'sock'), '--idle-timeout', '0']);
    dead.child.kill('SIGKILL'); // leaves a stale socket behind
    await dead.exited;
    expect(existsSync(join(TMP, 'dead', 'sock'))).toBe(true);
    for (const sock of [join(TMP, 'dead', 'sock'), join(TMP, 'never', 'sock')]) {
      for (const payload of [ALLOW, DENY]) {
        const viaServer = await cli(['hook', 'claude-code', '--server', sock], payload);
        const inProcess = await cli(['hook', 'claude-code'], payload);
        expect(viaServer.code).toBe(0);
        expect(viaServer.out).toBe(inProcess.out);
      }
    }
  });

  it('never takes an answer from a socket in a directory others can reach', async () => {
    const dir = join(TMP, 'open');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    const liar: Server = createServer((c) =>
      c.on('data', () =>
        c.end(
          JSON.stringify({ stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\n', stderr: '', exitCode: 0 }) + '\n',
        ),
      ),
    );
    await new Promise<void>((r) => liar.listen(join(dir, 'sock'), r));
    try {
      const r = await cli(['hook', 'claude-code', '--server', join(dir, 'sock')], DENY);
      expect(decisionOf(r.out)).toBe('deny');
      expect(r.err).toMatch(/0755/);
    } finally {
      liar.close();
    }
  });

  it('refuses to start in a socket directory with other permissions', async () => {
    const dir = join(TMP, 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o750);
    const child = spawn(process.execPath, [BIN, 'serve', '--socket', join(dir, 'sock')], { env: ENV });
    children.push(child);
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(1);
    expect(err).toMatch(/must be 0700/);
    expect(existsSync(join(dir, 'sock'))).toBe(false);
  });

  it('reloads when a settings file changes; a broken file keeps the policy in force', async () => {
    const settings = join(PROJECT, '.claude', 'settings.json');
    const level = async (): Promise<string | undefined> => decisionOf((await ask(SOCKET, { agent: 'claude-code', input: ALLOW })).stdout);
    expect(await level()).toBe('allow');
    writeFileSync(settings, JSON.stringify({ permissions: { deny: ['Bash(ls:*)'] } }));
    for (let i = 0; i < 300 && (await level()) !== 'deny'; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await level()).toBe('deny');
    // HTTP answers from the same runtime.
    expect(decisionOf(await (await post(ALLOW)).text())).toBe('deny');

    writeFileSync(settings, '{ "permissions": { "deny": [');
    for (let i = 0; i < 300 && !/reload failed/.test(main.stderr()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(main.stderr()).toMatch(/reload failed, keeping the previous policy: .*settings\.json/);
    expect(await level()).toBe('deny');

    writeFileSync(settings, '{}');
    for (let i = 0; i < 300 && (await level()) !== 'allow'; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await level()).toBe('allow');
  });

  it('re-reads the settings on SIGHUP', async () => {
    const before = main.stderr().split('reloaded (SIGHUP)').length;
    main.child.kill('SIGHUP');
    for (let i = 0; i < 300 && main.stderr().split('reloaded (SIGHUP)').length === before; i++) await new Promise((r) => setTimeout(r, 50));
    expect(main.stderr().split('reloaded (SIGHUP)').length).toBe(before + 1);
    expect(main.child.exitCode).toBeNull();
  });

  it('exits cleanly after the idle timeout, removing its socket', async () => {
    const sock = join(TMP, 'idle', 'sock');
    const s = await serve(['--socket', sock, '--idle-timeout', '1']);
    expect(existsSync(sock)).toBe(true);
    expect(await s.exited).toBe(0);
    expect(existsSync(sock)).toBe(false);
    expect(s.stderr()).toMatch(/no request for 1 s; exiting/);
  });

  it.runIf(process.getuid?.() === 0)('refuses a peer of another uid holding the connection (root: hands a connection to uid 65534)', async () => {
    const conn = createConnection(SOCKET);
    await new Promise<void>((r) => conn.once('connect', () => r()));
    // The child gets the connected socket as stdin/stdout; the parent lets go of its copy.
    const script = `process.stdout.write(JSON.stringify({agent:'claude-code',input:${JSON.stringify(ALLOW)}})+'\\n');let b='';process.stdin.on('data',d=>{b+=d;if(b.includes('\\n')){require('fs').writeSync(2,b);process.exit(0)}})`;
    const child = spawn(process.execPath, ['-e', script], { stdio: [conn, conn, 'pipe'], uid: 65534, gid: 65534, cwd: '/' });
    children.push(child);
    conn.destroy();
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    await new Promise((r) => child.once('exit', r));
    const a = JSON.parse(err.trim());
    expect(a.exitCode).toBe(2);
    expect(a.error).toMatch(/connection refused: the peer process \d+ does not run as uid 0/);
  });
});
