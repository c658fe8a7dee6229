/**
 * Who is at the other end of a loopback TCP connection — the key the HTTP transport counts
 * unauthenticated connections by. Every local user reaches 127.0.0.1 from the same address (and
 * may bind any 127.x address it likes), so the address says nothing; the uid does. On Linux the
 * client's end of a loopback connection is a socket of this network namespace, listed with its
 * owner's uid in /proc/net/tcp (readable by every user): the row whose local port is the client's
 * and whose remote port is ours.
 *
 * Read synchronously, so a connection is counted under its peer the moment it is accepted, and once
 * per turn of the event loop: Node accepts every connection waiting in the backlog in one turn, and
 * each of them was listed when the turn began, so a flood costs one read per turn, not one per
 * connection. Where the table cannot be read (not Linux) or the row is gone (the client already
 * closed), the key falls back to the remote address.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';

const TABLE = '/proc/net/tcp';

export type PeerKeyOf = (socket: Socket) => string;

/** `ADDR:PORT` hex fields of a /proc/net/tcp row → the port. */
const portOf = (field: string): number => parseInt(field.slice(field.indexOf(':') + 1), 16);

/** uid by `clientPort:serverPort`, from the table's text: only rows whose remote port is `serverPort` (clients of ours). */
function parseTable(text: string, serverPort: number): Map<string, number> {
  const uids = new Map<string, number>();
  // The remote address field ends in `:PORT ` (4 hex digits): a cheap test before splitting a row.
  const remote = `:${serverPort.toString(16).toUpperCase().padStart(4, '0')} `;
  for (const line of text.split('\n')) {
    if (!line.includes(remote)) continue;
    const t = line.trim().split(/\s+/);
    // sl local rem st tx:rx tr:when retrnsmt uid …
    if (t.length < 8 || !t[1].includes(':')) continue;
    const uid = Number(t[7]);
    if (Number.isSafeInteger(uid)) uids.set(`${portOf(t[1])}:${portOf(t[2])}`, uid);
  }
  return uids;
}

export function createTcpPeerKey(): PeerKeyOf {
  const available = process.platform === 'linux' && existsSync(TABLE);
  /** The table as read in this turn of the event loop, and how often it was (cleared on the next turn). */
  let table: Map<string, number> | null = null;
  let reads = 0;
  const read = (serverPort: number): Map<string, number> | null => {
    try {
      return parseTable(readFileSync(TABLE, 'utf8'), serverPort);
    } catch {
      return null; // unreadable now: the address for this connection
    }
  };
  const fallback = (socket: Socket): string => `addr:${socket.remoteAddress ?? '?'}`;
  return (socket) => {
    if (!available) return fallback(socket);
    const key = `${socket.remotePort}:${socket.localPort}`;
    if (reads === 0) {
      table = read(socket.localPort ?? 0);
      reads = 1;
      setImmediate(() => {
        table = null;
        reads = 0;
      });
    }
    let uid = table?.get(key);
    // Connected after this turn's read (a rare race): read once more in this turn, not once per connection.
    if (uid === undefined && reads === 1) {
      table = read(socket.localPort ?? 0);
      reads = 2;
      uid = table?.get(key);
    }
    return uid !== undefined && socket.remotePort !== socket.localPort ? `uid:${uid}` : fallback(socket);
  };
}
