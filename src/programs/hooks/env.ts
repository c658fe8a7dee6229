/** env: `-S STRING` splits a string into the command; `VAR=x` settings before it; with no command it prints the environment. */
import type { ProgramHooks } from '../hook-types.js';
import type { UnwrapAnswer, UnwrapInput, Word, WrapperAssignment } from '../unwrap-types.js';
import { takeAssignments } from '../wrapper-options.js';

function unwrap<W extends Word>({ args, scan }: UnwrapInput<W>): UnwrapAnswer<W> {
  const split = scan.values.get('-S') ?? scan.values.get('--split-string');
  // The split string is read as shell words; the operands after it are further words.
  if (split) return { inner: { kind: 'shell', script: [split, ...args.slice(scan.index)] } };
  const assignments: WrapperAssignment[] = [];
  const i = takeAssignments(args, scan.index, assignments);
  return { inner: i >= args.length ? { kind: 'none' } : { kind: 'argv', start: i }, assignments };
}

export const envHooks: ProgramHooks = { unwrap };
