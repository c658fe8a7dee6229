/**
 * The HTTP transport, for agents whose hooks can POST (Claude Code's `"type": "http"`): bound to
 * 127.0.0.1 only, every hook request carries the bearer token.
 *
 *   POST /hook/AGENT   body: the agent's hook JSON  →  200, body: the answer the command hook prints
 *   GET  /health       →  200 {"ok": true, "version": …}
 *
 * An HTTP hook fails open on anything but a 2xx answer (Claude Code: "a non-2xx response or a
 * connection failure lets the tool run"), so every failure after authentication — a body that is
 * not JSON, a missing field, an unknown tool, one too large, an internal error — is a 200 whose
 * body is the agent's deny, the JSON form of its blocking answer. A missing or wrong token is a
 * 401: it cannot be answered with a decision, since whoever sent it is not the user's agent.
 *
 * Before anything else the `Host` header must name this server (`127.0.0.1:PORT`, `localhost:PORT`
 * or `[::1]:PORT`), else 421 — /health included: a web page that rebinds its own name to 127.0.0.1
 * sends its own name as the host, and must not read anything here. A connection that has not sent a
 * request with the token within the guard's deadline is closed (connection-guard.ts), and every
 * answer to an unauthenticated request closes its connection.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AgentProfile } from '../agents/types.js';
import type { Decisions } from './analysis-messages.js';
import { createConnectionGuard, type ConnectionGuard, type GuardLimits } from './connection-guard.js';
import { MAX_REQUEST_BYTES } from './protocol.js';
import { createTcpPeerKey } from './tcp-peer.js';
import { bearerMatches } from './token.js';

export interface HttpTransportOptions {
  port: number;
  token: string;
  decisions: Decisions;
  limits: GuardLimits;
  version: string;
  onActivity(): void;
}

/**
 * The agent's deny as an HTTP hook body: its encoded deny, when the protocol expresses a deny as
 * JSON printed with exit 0. null: the agent blocks only with an exit code, which HTTP cannot carry.
 */
export function httpDenyBody(agent: AgentProfile, reason: string, tool = ''): string | null {
  const a = agent.hook.encode({ level: 'deny', reason }, { tool, args: {} });
  return a.exitCode === 0 && a.stdout.trim().startsWith('{') ? a.stdout : null;
}

function send(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...extra });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_REQUEST_BYTES) {
        req.removeAllListeners('data');
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function hook(o: HttpTransportOptions, agent: AgentProfile, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const deny = (reason: string, tool?: string): void => {
    // The agent was checked to have a JSON deny when the route was matched.
    send(res, 200, httpDenyBody(agent, `shellgate: ${reason}`, tool)!);
  };
  const body = await readBody(req);
  if (body === null) {
    res.setHeader('connection', 'close');
    return deny(`the hook request is larger than ${MAX_REQUEST_BYTES} bytes; blocked because it could not be checked`);
  }
  o.onActivity();
  try {
    const r = await o.decisions.decide(agent, body, {});
    if ('refused' in r) return deny(r.refused);
    if (r.answer.exitCode === 0) return send(res, 200, r.answer.stdout);
    return deny(r.block?.reason ?? 'blocked', r.block?.tool);
  } catch (e) {
    return deny(`internal error (${(e as Error).message}); blocked rather than let an unchecked call run`);
  }
}

/** The `Host` values that name this server: its loopback names with the port it listens on. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (typeof host !== 'string') return false;
  const h = host.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}` || h === `[::1]:${port}`;
}

async function route(o: HttpTransportOptions, guard: ConnectionGuard, port: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Until the token is shown, each answer ends its connection: an unauthenticated peer holds nothing.
  if (!guard.isAuthenticated(req.socket)) res.setHeader('connection', 'close');
  if (!hostAllowed(req.headers.host, port)) {
    req.resume();
    return send(res, 421, '{"error":"the Host header does not name this server (127.0.0.1, localhost or [::1] with its port)"}\n');
  }
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/health') {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, '{"error":"use GET"}\n', { allow: 'GET, HEAD' });
    return send(res, 200, JSON.stringify({ ok: true, version: o.version }) + '\n');
  }
  const m = /^\/hook\/([^/]+)\/?$/.exec(path);
  if (!m) return send(res, 404, '{"error":"not found: POST /hook/AGENT or GET /health"}\n');
  if (req.method !== 'POST') return send(res, 405, '{"error":"use POST"}\n', { allow: 'POST' });
  if (!bearerMatches(req.headers.authorization, o.token)) {
    req.resume();
    return send(res, 401, '{"error":"missing or wrong bearer token"}\n', { 'www-authenticate': 'Bearer' });
  }
  guard.authenticated(req.socket);
  res.removeHeader('connection');
  let id: string;
  try {
    id = decodeURIComponent(m[1]);
  } catch {
    id = m[1];
  }
  const agent = o.decisions.agentOf(id);
  if (typeof agent === 'string') {
    req.resume();
    return send(res, 404, JSON.stringify({ error: agent }) + '\n');
  }
  if (httpDenyBody(agent, 'probe') === null) {
    req.resume();
    return send(res, 404, JSON.stringify({ error: `${agent.name} has no HTTP hooks (its blocking answer is an exit code); use the command hook` }) + '\n');
  }
  return hook(o, agent, req, res);
}

export async function listenHttp(o: HttpTransportOptions): Promise<Server> {
  const server = createServer();
  const guard = createConnectionGuard(server, o.limits, createTcpPeerKey());
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : o.port;
    route(o, guard, port, req, res).catch((e: unknown) => {
      // route and hook answer every failure themselves; this is a last resort before a 500 fails open.
      if (!res.headersSent) send(res, 500, JSON.stringify({ error: `internal error (${(e as Error).message})` }) + '\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
