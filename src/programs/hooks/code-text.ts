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

/**
 * A word that may hold a placeholder for a name (find's and fd's `{}`, xargs' `-I` token): the name
 * when the word is only the placeholder; unknown when the word joins the name's text to other text
 * (`sh -c 'cat {}'`, `{}.bak`), where a name such as `x;rm -rf ~` may be code or another path; the
 * word itself when it holds none.
 */
export function placeName(word: Arg, placeholder: string, name: () => Arg): Arg {
  if (!word.value.includes(placeholder)) return word;
  return word.value === placeholder ? { ...name(), span: word.span } : { ...word, dynamic: true };
}
