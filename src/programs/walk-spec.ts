/**
 * A program's recursive walk from its spec's `walk` field (spec-types.ts WalkSpec): does this
 * command line walk its operands, and how (which links it follows, whether it skips hidden names,
 * whether it reads content or only lists names)? Programs whose walk depends on more than options
 * (grep's `-d ACTION`, rg's ignore files, find's expression) say so in their hooks instead.
 */
import type { ParsedArgv } from './argv.js';
import type { RecursiveWalk } from './hook-types.js';

/**
 * The walk this command line makes, or null when it reads its operands as named. `anyOption`: a
 * word may stand for any option (`ls $x`, or `ls *` where a file is named `-RL`); the walk, following
 * every link, is then assumed. Without it, a word of `maybeOptions` is one the caller found cannot
 * be one (a glob that meets no name starting with a dash).
 */
export function specWalk(p: ParsedArgv, anyOption = p.maybeOptions.length > 0): RecursiveWalk | null {
  const w = p.spec.walk;
  if (w === undefined) return null;
  const unknown = anyOption;
  let recursive = w.recursive;
  let follows = w.followsLinks;
  let hidden = false;
  // Options that say the opposite of each other: the last one given wins (`cp -aL` follows links).
  for (const { name } of p.options) {
    recursive = w.recursion?.[name] ?? recursive;
    follows = w.links?.[name] ?? follows;
    if (w.hidden?.includes(name) === true) hidden = true;
  }
  if (!recursive && !unknown) return null;
  return { followsLinks: follows || unknown, skipsHidden: w.skipsHidden === true && !hidden && !unknown, lists: w.lists === true };
}
