/**
 * The bearer token of the HTTP transport. A TCP port on 127.0.0.1 is open to every local user
 * and to any web page the user visits (a browser can POST to localhost), so each request must
 * carry a secret that only the user can read: a random token in a file of mode 0600.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, lstatSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,512}$/;

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Writes the token to `file` with mode 0600, atomically: a temporary file created with O_EXCL
 * (which never follows a symlink) is renamed over `file` (rename replaces a symlink, it does not
 * write through it), so a file planted at that name cannot redirect or expose the token.
 */
export function writeTokenFile(file: string, token: string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}`);
  try {
    writeFileSync(tmp, token + '\n', { mode: 0o600, flag: 'wx' });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // not created
    }
    throw new Error(`cannot write the token file ${file} (${(e as Error).message})`, { cause: e });
  }
}

/** The token in an existing file, if the file is private to this user (else an error saying why). */
export function readTokenFile(file: string, uid: number): string {
  const st = lstatSync(file);
  if (!st.isFile()) throw new Error(`${file} is not a regular file`);
  if (st.uid !== uid) throw new Error(`${file} belongs to uid ${st.uid}, not to you`);
  if ((st.mode & 0o077) !== 0) throw new Error(`${file} has mode ${(st.mode & 0o777).toString(8)}; a token file must be readable by you only (chmod 600)`);
  const token = readFileSync(file, 'utf8').trim();
  if (!TOKEN_SHAPE.test(token)) throw new Error(`${file} does not hold a token (32 or more characters of A-Z a-z 0-9 _ -)`);
  return token;
}

/**
 * The token for this run. `reuse`: keep the token of an existing file (a token the agent's
 * configuration already holds survives a restart); otherwise, or when there is no file yet, a new
 * token is generated and written.
 */
export function loadOrCreateToken(file: string, reuse: boolean, uid: number): { token: string; created: boolean } {
  if (reuse) {
    let exists = true;
    try {
      lstatSync(file);
    } catch {
      exists = false;
    }
    if (exists) return { token: readTokenFile(file, uid), created: false };
  }
  const token = generateToken();
  writeTokenFile(file, token);
  return { token, created: true };
}

/** Does an `Authorization` header carry this token? Compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (typeof header !== 'string') return false;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!m) return false;
  // Equal-length digests: timingSafeEqual needs equal lengths, and the length must not leak either.
  const a = createHash('sha256').update(m[1]).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}
