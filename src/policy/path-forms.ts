/**
 * A path as the rules and the workspace check see it: where the kernel lands, not the name as
 * written. `homelink/.ssh/id_rsa` with `homelink -> ~` is a file in the home directory, and
 * `src/keys/id_rsa` with `src/keys -> ~/.ssh` is a key, whatever an allow rule for `./src/**`
 * says about the name. The resolver is the shell analysis' own (paths/resolve.ts through the
 * classifier): every symlink on disk followed, a `..` after a link applied to the link's target,
 * a path that does not exist yet resolved through its deepest existing parent, and a loop of
 * links (ELOOP) an answer of its own: nothing can be known.
 */
import { posix } from 'node:path';
import type { PathClassifier } from '../paths/classify.js';
import { isInside, staticPrefix } from '../paths/resolve.js';

export interface FormsEnv {
  classifier: PathClassifier;
  cwd: string;
  home: string;
}

/**
 * One place the kernel may land for a path: the physical path first, then the same place spelt
 * through an anchor rules are written against (the cwd, home) whose own name goes through a link
 * (a workspace under `/tmp` where `/tmp -> /private/tmp`): a rule anchored at the cwd names it so.
 */
export type Landing = readonly string[];

/**
 * Where the kernel may land for `paths` (readings of one argument: each is a place it may reach),
 * or null when one of them cannot be known (a loop of links). A glob lands where its fixed
 * directory lands, the pattern's rest kept; `followLast: false` for an operation on the name
 * itself (a delete removes the link, not its target).
 */
export function landings(paths: readonly string[], env: FormsEnv, opts: { glob?: boolean; followLast?: boolean } = {}): Landing[] | null {
  const out: Landing[] = [];
  for (const p of paths) {
    const physical = physicalOf(p, env.classifier, opts.glob === true, opts.followLast !== false);
    if (physical === null) return null;
    if (out.some((l) => l[0] === physical)) continue;
    out.push([physical, ...spellings(physical, env)]);
  }
  return out;
}

function physicalOf(path: string, classifier: PathClassifier, glob: boolean, followLast: boolean): string | null {
  if (glob) {
    const bound = staticPrefix(path);
    const real = classifier.landing(bound);
    if (real === null) return null;
    const rest = bound === '/' ? path : path.slice(bound.length);
    return (real === '/' ? '' : real) + (rest.startsWith('/') ? rest : '/' + rest);
  }
  if (followLast) return classifier.landing(path);
  const name = posix.basename(path);
  if (name === '' || name === '.' || name === '..') return classifier.landing(path);
  const dir = classifier.landing(posix.dirname(path));
  return dir === null ? null : posix.join(dir, name);
}

/** The physical path spelt through each anchor whose physical place holds it. */
function spellings(physical: string, env: FormsEnv): string[] {
  const out: string[] = [];
  for (const anchor of [env.cwd, env.home]) {
    const real = env.classifier.landing(anchor);
    if (real === null || real === anchor || !isInside(physical, real)) continue;
    const spelt = (anchor === '/' ? '' : anchor.replace(/\/+$/, '')) + physical.slice(real === '/' ? 0 : real.length);
    if (spelt !== physical && !out.includes(spelt)) out.push(spelt || '/');
  }
  return out;
}
