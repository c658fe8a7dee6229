/**
 * find's command line: `find [-H] [-L] [-P] [-D DEBUGOPTS] [-OLEVEL] [STARTING-POINT…] [EXPRESSION]`
 * (GNU findutils; BSD find also takes `-E`, `-X`, `-d`, `-s`, `-x` and `-f PATH` up front).
 * Starting points run until the first word that begins with `-`, or is `(` or `!`; with none, find
 * starts at `.`. Options before the starting points must be skipped, or `find -L / -delete` looks
 * like a find of the working directory.
 */
import type { Arg } from '../walk/types.js';

export interface FindArgs {
  /** The starting points as written (empty: find uses `.`). */
  roots: Arg[];
  /** Index of the first word of the expression. */
  exprStart: number;
  /** `-L` (or `-follow` later): symbolic links are followed into what they point to. */
  follows: boolean;
}

const LEADING_FLAGS = /^-([HLPEXdsx]+|O\d*)$/;

export function findRoots(args: Arg[]): FindArgs {
  let i = 0;
  let follows = false;
  const roots: Arg[] = [];
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic) break;
    if (a.value === '-D' || a.value === '-f') {
      // `-D DEBUGOPTS`; BSD `-f PATH` names a starting point.
      if (a.value === '-f' && args[i + 1]) roots.push(args[i + 1]);
      i++;
      continue;
    }
    if (a.value === '--') {
      i++;
      break;
    }
    if (!LEADING_FLAGS.test(a.value)) break;
    if (a.value.includes('L')) follows = true;
  }
  for (; i < args.length; i++) {
    const v = args[i].value;
    // A dynamic word may be a starting point or an expression: take it as a starting point (its
    // path is then dynamic and asks) and keep reading.
    if (!args[i].dynamic && (v.startsWith('-') || v === '(' || v === '!')) break;
    roots.push(args[i]);
  }
  if (args.slice(i).some((a) => a.value === '-follow')) follows = true;
  return { roots, exprStart: i, follows };
}
