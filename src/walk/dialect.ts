/** Which shell reads the code being walked, as far as the walk knows it. */
import type { CommandContext } from './types.js';

/** Shells a body may be run by, and those that are dash (or as plain) on Debian and Ubuntu. */
const SHELL_NAMES = new Set(['sh', 'dash', 'ash', 'bash', 'zsh', 'ksh', 'mksh', 'busybox']);
const DASH_NAMES = new Set(['sh', 'dash', 'ash']);

/** Is the code being walked run by `sh` (dash), as the innermost shell that reads it? */
export function readByDash(ctx: CommandContext): boolean {
  for (let i = ctx.via.length - 1; i >= 0; i--) {
    const program = /^(?:shell-c|shell-stdin|wrapper):(.+)$/.exec(ctx.via[i])?.[1];
    if (program !== undefined && SHELL_NAMES.has(program)) return DASH_NAMES.has(program);
  }
  return false;
}
