/** at and batch read the job's commands from stdin (or `-f FILE`); `-l`, `-d`, `-r`, `-c` only manage the queue. */
import type { ProgramHooks } from '../hook-types.js';
import type { UnwrapAnswer, UnwrapInput, Word } from '../unwrap-types.js';

function unwrap<W extends Word>({ scan }: UnwrapInput<W>): UnwrapAnswer<W> {
  if (['-l', '-d', '-r', '-c'].some((f) => scan.flags.has(f))) return { inner: { kind: 'none' } };
  const file = scan.values.get('-f');
  if (file) return { inner: { kind: 'script-file', file } };
  return { inner: { kind: 'stdin-shell' } };
}

export const atHooks: ProgramHooks = { unwrap };
