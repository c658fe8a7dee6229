/** Tilde expansion: `~` is the context's home; `~user` is that user's home from the passwd file. */
import { readFileSync } from 'node:fs';

let passwd: Map<string, string> | null = null;

function passwdHomes(): Map<string, string> {
  if (passwd) return passwd;
  passwd = new Map();
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const f = line.split(':');
      if (f.length >= 6 && f[0]) passwd.set(f[0], f[5]);
    }
  } catch {
    // No passwd file (not Linux, sandbox): `~user` stays unknown.
  }
  return passwd;
}

/** Home directory of `user`, or null when it cannot be known for certain. */
export function userHome(user: string): string | null {
  return passwdHomes().get(user) ?? null;
}
