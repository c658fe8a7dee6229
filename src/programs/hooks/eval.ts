/** eval joins all its arguments into a command line this shell runs (no options are read). */
import type { ProgramHooks } from '../hook-types.js';
import type { UnwrapAnswer, UnwrapInput, Word } from '../unwrap-types.js';

export const evalHooks: ProgramHooks = {
  unwrap: <W extends Word>({ args }: UnwrapInput<W>): UnwrapAnswer<W> => ({ inner: { kind: 'shell', script: args } }),
};
