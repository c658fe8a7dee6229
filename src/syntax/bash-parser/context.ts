/**
 * What the converters share during one parse: the source, what the input preparation found in it,
 * and the repairs made so far. It also carries `parseFrame`, so that the word scanner can parse a
 * substitution body without importing the command converter (which imports the word scanner).
 */
import type { Script, Span } from '../ast.js';
import type { Frame } from './frame.js';
import type { HeredocInfo } from './prepare-input.js';

/**
 * Where the adapter made up for something bash-parser gets wrong or lacks (without it the two
 * parsers would disagree): heredoc bodies read as commands, `&>` read as `&` + `>`, a digit word
 * before a redirect taken as its fd, `a[i]=x` taken as a command name, a word split at a NUL.
 */
export type AdapterRepair = 'heredoc' | 'amp-redirect' | 'io-number-word' | 'subscript-assignment' | 'nul-field';

export interface ConvertContext {
  /** The original source; every span points into it. */
  readonly source: string;
  /** Heredocs found by the input preparation, by the offset of their `<<`. */
  readonly heredocs: Map<number, HeredocInfo>;
  /** Offsets of the `>` of each `&>`/`&>>` whose `&` was blanked. */
  readonly ampRedirects: Set<number>;
  readonly repairs: Set<AdapterRepair>;
  /** Parse `frame.text` with bash-parser and convert it (the whole input or a substitution body). */
  parseFrame(frame: Frame, span: Span): Script;
}
