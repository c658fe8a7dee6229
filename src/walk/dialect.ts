/**
 * Which shells read the code being walked, and the check that runs where one of them is not bash.
 * shellgate walks bash's reading; a text that dash or zsh reads is judged from it only where every
 * construct means the same there (src/syntax/dash-reading.ts, zsh-reading.ts); anything else asks
 * with `dialect-difference`, naming the shell.
 */
import type { Script, Span } from '../syntax/ast.js';
import { firstDashDifference } from '../syntax/dash-reading.js';
import { firstZshDifference } from '../syntax/zsh-reading.js';
import type { ShellDialect } from '../syntax/dialects.js';
import type { CommandContext } from './types.js';
import type { SourceFrame } from './source-frame.js';
import type { Walker } from './walker-api.js';

/** A shell whose reading is checked against bash's. */
export type Reader = 'bash' | 'dash' | 'zsh';

/** Shells a body may be run by, each with the reading it gets (dash for `sh` as on Debian and Ubuntu). */
const SHELL_READERS: Readonly<Record<string, Reader>> = {
  sh: 'dash',
  dash: 'dash',
  ash: 'dash',
  busybox: 'dash',
  bash: 'bash',
  ksh: 'bash',
  mksh: 'bash',
  zsh: 'zsh',
};

/** The top-level `shell` option's readings: `auto` is all of them. */
const TOP_READERS: Readonly<Record<ShellDialect, readonly Reader[]>> = {
  bash: ['bash'],
  sh: ['dash'],
  zsh: ['zsh'],
  auto: ['bash', 'dash', 'zsh'],
};

/** The shells that may read the code being walked: the innermost shell that runs it, else the line's own. */
export function readersOf(ctx: CommandContext, top: ShellDialect): readonly Reader[] {
  for (let i = ctx.via.length - 1; i >= 0; i--) {
    const program = /^(?:shell-c|shell-stdin|wrapper):(.+)$/.exec(ctx.via[i])?.[1];
    if (program !== undefined && SHELL_READERS[program] !== undefined) return [SHELL_READERS[program]];
  }
  return TOP_READERS[top];
}

const NAMES: Readonly<Record<Exclude<Reader, 'bash'>, string>> = { dash: 'dash (`sh` on Debian and Ubuntu)', zsh: 'zsh' };

/**
 * Report, once per shell, the first construct of `script` (parsed from `text`) that a shell other
 * than bash that reads it may read to do more.
 */
export function checkDialects(w: Walker, script: Script, text: string, frame: SourceFrame, ctx: CommandContext, owner?: number): void {
  for (const reader of readersOf(ctx, w.options.shell)) {
    if (reader === 'bash') continue;
    const difference = reader === 'dash' ? firstDashDifference(script, text) : firstZshDifference(script, text);
    if (difference) w.finding('dialect-difference', `${NAMES[reader]} reads ${difference.what}`, frame.map(difference.span as Span), owner);
  }
}
