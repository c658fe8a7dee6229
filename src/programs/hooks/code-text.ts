/**
 * Is a word's text unknown where a program reads it as code (a sed script, an awk program, a jq
 * filter, a shell string)? When it is only known at run time, and when it holds file names: an
 * unquoted glob (`awk *`: the first name is the program) or a name a program printed (`find … -exec
 * jq {} ;`) — a file named `env` or `x;rm -rf ~` would be the code.
 */
import type { Arg } from '../../expand/arg.js';

export function unknownCode(a: Arg): boolean {
  return a.dynamic || a.glob || a.produced === true;
}
