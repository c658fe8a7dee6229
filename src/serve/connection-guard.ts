/**
 * What a connection may hold before it has shown who it is. Another local user can open
 * connections to 127.0.0.1 (and, as root, to the socket) without any token; held open by the
 * thousand they used up the server's descriptors and the real hook's connection failed. So, per
 * transport (the Unix socket and HTTP each have their own guard, and one cannot starve the other):
 *
 * - A connection must authenticate — a request line from a peer of this uid on the socket, a
 *   request with the bearer token on HTTP — within `authTimeoutMs` of being accepted, else it is
 *   closed.
 * - Unauthenticated connections are counted per peer (on HTTP the peer's uid, see tcp-peer.ts;
 *   known within ~100 ms of arrival). Past `maxPendingPerPeer` the peer's oldest unauthenticated
 *   connection is closed at once: a peer's flood of idle connections only costs that peer its own.
 * - The transport holds at most `maxConnections`, far below the descriptor limit. A connection
 *   past it closes the oldest unauthenticated connection of the peer that holds the most (those
 *   whose peer is not known yet count as one more peer), never the newcomer (unless every
 *   connection held is authenticated): a flood cannot keep the user's hook out, it evicts itself.
 * - An authenticated connection with nothing to say for `idleTimeoutMs` is closed.
 */
import { readFileSync } from 'node:fs';
import type { Server, Socket } from 'node:net';
import type { PeerClassifier } from './tcp-peer.js';

export interface GuardLimits {
  maxConnections: number;
  maxPendingPerPeer: number;
  authTimeoutMs: number;
  idleTimeoutMs: number;
}

/** The soft limit on open descriptors (RLIMIT_NOFILE) from /proc/self/limits; null where unknown. */
export function descriptorLimit(): number | null {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Limits for one transport. Two transports each get a quarter of the descriptors left after a
 * reserve for the server's own files (threads, watchers, the audit log), at most 1,024: together
 * they can never use them all.
 */
export function defaultLimits(fdLimit: number | null = descriptorLimit()): GuardLimits {
  const maxConnections = Math.max(16, Math.min(1024, Math.floor(((fdLimit ?? 1024) - 64) / 4)));
  // A quarter per peer: the user's own burst of parallel hook calls fits, and one other peer
  // cannot hold more than a quarter of the transport before the largest-peer eviction applies.
  return { maxConnections, maxPendingPerPeer: Math.max(4, Math.floor(maxConnections / 4)), authTimeoutMs: 2000, idleTimeoutMs: 60_000 };
}

/** Watches every connection of `server` from its acceptance (a listener on 'connection'). */
export interface ConnectionGuard {
  /** The connection has authenticated: it leaves the pending count. */
  authenticated(socket: Socket): void;
  isAuthenticated(socket: Socket): boolean;
  /** Unauthenticated connections held now (tests, the bench). */
  pending(): number;
}

interface State {
  /** The peer; null until the classifier knows it. */
  key: string | null;
  authenticated: boolean;
  timer: NodeJS.Timeout;
}

/**
 * Ends a connection the guard refuses: with a reset on TCP, so it leaves no TIME_WAIT entry behind
 * (a flood of them would fill the kernel's tables and /proc/net/tcp, which tcp-peer.ts reads).
 */
function drop(socket: Socket): void {
  if (typeof socket.resetAndDestroy === 'function' && socket.remotePort !== undefined) socket.resetAndDestroy();
  else socket.destroy();
}

export function createConnectionGuard(server: Server, limits: GuardLimits, peers: PeerClassifier): ConnectionGuard {
  const states = new WeakMap<Socket, State>();
  /** Unauthenticated connections per peer, oldest first (a Set keeps insertion order); those of a peer not known yet apart. */
  const byPeer = new Map<string, Set<Socket>>();
  const unclassified = new Set<Socket>();
  let open = 0;
  let pendingCount = 0;

  const leave = (socket: Socket, st: State): void => {
    clearTimeout(st.timer);
    const set = st.key === null ? unclassified : byPeer.get(st.key);
    if (set?.delete(socket)) {
      pendingCount--;
      if (st.key !== null && set.size === 0) byPeer.delete(st.key);
    }
  };

  const kill = (socket: Socket): void => {
    const st = states.get(socket);
    if (st) leave(socket, st);
    drop(socket);
  };

  /** Closes the oldest unauthenticated connection of the largest group; false: there is none. */
  const evictOne = (): boolean => {
    let largest: Set<Socket> = unclassified;
    for (const set of byPeer.values()) if (set.size > largest.size) largest = set;
    const oldest = largest.values().next().value;
    if (!oldest) return false;
    kill(oldest);
    return true;
  };

  const classify = (socket: Socket, st: State, key: string): void => {
    unclassified.delete(socket);
    st.key = key;
    let set = byPeer.get(key);
    if (!set) byPeer.set(key, (set = new Set()));
    set.add(socket);
    if (set.size > limits.maxPendingPerPeer) kill(set.values().next().value as Socket);
  };

  peers.onRefresh(() => {
    for (const socket of [...unclassified]) {
      const st = states.get(socket);
      const key = peers.keyOf(socket);
      if (st && key !== null) classify(socket, st, key);
    }
  });

  // Every connection is seen here before its first byte is read.
  server.on('connection', (socket: Socket) => {
    if (open >= limits.maxConnections && !evictOne()) {
      drop(socket);
      return;
    }
    open++;
    const st: State = { key: null, authenticated: false, timer: setTimeout(() => drop(socket), limits.authTimeoutMs) };
    st.timer.unref();
    states.set(socket, st);
    socket.once('close', () => {
      open--;
      leave(socket, st);
    });
    pendingCount++;
    unclassified.add(socket);
    const key = peers.keyOf(socket);
    if (key !== null) classify(socket, st, key);
  });

  return {
    authenticated(socket) {
      const st = states.get(socket);
      if (!st || st.authenticated) return;
      leave(socket, st);
      st.authenticated = true;
      socket.setTimeout(limits.idleTimeoutMs, () => socket.destroy());
    },
    isAuthenticated(socket) {
      return states.get(socket)?.authenticated === true;
    },
    pending: () => pendingCount,
  };
}
