/**
 * Every shell (tag `shell`): `bash [opts] [-c STRING | FILE | -s]`, options also bundled (`-lc`,
 * `-ec`). Shell options are read here, not from a spec: `+o`, `-O`, and `-c` anywhere in a
 * bundle are not getopt's rules.
 */
import type { ProgramHooks } from '../hook-types.js';
import type { UnwrapAnswer, UnwrapInput, Word } from '../unwrap-types.js';

/** Shell options that take a value, written before `-c` (`-o pipefail`, `--rcfile f`). */
const SHELL_VALUE_OPTIONS = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

function unwrap<W extends Word>({ args }: UnwrapInput<W>): UnwrapAnswer<W> {
  let commandMode = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i].value;
    if (args[i].dynamic) break;
    if (a === '--' || a === '-') {
      i++;
      break;
    }
    if (SHELL_VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('--')) continue; // --norc, --login, --posix, --noprofile…
    if (!/^[-+][A-Za-z]+$/.test(a)) break;
    if (a.startsWith('-') && a.includes('c')) commandMode = true;
    if (a.startsWith('-') && a.includes('s') && !commandMode) return { inner: { kind: 'stdin-shell' } };
  }
  if (commandMode) return { inner: i >= args.length ? { kind: 'none' } : { kind: 'shell', script: [args[i]] } };
  if (i >= args.length) return { inner: { kind: 'stdin-shell' } };
  return { inner: { kind: 'script-file', file: args[i] } };
}

export const shellHooks: ProgramHooks = { unwrap };
