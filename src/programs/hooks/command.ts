/** The `command` builtin: `-v`/`-V` only describe a name; otherwise it runs the command. */
import type { ProgramHooks } from '../hook-types.js';
import type { UnwrapAnswer, UnwrapInput, Word } from '../unwrap-types.js';

function unwrap<W extends Word>({ args, scan }: UnwrapInput<W>): UnwrapAnswer<W> {
  if (scan.flags.has('-v') || scan.flags.has('-V') || scan.index >= args.length) return { inner: { kind: 'none' } };
  return { inner: { kind: 'argv', start: scan.index } };
}

export const commandHooks: ProgramHooks = { unwrap };
