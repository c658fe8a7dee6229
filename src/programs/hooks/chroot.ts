/** chroot NEWROOT [COMMAND…]: without a command it starts an interactive shell. */
import type { ProgramHooks } from '../hook-types.js';
import type { UnwrapAnswer, UnwrapInput, Word } from '../unwrap-types.js';

function unwrap<W extends Word>({ args, scan }: UnwrapInput<W>): UnwrapAnswer<W> {
  const start = scan.index + 1;
  return { inner: start >= args.length ? { kind: 'stdin-shell' } : { kind: 'argv', start } };
}

export const chrootHooks: ProgramHooks = { unwrap };
