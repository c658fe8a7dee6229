/**
 * List separators. bash-parser records `&` (`async`) but not whether `;` or a newline separated
 * two commands, so that is read from the text between them.
 */
import type { ListOp } from '../ast.js';

/** `;` or newline between two list items (comments and blanked heredoc bodies skipped). */
export function separatorBetween(t: string, from: number, to: number): ListOp {
  let sawNewline = false;
  for (let i = from; i < to; i++) {
    const c = t[i];
    if (c === '#') {
      while (i < to && t[i] !== '\n') i++;
      if (i < to) sawNewline = true;
    } else if (c === ';') return ';';
    else if (c === '&') return '&';
    else if (c === '\n') sawNewline = true;
  }
  return sawNewline ? '\n' : ';';
}

/** A `;` right after the last item of a list (not a case `;;`/`;&`). */
export function trailingSemicolon(t: string, from: number): ListOp | null {
  let i = from;
  while (i < t.length && (t[i] === ' ' || t[i] === '\t')) i++;
  if (t[i] === ';' && t[i + 1] !== ';' && t[i + 1] !== '&') return ';';
  return null;
}
