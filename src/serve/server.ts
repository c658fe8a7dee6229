/**
 * `shellgate serve`: a resident process per user that answers hook events over a Unix socket in
 * a private directory and, optionally, over HTTP on 127.0.0.1 with a bearer token. Settings are
 * re-read when a file changes (and on `reload()`, which the CLI calls on SIGHUP); a file that no
 * longer parses keeps the previous policy. After `idleTimeoutSec` without a request it closes,
 * removing its socket.
 */
import { lstatSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { createGate } from '../policy/gate.js';
import type { AuditRecord } from '../audit/types.js';
import { createDecider, type Decider } from './decider.js';
import { listenHttp } from './http.js';
import { createPeerChecker, findSs } from './peer.js';
import type { PolicyOptions } from './protocol.js';
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
async function startHttp(cfg: ServeConfig, port: number, dir: string, uid: number, decider: Decider, onActivity: () => void): Promise<HttpListener> {
  const tokenFile = cfg.tokenFile ?? join(dir, 'token');
  const t = loadOrCreateToken(tokenFile, cfg.tokenFile !== null, uid);
  const tokenCreated = t.created && cfg.tokenFile === null;
  const http = await listenHttp({ port, token: t.token, decider, version: cfg.version, onActivity });
  const addr = http.address();
  return { http, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : port}`, tokenFile, tokenCreated };
}

export async function startServer(cfg: ServeConfig): Promise<RunningServer> {
  const uid = currentUid();
  const dir = ensurePrivateDir(cfg.socketPath, uid);
  await checkPolicyLoads(cfg);

  let reloading: Promise<void> = Promise.resolve();
  const reload = (why: string): Promise<void> => {
    reloading = reloading.then(async () => {
      const errors = await decider.reload();
      if (errors.length === 0) cfg.log(`settings reloaded (${why})`);
      for (const e of errors) cfg.log(`reload failed, keeping the previous policy: ${e}`);
    });
    return reloading;
  };
  const watcher = createSettingsWatcher(() => void reload('a settings file changed'));
  const decider = createDecider({
    policy: cfg.policy,
    version: cfg.version,
    home: homedir(),
    ...(cfg.record ? { record: cfg.record } : {}),
    onProjectFiles: (files) => watcher.add(files),
  });
  if (cfg.policy.config) watcher.add([cfg.policy.config]);

  let last = Date.now();
  const onActivity = (): void => {
    last = Date.now();
  };

  const ss = findSs();
  const peers = ss ? createPeerChecker(ss, cfg.socketPath, uid) : null;
  const unix: Server = await listenUnix({ socketPath: cfg.socketPath, decider, peers, onActivity });
  const socketIno = lstatSync(cfg.socketPath).ino;

  let httpListener: HttpListener | null = null;
  try {
    if (cfg.httpPort !== null) httpListener = await startHttp(cfg, cfg.httpPort, dir, uid, decider, onActivity);
  } catch (e) {
    unix.close();
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
