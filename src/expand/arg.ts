/** One argv word after expansion, as every later layer sees it (programs/, walk/, ops/…). */
import type { Span } from '../syntax/ast.js';

/** One argv word after expansion. A word can give several (braces, splitting) or none. */
export interface Arg {
  value: string;
  /** Not known statically (variables, substitutions…): `value` is the text as written. */
  dynamic: boolean;
  /** Unquoted glob characters: `value` is a pattern. */
  glob: boolean;
  span: Span;
  /** The word as written, when the argument came from one (`w'h'o'am'i`, `rm${IFS}-rf`). */
  raw?: string;
  /**
   * A `<(…)` whose commands only print constant text (`<(echo 'rm -rf ~')`): the text a program
   * reading this file reads, so `source <(…)` and `bash <(…)` can be followed.
   */
  fileText?: string;
  /**
   * The pattern stands for paths a program produces, not for a shell glob: find's `{}`, what
   * `git ls-files` or `find .` prints into xargs or `$(…)`. Its wildcards match dot names too
   * (find's `-name '*'` matches `.env`), whatever the shell's glob options.
   */
  produced?: boolean;
  /**
   * A produced name that may start with a dash (`git ls-files` prints `-rf` as it is): where the
   * program still reads options, it may be one (`sed -n p -i`).
   */
  dashFirst?: boolean;
}
