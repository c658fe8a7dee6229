/**
 * Wrappers whose command is a shell string given with `-c` (the option's role `shell-string` in
 * the spec): su and runuser (without it, a login shell), script (without it, a recorded
 * interactive shell), flock (its options may also follow the lock file; without `-c`,
 * `flock FILE COMMAND…`).
 */
import type { ProgramHooks } from '../hook-types.js';
import type { UnwrapAnswer, UnwrapInput, Word } from '../unwrap-types.js';

function shellOrStdinShell<W extends Word>({ scan }: UnwrapInput<W>): UnwrapAnswer<W> {
  return { inner: scan.shellString ? { kind: 'shell', script: [scan.shellString] } : { kind: 'stdin-shell' } };
}

function flock<W extends Word>({ args, scan, scanFrom }: UnwrapInput<W>): UnwrapAnswer<W> {
  if (scan.shellString) return { inner: { kind: 'shell', script: [scan.shellString] } };
  const after = scanFrom(scan.index + 1);
  if (after.shellString) return { inner: { kind: 'shell', script: [after.shellString] } };
  // `flock FD` alone only locks.
  return { inner: scan.index + 1 >= args.length ? { kind: 'none' } : { kind: 'argv', start: after.index } };
}

/** su, runuser, script. */
export const shellStringHooks: ProgramHooks = { unwrap: shellOrStdinShell };
export const flockHooks: ProgramHooks = { unwrap: flock };
