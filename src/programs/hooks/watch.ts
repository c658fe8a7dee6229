/** watch joins its operands into a shell command line, unless `-x` gives an argv. */
import type { ProgramHooks } from '../hook-types.js';
import type { UnwrapAnswer, UnwrapInput, Word } from '../unwrap-types.js';

function unwrap<W extends Word>({ args, scan }: UnwrapInput<W>): UnwrapAnswer<W> {
  const i = scan.index;
  if (i >= args.length) return { inner: { kind: 'none' } };
  if (scan.flags.has('-x') || scan.flags.has('--exec')) return { inner: { kind: 'argv', start: i } };
  return { inner: { kind: 'shell', script: args.slice(i) } };
}

export const watchHooks: ProgramHooks = { unwrap };
