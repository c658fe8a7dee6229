/** grep: the first operand is the pattern unless -e/-f give it; -r with no file reads the cwd. */
import type { ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/** grep PATTERN FILE…, but with -e/-f every operand is a file; -r with no file reads the cwd. */
function grep(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  const patternGiven = p.options.some((o) => ['-e', '--regexp', '-f', '--file'].includes(o.name));
  const files = patternGiven ? p.operands : p.operands.slice(1);
  const recursive = p.options.some((o) => ['-r', '-R', '--recursive', '--dereference-recursive'].includes(o.name));
  // A recursive grep reads every file under its directories: a Read of the directory (so a rule on
  // ~/.ssh/** catches `grep -r x ~/.ssh`).
  for (const f of files) b.path('Read', f, 'operand');
  if (recursive && files.length === 0) b.path('Read', { value: '.', dynamic: false, glob: false, span: b.cmd.span }, 'operand');
  return { class: 'read-only', skipOperands: true };
}

export const grepHooks: ProgramHooks = { module: 'grep.ts', operations: grep };
