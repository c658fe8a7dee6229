/**
 * taskset, chrt and ionice run a command, or with `-p` change a process already running (then
 * they run nothing); chrt `-m` only lists the policies. taskset and chrt take a mask or priority
 * before the command.
 */
import type { ProgramHooks } from '../hook-types.js';
import type { OptionScan, UnwrapAnswer, UnwrapInput, Word } from '../unwrap-types.js';

/** The command after `skip` operands, or none. */
function commandAfter<W extends Word>(args: W[], scan: OptionScan<W>, skip: number): UnwrapAnswer<W> {
  const start = scan.index + skip;
  return { inner: start >= args.length ? { kind: 'none' } : { kind: 'argv', start } };
}

export const tasksetHooks: ProgramHooks = {
  unwrap: <W extends Word>({ args, scan }: UnwrapInput<W>): UnwrapAnswer<W> =>
    scan.flags.has('-p') || scan.flags.has('--pid') ? { inner: { kind: 'none' } } : commandAfter(args, scan, 1),
};

export const chrtHooks: ProgramHooks = {
  unwrap: <W extends Word>({ args, scan }: UnwrapInput<W>): UnwrapAnswer<W> =>
    scan.flags.has('-p') || scan.flags.has('-m') || scan.flags.has('--pid') ? { inner: { kind: 'none' } } : commandAfter(args, scan, 1),
};

export const ioniceHooks: ProgramHooks = {
  unwrap: <W extends Word>({ args, scan }: UnwrapInput<W>): UnwrapAnswer<W> =>
    scan.values.has('-p') || scan.values.has('--pid') ? { inner: { kind: 'none' } } : commandAfter(args, scan, 0),
};
