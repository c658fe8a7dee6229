/**
 * `shellgate serve`: a resident process per user that answers hook events over a Unix socket in
 * a private directory and, optionally, over HTTP on 127.0.0.1 with a bearer token. Settings are
 * re-read when a file changes (and on `reload()`, which the CLI calls on SIGHUP); a file that no
 * longer parses keeps the previous policy. After `idleTimeoutSec` without a request it closes,
 * removing its socket.
 *
 * The main thread only accepts, authenticates and answers: analyses run in a pool of worker
 * threads, each request with a deadline (analysis-pool.ts), and each transport holds connections
 * under its own limits (connection-guard.ts).
 */
import { lstatSync, unlinkSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { createGate } from '../policy/gate.js';
import type { AuditRecord } from '../audit/types.js';
import type { Decisions } from './analysis-messages.js';
import { createAnalysisPool, type AnalysisPool } from './analysis-pool.js';
import { defaultLimits, type GuardLimits } from './connection-guard.js';
import { agentOf, clientRefusal } from './decider.js';
import { lateAnswer } from './late-answer.js';
import { listenHttp } from './http.js';
import { createPeerChecker, findSs } from './peer.js';
import { optionsKey, type PolicyOptions } from './protocol.js';
import { currentUid, ensurePrivateDir } from './socket-path.js';
import { loadOrCreateToken } from './token.js';
import { listenUnix } from './unix.js';
import { createSettingsWatcher } from './watch.js';

export interface ServeConfig {
  socketPath: string;
  /** HTTP port on 127.0.0.1 (0: any free port); null: no HTTP. */
  httpPort: number | null;
  /** Where the token is kept; null: `token` next to the socket, new at each start. */
  tokenFile: string | null;
  /** Seconds without a request before the server exits; 0: never. */
  idleTimeoutSec: number;
  /** Analysis threads (default: the cores available, at least 2, at most 8). */
  workers?: number;
  /** Milliseconds a request may take before it is answered ask (default 5000). */
  deadlineMs?: number;
  /** Connection limits of each transport (default: defaultLimits(), from the descriptor limit). */
  limits?: Partial<GuardLimits>;
  policy: PolicyOptions;
  version: string;
  record?(r: AuditRecord): void;
  /** Where messages go (reloads, errors): the CLI writes them to stderr. */
  log(message: string): void;
}

export interface RunningServer {
  socketPath: string;
  httpUrl: string | null;
  tokenFile: string | null;
  /** How connections on the socket are checked, in words (for the start line). */
  peerCheck: string;
  /** Re-reads every settings file now (SIGHUP). */
  reload(why: string): Promise<void>;
  close(): Promise<void>;
  /** Settles when the server has closed (idle timeout or close()). */
  closed: Promise<void>;
}

/** Loads the policy once before listening: a config that does not load is an error now, not a blocked answer at the first event. */
async function checkPolicyLoads(cfg: ServeConfig): Promise<void> {
  if (cfg.policy.config) {
    await createGate({ settings: [{ source: 'project', file: cfg.policy.config, format: 'shellgate', optional: false }], presets: [] });
  } else {
    await createGate({}); // loads the parser once, so the first event is answered as fast as the next
  }
}

interface HttpListener {
  http: HttpServer;
  url: string;
  tokenFile: string;
  /** The token file was made by this start (and is removed on close). */
  tokenCreated: boolean;
}

/** The HTTP transport with its bearer token, kept in `cfg.tokenFile` or next to the socket in `dir`. */
async function startHttp(cfg: ServeConfig, port: number, dir: string, uid: number, decisions: Decisions, onActivity: () => void): Promise<HttpListener> {
  const tokenFile = cfg.tokenFile ?? join(dir, 'token');
  const t = loadOrCreateToken(tokenFile, cfg.tokenFile !== null, uid);
  const tokenCreated = t.created && cfg.tokenFile === null;
  const http = await listenHttp({ port, token: t.token, decisions, limits: limitsOf(cfg), version: cfg.version, onActivity });
  const addr = http.address();
  return { http, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : port}`, tokenFile, tokenCreated };
}

const limitsOf = (cfg: ServeConfig): GuardLimits => ({ ...defaultLimits(), ...cfg.limits });

/** Default pool size: the cores this process may use, at least 2 (one slow request leaves one free), at most 8 (each thread holds its own parser and gates). */
export function defaultWorkers(): number {
  return Math.min(8, Math.max(2, availableParallelism()));
}

/** The pool, and the decisions the transports ask for: client checks on the main thread, analyses in the pool. */
function startAnalysis(cfg: ServeConfig, onProjectFiles: (files: string[]) => void): { pool: AnalysisPool; decisions: Decisions } {
  // One snapshot of the server's environment, as the decider takes (the late answer reads the shell from it).
  const env = Object.freeze({ ...process.env });
  const ownKey = optionsKey(cfg.policy);
  const pool = createAnalysisPool({
    size: cfg.workers ?? defaultWorkers(),
    deadlineMs: cfg.deadlineMs ?? 5000,
    setup: { policy: cfg.policy, version: cfg.version, home: homedir(), audit: cfg.record !== undefined },
    late: (agent, input, from, why) =>
      lateAnswer(agent, input, from, { policy: cfg.policy, version: cfg.version, env, ...(cfg.record ? { record: cfg.record } : {}) }, why),
    ...(cfg.record ? { record: cfg.record } : {}),
    onProjectFiles,
    log: cfg.log,
  });
  const decisions: Decisions = {
    agentOf,
    decide: async (agent, input, from) => {
      // Refused before queueing: an answer of the server's own (a deadline) must not come from a policy the client does not run.
      const refused = clientRefusal(from, cfg.version, ownKey);
      return refused !== null ? { refused } : pool.decide(agent, input, from);
    },
  };
  return { pool, decisions };
}

export async function startServer(cfg: ServeConfig): Promise<RunningServer> {
  const uid = currentUid();
  const dir = ensurePrivateDir(cfg.socketPath, uid);
  await checkPolicyLoads(cfg);

  let reloading: Promise<void> = Promise.resolve();
  const reload = (why: string): Promise<void> => {
    reloading = reloading.then(async () => {
      const errors = await pool.reload();
      if (errors.length === 0) cfg.log(`settings reloaded (${why})`);
      for (const e of errors) cfg.log(`reload failed, keeping the previous policy: ${e}`);
    });
    return reloading;
  };
  const watcher = createSettingsWatcher(() => void reload('a settings file changed'));
  const { pool, decisions } = startAnalysis(cfg, (files) => watcher.add(files));
  if (cfg.policy.config) watcher.add([cfg.policy.config]);

  let last = Date.now();
  const onActivity = (): void => {
    last = Date.now();
  };

  const ss = findSs();
  const peers = ss ? createPeerChecker(ss, cfg.socketPath, uid) : null;
  let unix: Server;
  try {
    unix = await listenUnix({ socketPath: cfg.socketPath, decisions, limits: limitsOf(cfg), peers, onActivity });
  } catch (e) {
    void pool.close();
    watcher.close();
    peers?.close();
    throw e;
  }
  const socketIno = lstatSync(cfg.socketPath).ino;

  let httpListener: HttpListener | null = null;
  try {
    if (cfg.httpPort !== null) httpListener = await startHttp(cfg, cfg.httpPort, dir, uid, decisions, onActivity);
  } catch (e) {
    unix.close();
    void pool.close();
    watcher.close();
    peers?.close();
    throw e;
  }

  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      idle?.stop();
      watcher.close();
      peers?.close();
      const done: Promise<void>[] = [new Promise((r) => unix.close(() => r()))];
      const h = httpListener?.http;
      if (h) {
        done.push(new Promise((r) => h.close(() => r())));
        h.closeAllConnections();
      }
      done.push(pool.close());
      await Promise.all(done);
      // Node removes the socket file on close; make sure, and never remove another server's socket.
      removeIfSame(cfg.socketPath, socketIno);
      if (httpListener?.tokenCreated) removeIfSame(httpListener.tokenFile, null);
      resolveClosed();
    })();
    return closing;
  };

  const onIdle = (): void => {
    cfg.log(`no request for ${cfg.idleTimeoutSec} s; exiting`);
    void close();
  };
  const idle: IdleTimer | null = cfg.idleTimeoutSec > 0 ? startIdleTimer(cfg.idleTimeoutSec * 1000, () => last, onIdle) : null;

  return {
    socketPath: cfg.socketPath,
    httpUrl: httpListener?.url ?? null,
    tokenFile: httpListener?.tokenFile ?? null,
    peerCheck: ss ? `peer uid checked (${ss} and /proc)` : 'peer uid not checked here (no ss and /proc): the 0700 directory alone keeps other users out',
    reload,
    close,
    closed,
  };
}

interface IdleTimer {
  stop(): void;
}

/** Calls `onIdle` once `ms` have passed since `lastActivity()`. One timer, re-armed for what is left when it fires: requests only record the time. */
function startIdleTimer(ms: number, lastActivity: () => number, onIdle: () => void): IdleTimer {
  let timer: NodeJS.Timeout | null = null;
  const arm = (wait: number): void => {
    timer = setTimeout(() => {
      const left = lastActivity() + ms - Date.now();
      if (left > 0) return arm(left);
      onIdle();
    }, wait);
  };
  arm(ms);
  return {
    stop: () => {
      if (timer) clearTimeout(timer);
    },
  };
}

function removeIfSame(path: string, ino: number | null): void {
  try {
    const st = lstatSync(path);
    if (ino === null || st.ino === ino) unlinkSync(path);
  } catch {
    // already gone
  }
}
