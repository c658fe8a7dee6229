/**
 * xargs runs its command (echo when none) with arguments read from stdin; with `-I R`,
 * `-i[R]` or `--replace[=R]`, R in the arguments is replaced by each input line instead. The
 * walker reads the input itself (walk/xargs-input.ts).
 */
import type { ProgramHooks } from '../hook-types.js';
import type { UnwrapAnswer, UnwrapInput, Word } from '../unwrap-types.js';

function unwrap<W extends Word>({ args, scan }: UnwrapInput<W>): UnwrapAnswer<W> {
  const i = scan.index;
  const attached = args.slice(0, i).find((a) => /^-i/.test(a.value) || a.value.startsWith('--replace'));
  const replace = scan.values.get('-I')?.value ?? (attached ? attached.value.replace(/^-i|^--replace=?/, '') || '{}' : undefined);
  const start = i >= args.length ? args.length : i;
  return { inner: replace !== undefined ? { kind: 'argv', start, replace } : { kind: 'argv', start, extraArgs: 'stdin' } };
}

export const xargsHooks: ProgramHooks = { unwrap };
