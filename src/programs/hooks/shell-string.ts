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

/** Shells that read `-c STRING` as a POSIX-like command line (what `su -s SHELL -c` hands it to). */
const SH_LIKE = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'yash', 'posh']);

/** su's and runuser's words after permuting: options anywhere, operands in order, all after `--` operands. */
interface Permuted<W extends Word> {
  shellString: W | null;
  values: Map<string, W>;
  /** Indexes of the operands. */
  operands: number[];
}

/**
 * util-linux su and runuser read options with getopt_long, which permutes: an option may follow
 * the user name (`su root -c 'rm -rf /'`), and only `--` ends them.
 */
function permute<W extends Word>({ args, scanFrom }: UnwrapInput<W>): Permuted<W> {
  const out: Permuted<W> = { shellString: null, values: new Map(), operands: [] };
  let i = 0;
  while (i < args.length) {
    const s = scanFrom(i);
    if (s.shellString) out.shellString = s.shellString;
    for (const [k, v] of s.values) out.values.set(k, v);
    const last = args[s.index - 1];
    // The scan stopped after a `--` that was not an option's value: the rest are operands.
    if (s.index > i && last?.value === '--' && !last.dynamic && ![...s.values.values()].includes(last)) {
      for (let k = s.index; k < args.length; k++) out.operands.push(k);
      break;
    }
    if (s.index >= args.length) break;
    out.operands.push(s.index);
    i = s.index + 1;
  }
  return out;
}

/**
 * `su [options] [-] [user [argument…]]`: `-c STRING` (anywhere) is run by the user's shell; the
 * arguments after the user go to that shell (`su root -- -c CMD`, `su root script.sh`). With
 * `-s SHELL` other than a POSIX-like shell, what runs is not known here.
 */
function su<W extends Word>(input: UnwrapInput<W>): UnwrapAnswer<W> {
  const { args } = input;
  const p = permute(input);
  const shell = p.values.get('-s') ?? p.values.get('--shell');
  const unknownShell = shell !== undefined && (shell.dynamic || !SH_LIKE.has(shell.value.slice(shell.value.lastIndexOf('/') + 1)));
  if (unknownShell) return { inner: { kind: 'stdin-shell' } };
  // runuser -u USER COMMAND…: the command runs as it is, without a shell.
  const user = p.values.get('-u') ?? p.values.get('--user');
  if (user !== undefined && !p.shellString) return { inner: p.operands.length > 0 ? { kind: 'argv', start: p.operands[0] } : { kind: 'stdin-shell' } };
  if (p.shellString) return { inner: { kind: 'shell', script: [p.shellString] } };
  const operands = p.operands.map((k) => args[k]);
  if (operands[0]?.value === '-' && !operands[0].dynamic) operands.shift(); // login shell
  const shellArgs = operands.slice(1);
  const first = shellArgs[0];
  if (first === undefined) return { inner: { kind: 'stdin-shell' } };
  if (!first.dynamic && first.value === '-c' && shellArgs[1] !== undefined) return { inner: { kind: 'shell', script: [shellArgs[1]] } };
  if (!first.dynamic && !first.value.startsWith('-')) return { inner: { kind: 'script-file', file: first } };
  return { inner: { kind: 'stdin-shell' } };
}

/** script. */
export const shellStringHooks: ProgramHooks = { unwrap: shellOrStdinShell };
/** su, runuser. */
export const suHooks: ProgramHooks = { unwrap: su };
export const flockHooks: ProgramHooks = { unwrap: flock };
