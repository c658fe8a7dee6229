/** sudo and doas: `VAR=x` settings before the command; with no command, a root shell (`-i`, `-s`) or only credentials (`-v`, `-l`). */
import type { ProgramHooks } from '../hook-types.js';
import type { UnwrapAnswer, UnwrapInput, Word, WrapperAssignment } from '../unwrap-types.js';
import { takeAssignments } from '../wrapper-options.js';

function unwrap<W extends Word>({ args, scan }: UnwrapInput<W>): UnwrapAnswer<W> {
  if (scan.shellString) return { inner: { kind: 'shell', script: [scan.shellString] } };
  const assignments: WrapperAssignment[] = [];
  const i = takeAssignments(args, scan.index, assignments);
  if (i >= args.length) {
    const shell = scan.flags.has('-i') || scan.flags.has('-s') || scan.flags.has('--login') || scan.flags.has('--shell');
    return { inner: shell ? { kind: 'stdin-shell' } : { kind: 'none' }, assignments };
  }
  // `sudo -e FILE` (sudoedit) edits files; it runs no command of the line.
  if (scan.flags.has('-e') || scan.flags.has('--edit')) return { inner: { kind: 'none' }, assignments };
  return { inner: { kind: 'argv', start: i }, assignments };
}

export const sudoHooks: ProgramHooks = { unwrap };
