/**
 * Whose process is at the other end of an accepted Unix-socket connection — on Linux, without
 * root and without native code. Node exposes neither SO_PEERCRED nor SCM_CREDENTIALS, so this
 * reads what the kernel publishes elsewhere:
 *
 * 1. Our end's inode: fstat(2) of the accepted socket's file descriptor.
 * 2. The peer end's inode: `ss -xnH` (iproute2, run through a resident shell) asks the kernel over sock_diag netlink, whose
 *    UNIX_DIAG_PEER attribute pairs each connected socket with its peer; the row whose local inode
 *    is ours names the peer's inode. /proc/net/unix lists the inodes of Unix sockets but not which
 *    two are connected, so it cannot answer this, and Node cannot open a netlink socket itself.
 * 3. The process holding the peer end: /proc/PID/fd/* whose link reads `socket:[INODE]` — in the
 *    pid the client names first (an unverified hint that only saves the scan), else in every
 *    /proc/PID. The kernel lets us read /proc/PID/fd only for processes of our own uid (or all of
 *    them as root).
 * 4. That process's uid: the real and the effective uid on the `Uid:` line of /proc/PID/status
 *    must both be ours. When scanning, every holder found must be ours.
 *
 * What it establishes: a process of this uid holds the other end now — what SO_PEERCRED says of
 * the process that connected. Where it cannot decide it refuses (the client then decides
 * in-process, which is never less safe): the peer exited before the check, the peer is in
 * another pid namespace (a container sharing the socket directory), a kernel or `ss` that does
 * not report peers, a Node that does not expose the descriptor. Where it does not run at all:
 * systems without /proc and `ss` (macOS, other BSDs) — `peerCheckAvailable()` says so and the
 * server announces that the 0700 directory is then the only check. Like SO_PEERCRED it does not
 * see a socket handed on to another process while its original holder keeps a copy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, fstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Socket } from 'node:net';

const SS_CANDIDATES = ['/usr/bin/ss', '/usr/sbin/ss', '/bin/ss', '/sbin/ss'];

/** The `ss` binary, when this system can run the check (Linux with /proc and iproute2). */
export function findSs(): string | null {
  if (process.platform !== 'linux' || !existsSync('/proc/self/fd')) return null;
  for (const p of SS_CANDIDATES) if (existsSync(p)) return p;
  return null;
}

export type PeerResult = { ok: true; pid: number } | { ok: false; reason: string };

/** The descriptor behind a net.Socket (libuv keeps it on the handle; not part of Node's public API). */
function fdOf(socket: Socket): number | null {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : null;
}

/** The peer inode of every connected Unix socket, by local inode, from `ss -xnH` output. */
function parseSs(stdout: string): Map<number, number> {
  const peers = new Map<number, number>();
  for (const line of stdout.split('\n')) {
    // …  LOCAL_ADDRESS LOCAL_INODE PEER_ADDRESS PEER_INODE — read from the end: a path may hold spaces.
    const t = line.trim().split(/\s+/);
    if (t.length < 4) continue;
    const local = Number(t[t.length - 3]);
    const peer = Number(t[t.length - 1]);
    if (Number.isSafeInteger(local) && Number.isSafeInteger(peer) && peer > 0) peers.set(local, peer);
  }
  return peers;
}

const DONE = '__shellgate_ss_done__';

/**
 * Runs `ss` through a small resident shell: forking the server (a process of some 200 MB) for
 * every connection costs ~20 ms on a loaded machine, forking the shell well under one. The shell
 * reads one line per run (a socket path to filter on, or an empty line for no filter) and ends
 * each listing with a marker line. It exits when the server closes its stdin, or dies with it.
 */
function createSsRunner(ss: string): { run(filterPath: string | null): Promise<string>; close(): void } {
  let shell: ChildProcess | null = null;
  let out = '';
  let waiting: { resolve(s: string): void; reject(e: Error): void } | null = null;
  const start = (): ChildProcess => {
    const script = `while IFS= read -r p; do if [ -n "$p" ]; then "$0" -xnH src "$p"; else "$0" -xnH; fi; echo; echo ${DONE}; done`;
    const child = spawn('/bin/sh', ['-c', script, ss], { stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      out += d;
      const end = out.indexOf(`\n${DONE}\n`);
      if (end >= 0 && waiting) {
        const w = waiting;
        waiting = null;
        const text = out.slice(0, end);
        out = out.slice(end + DONE.length + 2);
        w.resolve(text);
      }
    });
    const fail = (why: string): void => {
      if (shell === child) shell = null;
      out = '';
      const w = waiting;
      waiting = null;
      w?.reject(new Error(`ss: ${why}`));
    };
    child.on('error', (e) => fail(e.message));
    child.on('exit', () => fail('the helper shell exited'));
    child.stdin!.on('error', () => fail('the helper shell is gone'));
    child.unref();
    (child.stdin as unknown as { unref?(): void }).unref?.();
    (child.stdout as unknown as { unref?(): void }).unref?.();
    return child;
  };
  return {
    run(filterPath) {
      return new Promise((resolve, reject) => {
        shell ??= start();
        waiting = { resolve, reject };
        shell.stdin!.write(`${filterPath ?? ''}\n`);
      });
    },
    close() {
      shell?.stdin?.end();
      shell = null;
    },
  };
}

function holds(pid: number, link: string): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false; // gone, or another user's process
  }
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`) === link) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}

function uidsOf(pid: number): { real: number; effective: number } | null {
  try {
    const m = /^Uid:\s+(\d+)\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? { real: Number(m[1]), effective: Number(m[2]) } : null;
  } catch {
    return null;
  }
}

function ownedBy(pid: number, uid: number): boolean {
  const u = uidsOf(pid);
  return u !== null && u.real === uid && u.effective === uid;
}

/** The processes holding a socket inode (only processes whose /proc/PID/fd we may read). */
function holders(link: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid !== process.pid && holds(pid, link)) out.push(pid);
  }
  return out;
}

export interface PeerChecker {
  check(socket: Socket, pidHint?: number): Promise<PeerResult>;
  close(): void;
}

/**
 * A checker for one listening socket. One `ss` run at a time; checks that arrive during a run
 * share the next one (a run started before a connection existed cannot list it).
 */
export function createPeerChecker(ss: string, socketPath: string, uid: number): PeerChecker {
  const runner = createSsRunner(ss);
  // ss joins its arguments into one filter expression: only a plain path is passed as a filter.
  const filter = /^[\w./+-]+$/.test(socketPath) ? socketPath : null;
  let running: Promise<unknown> = Promise.resolve();
  let next: Promise<Map<number, number>> | null = null;
  const peersNow = (): Promise<Map<number, number>> => {
    if (next) return next;
    const run = running.then(() => {
      next = null;
      return runner.run(filter).then(parseSs);
    });
    next = run;
    running = run.catch(() => undefined);
    return run;
  };
  const check = async (socket: Socket, pidHint?: number): Promise<PeerResult> => {
    const fd = fdOf(socket);
    if (fd === null) return { ok: false, reason: "the connection's descriptor is not available to check its peer" };
    let inode: number;
    try {
      inode = fstatSync(fd).ino;
    } catch (e) {
      return { ok: false, reason: `cannot stat the connection (${(e as Error).message})` };
    }
    let peers: Map<number, number>;
    try {
      peers = await peersNow();
    } catch (e) {
      return { ok: false, reason: (e as Error).message };
    }
    const peer = peers.get(inode);
    if (peer === undefined) return { ok: false, reason: 'the kernel does not report the peer of this connection' };
    const link = `socket:[${peer}]`;
    if (pidHint !== undefined && pidHint !== process.pid && holds(pidHint, link)) {
      return ownedBy(pidHint, uid) ? { ok: true, pid: pidHint } : { ok: false, reason: `the peer process ${pidHint} does not run as uid ${uid}` };
    }
    const found = holders(link);
    if (found.length === 0) return { ok: false, reason: 'no process of this user holds the other end of the connection' };
    const foreign = found.find((pid) => !ownedBy(pid, uid));
    if (foreign !== undefined) return { ok: false, reason: `the peer process ${foreign} does not run as uid ${uid}` };
    return { ok: true, pid: found[0] };
  };
  return { check, close: () => runner.close() };
}
