/**
 * A glob is expanded by the shell, which reads the directories it walks: `echo ~/.ssh/*` lists
 * ~/.ssh whatever program gets the names, as `ls ~/.ssh` does. Every glob word of a command —
 * its program word too, and the words of a `for` loop (walked as a command of their own) — lists
 * the directory before its first pattern segment. A `..` after a pattern segment may lead
 * anywhere: that listing is not known.
 */
import type { Arg } from '../walk/types.js';
import type { OpBuilder } from './op-builder.js';

/** A segment the shell matches as a pattern (quoted characters count too: more listings, never fewer). */
const PATTERN = /[*?[]/;

export function globListings(b: OpBuilder, args: readonly Arg[]): void {
  for (const arg of args) {
    if (!arg.glob || arg.dynamic) continue;
    const segments = arg.value.split('/');
    const first = segments.findIndex((s) => PATTERN.test(s));
    if (first < 0) continue;
    if (segments.slice(first + 1).includes('..')) {
      b.add('List', 'operand', arg.span, { target: arg.value, dynamic: true, glob: true });
      continue;
    }
    const dir = segments.slice(0, first).join('/') || (arg.value.startsWith('/') ? '/' : '.');
    b.path('List', { ...arg, value: dir, glob: false }, 'operand');
  }
}
