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
import picomatch from 'picomatch';
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
export function spellings(physical: string, env: FormsEnv): string[] {
  const out: string[] = [];
  for (const anchor of [env.cwd, env.home]) {
    const real = env.classifier.landing(anchor);
    if (real === null || real === anchor || !isInside(physical, real)) continue;
    const spelt = (anchor === '/' ? '' : anchor.replace(/\/+$/, '')) + physical.slice(real === '/' ? 0 : real.length);
    if (spelt !== physical && !out.includes(spelt)) out.push(spelt || '/');
  }
  return out;
}

/** What a walk or a glob reaches on the disk now (see `reachedOnDisk`). */
export interface Reached {
  /** Paths below (physical, a link's own path and where it leads), with their spellings. */
  paths: string[];
  /** Links below that lead out of the workspaces (a walk that follows them reads there). */
  outside: string[];
}

/**
 * The paths a walk of `where` reaches, read from the disk: every entry below each landing; for a
 * walk that follows links (`follows`), a link's own path and where it leads, and below a link to a
 * workspace directory that directory's entries too; `visible`: names starting with `.` are
 * skipped. For a glob (`match`), the entries it may match, when no link lies below its fixed
 * directory (a link it meets leads where the names do not say). Null when the tree cannot be
 * known: a landing outside the workspaces (only a workspace is scanned), a tree too large or
 * unreadable, a loop.
 */
export function reachedOnDisk(
  where: readonly Landing[],
  env: FormsEnv,
  o: { visible: boolean; follows: boolean; match?: (path: string) => boolean },
): Reached | null {
  const { visible, follows, match } = o;
  const paths = new Set<string>();
  const outside: string[] = [];
  const queue = where.map((l) => l[0]);
  const seen = new Set<string>();
  for (let i = 0; i < queue.length; i++) {
    const dir = queue[i];
    if (seen.has(dir)) continue;
    seen.add(dir);
    const tree = env.classifier.inWorkspace(dir) ? env.classifier.treeBelow(dir) : null;
    if (tree === null) return null;
    for (const e of tree) {
      if (visible && e.hidden) continue;
      if (e.kind === 'link' && !follows) {
        // A walk that does not follow links meets the link itself, not what it points to.
        if (!match || match(e.path)) add(paths, e.path, env);
      } else if (e.kind === 'link') {
        if (match) return null;
        const target = env.classifier.landing(e.path);
        if (target === null) return null;
        add(paths, e.path, env);
        add(paths, target, env);
        if (!env.classifier.inWorkspace(target)) outside.push(e.path);
        else if (env.classifier.isDirectory(target)) queue.push(target);
      } else if (!match || match(e.path)) add(paths, e.path, env);
    }
  }
  return { paths: [...paths], outside };
}

function add(to: Set<string>, path: string, env: FormsEnv): void {
  to.add(path);
  for (const s of spellings(path, env)) to.add(s);
}

/**
 * What a part reaches on the disk: below a walk's landings (`walks`), or the entries a glob may
 * match below its fixed directory (`glob`: `dot` when its wildcards match dot names); null when it
 * cannot be known, or the part is neither.
 */
export function reachOf(
  where: readonly Landing[],
  env: FormsEnv,
  o: { walks?: 'all' | 'visible'; follows?: boolean; glob?: boolean; dot?: boolean },
): Reached | null {
  if (o.walks !== undefined) {
    const roots = o.glob ? where.map((l) => [staticPrefix(l[0])]) : where;
    return reachedOnDisk(roots, env, { visible: o.walks === 'visible', follows: o.follows !== false });
  }
  if (!o.glob) return null;
  let matchers: ((p: string) => boolean)[];
  try {
    matchers = where.map((l) => picomatch(l[0], { dot: o.dot === true }));
  } catch {
    return null;
  }
  // A glob that meets a link goes where the names do not say: then nothing is read from the disk.
  return reachedOnDisk(
    where.map((l) => [staticPrefix(l[0])]),
    env,
    { visible: false, follows: true, match: (p) => matchers.some((m) => m(p)) },
  );
}
