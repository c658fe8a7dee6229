/** ssh HOST [COMMAND…]: the words after the host are joined into a command line the remote shell runs; none opens a remote shell. */
import type { ProgramHooks } from '../hook-types.js';
import type { UnwrapAnswer, UnwrapInput, Word } from '../unwrap-types.js';

function unwrap<W extends Word>({ args, scan }: UnwrapInput<W>): UnwrapAnswer<W> {
  const i = scan.index;
  if (i >= args.length) return { inner: { kind: 'none' } };
  const remote = args[i].value.replace(/^[^@]*@/, '');
  const rest = args.slice(i + 1);
  return { inner: rest.length === 0 ? { kind: 'stdin-shell' } : { kind: 'shell', script: rest }, remote };
}

export const sshHooks: ProgramHooks = { unwrap };
