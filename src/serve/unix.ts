/**
 * The Unix-socket transport: newline-delimited JSON requests (protocol.ts), answered in order on
 * each connection. The peer is checked once per connection before its first answer (peer.ts);
 * a refused peer gets a blocking answer with `error` and the connection is closed. A connection
 * must send its first request line within the guard's deadline (connection-guard.ts).
 */
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AgentProfile, HookAnswer } from '../agents/types.js';
import type { Decisions } from './analysis-messages.js';
import { createConnectionGuard, type ConnectionGuard, type GuardLimits } from './connection-guard.js';
import { oneKey } from './tcp-peer.js';
import type { PeerChecker, PeerResult } from './peer.js';
import { MAX_REQUEST_BYTES, parseRequest, type ServeAnswer, type ServeRequest } from './protocol.js';

export interface UnixTransportOptions {
  socketPath: string;
  decisions: Decisions;
  limits: GuardLimits;
  /** null: no peer check on this system (the 0700 directory is the only one). */
  peers: PeerChecker | null;
  onActivity(): void;
}

/** The blocking answer for a request that cannot be decided, marked so shellgate's client decides in-process. */
export function refusal(agent: AgentProfile | null, message: string): ServeAnswer {
  const blocked: HookAnswer = agent ? agent.hook.block(message) : { stdout: '', stderr: `shellgate: ${message}; blocked\n`, exitCode: 2 };
  return { ...blocked, error: message };
}

/** Is a server already answering on `path`? A stale socket (nobody listening) is removed. */
async function clearStaleSocket(path: string): Promise<void> {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return; // nothing there
  }
  if (!st.isSocket()) throw new Error(`${path} exists and is not a socket; remove it or choose another --socket`);
  const alive = await new Promise<boolean>((resolve) => {
    const c = createConnection(path);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
  if (alive) throw new Error(`a server is already listening on ${path}`);
  unlinkSync(path);
}

/** The answer to one request line; `end`: close the connection after it (a refused peer). */
async function answer(o: UnixTransportOptions, req: ServeRequest | string, peer: () => Promise<PeerResult>): Promise<{ a: ServeAnswer; end: boolean }> {
  const agent = typeof req === 'string' ? null : o.decisions.agentOf(req.agent);
  const profile = agent !== null && typeof agent !== 'string' ? agent : null;
  const p = await peer();
  if (!p.ok) return { a: refusal(profile, `connection refused: ${p.reason}`), end: true };
  if (typeof req === 'string') return { a: refusal(null, `bad request: ${req}`), end: false };
  if (profile === null) return { a: refusal(null, agent as string), end: false };
  const { agent: _agent, input, ...from } = req;
  const r = await o.decisions.decide(profile, input, from);
  return { a: 'refused' in r ? refusal(profile, r.refused) : r.answer, end: false };
}

function serveConnection(o: UnixTransportOptions, guard: ConnectionGuard, socket: Socket): void {
  if (socket.destroyed) return; // closed by the guard as it arrived
  let buffered: Buffer[] = [];
  let size = 0;
  let chain: Promise<void> = Promise.resolve();
  let peerResult: Promise<PeerResult> | null = null;
  let closed = false;
  let overflowed = false;
  const peer =
    (pidHint?: number): (() => Promise<PeerResult>) =>
    () => {
      // Checked once, with the pid the first request names (a hint the check verifies).
      peerResult ??= o.peers ? o.peers.check(socket, pidHint) : Promise.resolve<PeerResult>({ ok: true, pid: 0 });
      return peerResult;
    };
  const reply = (a: ServeAnswer, end: boolean): void => {
    if (closed) return;
    socket.write(JSON.stringify(a) + '\n');
    if (end) {
      closed = true;
      socket.end();
    }
  };
  socket.on('error', () => {
    closed = true;
  });
  socket.on('data', (chunk: Buffer) => {
    if (closed || overflowed) return;
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      buffered.push(chunk.subarray(start, nl));
      const line = Buffer.concat(buffered).toString('utf8');
      buffered = [];
      size = 0;
      start = nl + 1;
      if (line.trim() === '') continue;
      // A whole request line: the peer check that comes with its answer decides the rest.
      guard.authenticated(socket);
      o.onActivity();
      const req = parseRequest(line);
      const hint = typeof req === 'string' ? undefined : req.pid;
      chain = chain.then(async () => {
        try {
          const r = await answer(o, req, peer(hint));
          reply(r.a, r.end);
        } catch (e) {
          reply(refusal(null, `internal error (${(e as Error).message})`), false);
        }
      });
    }
    if (start < chunk.length) {
      buffered.push(chunk.subarray(start));
      size += chunk.length - start;
      if (size > MAX_REQUEST_BYTES) {
        buffered = [];
        overflowed = true;
        chain = chain.then(() => reply(refusal(null, `request larger than ${MAX_REQUEST_BYTES} bytes`), true));
      }
    }
  });
}

export async function listenUnix(o: UnixTransportOptions): Promise<Server> {
  await clearStaleSocket(o.socketPath);
  const server = createServer();
  // Every peer that can reach the socket is this user or root (the 0700 directory): before their
  // first line, connections share one count, and a burst of the user's parallel hook calls may use
  // the whole transport (past it, the oldest silent connection makes room).
  const guard = createConnectionGuard(server, { ...o.limits, maxPendingPerPeer: o.limits.maxConnections }, oneKey('unix'));
  server.on('connection', (socket: Socket) => serveConnection(o, guard, socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The directory already keeps others out; the socket itself is made private too.
  chmodSync(o.socketPath, 0o600);
  return server;
}
