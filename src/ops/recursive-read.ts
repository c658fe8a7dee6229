/**
 * What a recursive read really reads. `grep -rn KEY .` prints lines of every file below `.`: with a
 * `.env` in the workspace it prints the key, as `cat .env` would. `grep -R`, `rg -L` and `find -L`
 * also go where a link below leads (`homelink -> ~`). So the start point is read as before, and the
 * tree below it is looked at on the disk (paths/name-scan.ts, one walk per analysis): each
 * sensitive file the program's walk does not skip, and each link it follows out of the workspace,
 * becomes a read of its own, judged as a direct read of it would be. A tree that cannot be looked
 * at is not assumed clean: it is a read of unknown files.
 *
 * How a program walks (which links it follows, whether it skips hidden names, which files its
 * filters select) is the program's knowledge: its hook says so (hook-types.ts, RecursiveWalk).
 */
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import type { Arg, WalkedCommand } from '../walk/types.js';
import type { OpSource, RecursiveWalk } from '../programs/hook-types.js';
import { resolvePath, staticPrefix } from '../paths/resolve.js';
import type { PathClassifier } from '../paths/classify.js';
import type { Operation, OpKind } from './types.js';

/** What this module needs of the operation builder (ops/op-builder.ts), which calls it. */
interface Builder {
  path(kind: OpKind, arg: Arg, source: OpSource, extra?: Partial<Operation>): void;
  add(kind: OpKind, source: OpSource, span: Arg['span'], extra?: Partial<Operation>): void;
  readonly cmd: WalkedCommand;
  readonly env: { readonly classifier: PathClassifier };
  treeBelow(arg: Arg, scan: (dir: string) => string[] | null): string[] | null;
}

/** Reads reported per start point: enough to ask and to name what was found. */
const MAX_REACHED = 8;

export function recursiveRead(b: Builder, arg: Arg, walk: RecursiveWalk, source: OpSource): void {
  const kind = walk.lists === true ? 'List' : 'Read';
  const cwd = b.cmd.cwd;
  // A start only known at run time already asks; a remote one is not on this disk.
  if (arg.dynamic || b.cmd.context.remote || (cwd === null && !arg.value.startsWith('/'))) return b.path(kind, arg, source);
  // A glob's matches are all below its fixed prefix: walking that covers every one of them.
  const value = arg.glob ? staticPrefix(arg.value.startsWith('/') ? arg.value : posix.join(cwd ?? '/', arg.value)) : arg.value;
  const classifier = b.env.classifier;
  // The start is marked as a walk: a deny on a path below it applies (policy/rule-match.ts).
  const visible = walk.skipsHidden === true && hiddenSkipped(b, classifier.physical(resolvePath(value, cwd ?? '/')), walk);
  b.path(kind, arg, source, { walks: visible ? 'visible' : 'all', ...(walk.followsLinks ? { followsLinks: true } : {}) });
  let missing = false;
  const reached = b.treeBelow({ ...arg, value, glob: false }, (dir) => {
    const found = reachedBelow(b, dir, hiddenSkipped(b, dir, walk) ? walk : { ...walk, skipsHidden: false });
    if (found !== null && found.length === 0 && !classifier.isDirectory(dir)) missing = true;
    return found;
  });
  if (reached === null) {
    b.add(kind, source, arg.span, { target: `the files below ${arg.value} (too many to look at, or unreadable)`, dynamic: true });
    return;
  }
  // A start that is a link out of the workspace (`grep -r x homelink`, or `*` meeting it) is walked like a followed link.
  const lexical = resolvePath(value, cwd ?? '/');
  if (classifier.physical(lexical) !== lexical) reached.push(lexical);
  if (arg.glob) {
    const met = classifier.linksMet(resolvePath(arg.value, cwd ?? '/'));
    if (met === null) b.add(kind, source, arg.span, { target: `the links ${arg.value} may meet (too many names to look at, or unreadable)`, dynamic: true });
    else reached.push(...met.map((p) => classifier.physical(p)));
  }
  const walked = new Set<string>([classifier.physical(lexical)]);
  for (let i = 0; i < reached.length; i++) {
    const path = reached[i];
    const real = classifier.physical(path);
    const tree = classifier.isDirectory(real) ? { walks: 'all' as const, ...(walk.followsLinks ? { followsLinks: true } : {}) } : {};
    if (path !== lexical) b.path(kind, { value: path, dynamic: false, glob: false, span: arg.span }, source, tree);
    // A glob's match that is a link to another workspace directory (`a/*` meeting `a/tob -> ../b`) is a start point too: what is below it is reached.
    if (classifier.inWorkspace(real) && classifier.isDirectory(real) && !walked.has(real)) {
      walked.add(real);
      const below = reachedBelow(b, real, hiddenSkipped(b, real, walk) ? walk : { ...walk, skipsHidden: false });
      if (below === null) b.add(kind, source, arg.span, { target: `the files below ${path} (too many to look at, or unreadable)`, dynamic: true });
      else reached.push(...below.filter((p) => !reached.includes(p)));
    }
    // A followed link to a directory outside the workspace: the walk reads all of it, dot files too.
    if (!classifier.inWorkspace(real) && classifier.isDirectory(real)) {
      const all = (real === '/' ? '' : real) + '/**';
      b.add(kind, source, arg.span, { path: all, target: path, glob: true, dotGlob: true, classes: classifier.classify(all, true, true, { dotglob: true }) });
    }
  }
  // Not on this disk: what the filters may select is compared with the sensitive names instead.
  if (missing) {
    const base = arg.glob ? value : arg.value.replace(/\/+$/, '') || '/';
    for (const g of walk.selects ?? []) b.path(kind, { value: `${base}/**/${g}`, dynamic: false, glob: true, produced: true, span: arg.span }, source);
  }
}

/**
 * Does the walk really skip hidden names below `start`? Not when an ignore file there, or in a
 * workspace directory above it, has a `!` line that may bring one back (or cannot be read).
 */
function hiddenSkipped(b: Builder, start: string, walk: RecursiveWalk): boolean {
  if (!walk.skipsHidden) return false;
  const names = walk.ignoreFiles ?? [];
  if (names.length === 0) return true;
  const classifier = b.env.classifier;
  const files: string[] = [];
  for (let dir = start; classifier.inWorkspace(dir); dir = posix.dirname(dir)) {
    for (const n of names) files.push(posix.join(dir, n));
    if (dir === '/') break;
  }
  for (const e of classifier.treeBelow(start) ?? []) if (names.includes(e.name)) files.push(e.path);
  return !files.some(reIncludes);
}

/** An ignore file with a `!PATTERN` line (a missing file has none; an unreadable one may). */
function reIncludes(path: string): boolean {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EISDIR';
  }
  return /^\s*!/m.test(text);
}

/** Paths below a physical directory the walk reaches that must be judged on their own; null when the tree is not known. */
function reachedBelow(b: Builder, start: string, walk: RecursiveWalk): string[] | null {
  const classifier = b.env.classifier;
  const out: string[] = [];
  const visited = new Set<string>();
  const visit = (dir: string): boolean => {
    if (visited.has(dir) || out.length >= MAX_REACHED) return true;
    visited.add(dir);
    // Outside the workspace (a start point, or where a followed link leads): judged as a path.
    if (!classifier.inWorkspace(dir)) {
      if (dir !== start) out.push(dir);
      return true;
    }
    const tree = classifier.treeBelow(dir);
    if (tree === null) return false;
    for (const e of tree) {
      if (out.length >= MAX_REACHED) break;
      if (walk.skipsHidden && e.hidden) continue;
      if (e.kind === 'link') {
        if (!walk.followsLinks) continue;
        const real = classifier.physical(e.path);
        if (!classifier.inWorkspace(real)) out.push(e.path);
        else if (classifier.isDirectory(real)) {
          if (!visit(real)) return false;
        } else if (!walk.lists && (classifier.sensitiveFile(real) || classifier.sensitiveFile(e.path))) out.push(e.path);
      } else if (!walk.lists && e.kind !== 'dir' && classifier.sensitiveFile(e.path)) out.push(e.path);
    }
    return true;
  };
  return visit(start) ? out : null;
}
