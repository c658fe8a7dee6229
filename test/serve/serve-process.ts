/**
 * Helpers for tests that drive `shellgate serve` as a process: the built CLI through its launcher
 * (bin/shellgate.cjs, the bundle a user runs), raw requests over its socket and over HTTP (a raw
 * request, because fetch will not send a Host header of our choosing), and idle connections.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';

export const LAUNCHER = join(import.meta.dirname, '..', '..', 'bin', 'shellgate.cjs');

export interface Served {
  child: ChildProcess;
  line: string;
  port: number | null;
  tokenFile: string | null;
  stderr(): string;
  exited: Promise<number | null>;
}

/**
 * Starts `shellgate serve ARGS` (under `ulimit -n` when `fdLimit` is given) and waits for its start
 * line. `entry`: the script node runs (the launcher unless said, e.g. dist/cli/main.js).
 */
export function startServe(args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; fdLimit?: number; entry?: string }): Promise<Served> {
  const argv = [opts.entry ?? LAUNCHER, 'serve', ...args];
  const child =
    opts.fdLimit !== undefined
      ? spawn('/bin/sh', ['-c', `ulimit -n ${opts.fdLimit} && exec "$@"`, 'sh', process.execPath, ...argv], {
          cwd: opts.cwd,
          env: opts.env,
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn(process.execPath, argv, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      const line = out.slice(0, nl);
      const port = /http http:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[1];
      resolve({ child, line, port: port ? Number(port) : null, tokenFile: /bearer token in (\S+?)\)/.exec(line)?.[1] ?? null, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before listening: ${err}`)));
  });
}

export interface Answer {
  stdout: string;
  stderr: string;
  exitCode: number;
  error?: string;
}

/** One request line on a Unix socket, one answer line back. */
export function askSocket(socket: string, request: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const c = createConnection(socket);
    let buf = '';
    c.on('connect', () => c.write(JSON.stringify(request) + '\n'));
    c.on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) {
        c.destroy();
        resolve(JSON.parse(buf.slice(0, buf.indexOf('\n'))) as Answer);
      }
    });
    c.on('error', reject);
    c.on('close', () => reject(new Error(`closed without an answer: ${buf}`)));
  });
}

/** One HTTP request on a connection of its own. */
export function httpRaw(
  port: number,
  o: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: o.method, path: o.path, headers: o.headers ?? {}, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

export function decisionOf(stdout: string): { level?: string; reason?: string } {
  const h = (JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } }).hookSpecificOutput;
  return { level: h?.permissionDecision, reason: h?.permissionDecisionReason };
}

/** Connections that never send a byte; `closed()` counts those the server has closed. */
export interface IdleFlood {
  sockets: Socket[];
  closed(): number;
  end(): void;
}

export async function idleFlood(n: number, connect: () => Socket): Promise<IdleFlood> {
  let closed = 0;
  const sockets: Socket[] = [];
  await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<void>((resolve) => {
          const s = connect();
          sockets.push(s);
          s.on('error', () => undefined);
          s.once('close', () => {
            closed++;
            resolve();
          });
          s.once('connect', () => resolve());
        }),
    ),
  );
  return { sockets, closed: () => closed, end: () => sockets.forEach((s) => s.destroy()) };
}

/** Waits until `cond()` holds, checking every 50 ms; false after `ms` (a bound for a broken server, not a timing assertion). */
export async function until(cond: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (cond()) return true;
  return cond();
}
