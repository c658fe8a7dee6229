/** GNU parallel builds one shell command line per input from the words after its options (walk/parallel-jobs.ts). */
import type { ProgramHooks } from '../hook-types.js';
import type { UnwrapAnswer, UnwrapInput, Word } from '../unwrap-types.js';

export const parallelHooks: ProgramHooks = {
  unwrap: <W extends Word>({ scan }: UnwrapInput<W>): UnwrapAnswer<W> => ({ inner: { kind: 'jobs', start: scan.index } }),
};
