/**
 * Who is at the other end of a loopback TCP connection — the key the HTTP transport counts
 * unauthenticated connections by. Every local user reaches 127.0.0.1 from the same address (and
 * may bind any 127.x address it likes), so the address says nothing; the uid does. On Linux the
 * client's end of a loopback connection is a socket of this network namespace, listed with its
 * owner's uid in /proc/net/tcp (readable by every user): the row whose local port is the client's
 * and whose remote port is ours.
 *
 * The table lists every TCP socket of the system, the attacker's thousands included, so it is read
 * in the background and at most every 100 ms, however fast connections arrive: a connection is
 * unclassified until the next read (connection-guard.ts never evicts one for its peer's count
 * before). Where the table cannot be read (not Linux) or a connection is still missing from a read
 * made after it arrived (the client already closed), the key falls back to the remote address.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';

const TABLE = '/proc/net/tcp';

/** `ADDR:PORT` hex fields of a /proc/net/tcp row → the port. */
const portOf = (field: string): number => parseInt(field.slice(field.indexOf(':') + 1), 16);

/** uid by `clientPort:serverPort`, from the table's text: only rows whose remote port is `serverPort` (clients of ours). */
export function parseTable(text: string, serverPort: number): Map<string, number> {
  const uids = new Map<string, number>();
  // The remote address field ends in `:PORT ` (4 hex digits): a cheap test before splitting a row.
  const remote = `:${serverPort.toString(16).toUpperCase().padStart(4, '0')} `;
  for (const line of text.split('\n')) {
    if (!line.includes(remote)) continue;
    const t = line.trim().split(/\s+/);
    // sl local rem st tx:rx tr:when retrnsmt uid …
    if (t.length < 8 || !t[1].includes(':') || portOf(t[2]) !== serverPort) continue;
    const uid = Number(t[7]);
    if (Number.isSafeInteger(uid)) uids.set(`${portOf(t[1])}:${portOf(t[2])}`, uid);
  }
  return uids;
}

/** Classifies connections by peer; `null` until known. `onRefresh` is called when more may be known. */
export interface PeerClassifier {
  keyOf(socket: Socket): string | null;
  onRefresh(listener: () => void): void;
}

/** Every connection under one key at once (the Unix socket: only this user and root can reach it). */
export const oneKey = (key: string): PeerClassifier => ({ keyOf: () => key, onRefresh: () => undefined });

/** The table is read at most once per this many ms: a flood costs a bounded number of reads, whatever its rate. */
const MIN_INTERVAL_MS = 100;

export function createTcpPeerKey(): PeerClassifier {
  const fallback = (socket: Socket): string => `addr:${socket.remoteAddress ?? '?'}`;
  if (process.platform !== 'linux' || !existsSync(TABLE)) return { keyOf: fallback, onRefresh: () => undefined };
  let table: Map<string, number> = new Map();
  /** When the read behind `table` began: a row read before a connection arrived may be a former owner of its port. */
  let tableTime = -Infinity;
  /** When each connection was first looked up (it arrives then). */
  const seen = new WeakMap<Socket, number>();
  /** Connections looked up and not found since the last read began. */
  let missed = new Set<Socket>();
  /** Connections still missing from a read that began after they arrived: keyed by address from then on. */
  const settled = new WeakSet<Socket>();
  let lastRead = 0;
  let scheduled = false;
  const listeners: (() => void)[] = [];
  const keyIn = (t: Map<string, number>, socket: Socket): number | undefined => t.get(`${socket.remotePort}:${socket.localPort}`);

  const refresh = (serverPort: number): void => {
    if (scheduled) return;
    scheduled = true;
    const read = (): void => {
      const before = missed;
      missed = new Set();
      const began = performance.now();
      const done = (t: Map<string, number>): void => {
        table = t;
        tableTime = began;
        lastRead = Date.now();
        scheduled = false;
        for (const socket of before) if (keyIn(t, socket) === undefined) settled.add(socket);
        for (const l of listeners) l();
      };
      readFile(TABLE, 'utf8').then(
        (text) => done(parseTable(text, serverPort)),
        () => done(new Map()),
      );
    };
    setTimeout(read, Math.max(0, lastRead + MIN_INTERVAL_MS - Date.now())).unref();
  };

  return {
    keyOf(socket) {
      let arrived = seen.get(socket);
      if (arrived === undefined) seen.set(socket, (arrived = performance.now()));
      const uid = tableTime >= arrived ? keyIn(table, socket) : undefined;
      if (uid !== undefined && socket.remotePort !== socket.localPort) return `uid:${uid}`;
      if (settled.has(socket)) return fallback(socket);
      missed.add(socket);
      refresh(socket.localPort ?? 0);
      return null;
    },
    onRefresh(listener) {
      listeners.push(listener);
    },
  };
}
