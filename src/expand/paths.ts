/**
 * Path arithmetic on words, before anything reads the disk: the walker follows `cd` and the files
 * a line writes with it, and the paths layer starts from it before it follows symlinks
 * (paths/resolve.ts). It sits here, below both, because the walk needs it and comes first.
 */
import { posix } from 'node:path';

/**
 * Absolute, normalised path for `p` written in `cwd`, lexically (`a/../b` is `b`). Right for
 * bash's own logical `cd`; what the kernel opens is `RealpathCache.physical` / `paths/readings.ts`.
 * Tilde expansion already happened: a `~` still here was quoted and is a literal name.
 */
export function resolvePath(p: string, cwd: string): string {
  return posix.resolve(cwd, p);
}
