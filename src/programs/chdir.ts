/**
 * Options whose value is a directory the program changes to (role `chdir`: `env -C DIR`,
 * `sudo -D DIR`, `make -C DIR`, `git -C DIR`, `npm --prefix DIR`, `tar -C DIR`). The program's own
 * relative paths, and the command it runs, resolve there. The walker reads them for a wrapped
 * command's directory; the operations for the program's own paths.
 */
import { resolvePath } from '../expand/paths.js';
import type { ParsedArgv } from './argv.js';
import type { Word } from './unwrap-types.js';

/**
 * The directory `word` names, written in `cwd`; null when it cannot be known: a word only known at
 * run time or a pattern, a relative word in an unknown directory, or a `..` after a name. chdir(2)
 * follows symbolic links, so `link/..` is the parent of the link's target, not `.`: a name in the
 * workspace may be a link to anywhere (a leading `../..` climbs from the known directory).
 */
export function chdirTarget(word: Word & { glob?: boolean }, cwd: string | null): string | null {
  if (word.dynamic || word.glob === true) return null;
  const v = word.value;
  if (!v.startsWith('/') && cwd === null) return null;
  if (climbsOutOfName(v)) return null;
  return resolvePath(v, cwd ?? '/');
}

/** A `..` component after a name (`a/..`, `/usr/../etc`): lexically it cancels the name, physically not. */
function climbsOutOfName(path: string): boolean {
  let named = false;
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') named = true;
    else if (named) return true;
  }
  return false;
}

/**
 * The directories a parsed program changes to, in order, each written in the one before
 * (`make -C a -C b` works in a/b; null from the first unknown one on). Empty: it stays in `cwd`.
 */
export function chdirSteps(p: ParsedArgv, cwd: string | null): (string | null)[] {
  const steps: (string | null)[] = [];
  let dir = cwd;
  for (const o of p.options) {
    if (o.spec?.role !== 'chdir') continue;
    if (o.value !== null) dir = chdirTarget(o.value, dir);
    steps.push(dir);
  }
  return steps;
}

/** The directory a parsed program works in after its `chdir` options (undefined: it has none). */
export function chdirDirectory(p: ParsedArgv, cwd: string | null): string | null | undefined {
  const steps = chdirSteps(p, cwd);
  return steps.length === 0 ? undefined : steps[steps.length - 1];
}
