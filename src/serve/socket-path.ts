/**
 * Where the server's socket lives, and the private directory around it. The directory is what
 * keeps other users out: connect(2) on a Unix socket needs search permission on every directory
 * of its path, so a socket inside a directory of mode 0700 owned by the user can be reached only
 * by that user (and root). Hence a directory that exists with any other mode or owner, or as a
 * symlink, is refused rather than used or repaired: in /tmp another user can create
 * `/tmp/shellgate-$UID` first, and a client that trusted a socket there would take its decisions
 * from that user's server.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';

/** The user's id, or an error on systems without one (no Unix sockets to protect). */
export function currentUid(): number {
  if (typeof process.getuid !== 'function') throw new Error('shellgate serve needs a POSIX system (Linux or macOS)');
  return process.getuid();
}

/** `$XDG_RUNTIME_DIR/shellgate/sock` (a per-user tmpfs under systemd), else `/tmp/shellgate-$UID/sock`. */
export function defaultSocketPath(env: Record<string, string | undefined> = process.env, uid: number = currentUid()): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolute(runtime)) return join(runtime, 'shellgate', 'sock');
  return join('/tmp', `shellgate-${uid}`, 'sock');
}

/** Why `dir` is not a private directory of this user (null: it is one). */
export function privateDirProblem(dir: string, uid: number = currentUid()): string | null {
  let st;
  try {
    st = lstatSync(dir);
  } catch (e) {
    return `${dir}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : (e as Error).message}`;
  }
  if (st.isSymbolicLink()) return `${dir} is a symlink; the socket directory must be a real directory`;
  if (!st.isDirectory()) return `${dir} is not a directory`;
  if (st.uid !== uid) return `${dir} belongs to uid ${st.uid}, not to you (uid ${uid})`;
  const mode = st.mode & 0o7777;
  if (mode !== 0o700) return `${dir} has mode ${mode.toString(8).padStart(4, '0')}; it must be 0700 (only you may reach the socket)`;
  return null;
}

/** Creates the socket's directory (mode 0700) if missing; throws if it exists and is not private. */
export function ensurePrivateDir(socketPath: string, uid: number = currentUid()): string {
  const dir = dirname(socketPath);
  try {
    // mkdir's mode is masked by the umask, which can only take bits away: 0700 or stricter.
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`cannot create ${dir}: its parent folder does not exist`, { cause: e });
    if (code !== 'EEXIST') throw new Error(`cannot create ${dir} (${(e as Error).message})`, { cause: e });
  }
  const problem = privateDirProblem(dir, uid);
  if (problem !== null) throw new Error(`refusing the socket directory: ${problem}`);
  return dir;
}
