/**
 * jq: the filter is code. `env` and `$ENV` give the whole environment (`jq -n env` prints every
 * secret in it, as `env` does); a filter read from a file (`-f`) cannot be seen, so it may too.
 */
import { unknownCode } from './code-text.js';
import type { ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

const ENVIRONMENT = /\$ENV\b|(^|[^$\w.])env\b/;
/** Words that load modules, anywhere but right after a `.` (`.include` is a field). */
const MODULES = /(?<![.\w$])(import|include|modulemeta)\b/;

function operations(b: OperationSink, parsed: ParsedArgv | null): HandlerResult | void {
  if (parsed === null) return;
  const fromFile = parsed.options.some((o) => o.name === '-f' || o.name === '--from-file');
  const filter = fromFile ? undefined : parsed.operands[0];
  // A filter in a file or only known at run time may hold `env` too.
  const unseen = fromFile || (filter !== undefined && unknownCode(filter));
  if (unseen || (filter !== undefined && ENVIRONMENT.test(filter.value))) b.add('Env', 'program', filter?.span ?? b.cmd.span, { target: '*', program: 'jq' });
  // `import "m" as m;`, `include "m";`, `"m" | modulemeta`: jq reads module files (jq code that
  // may read the environment, or JSON data) from its search path (-L DIR, ~/.jq, beside jq).
  // Which files is not followed: any mention of the words, outside a field name, asks.
  if (filter !== undefined && !unseen && MODULES.test(filter.value))
    b.add('Read', 'operand', filter.span, { target: 'jq modules the filter imports', dynamic: true });
}

export const jqHooks: ProgramHooks = { module: 'jq.ts', operations };
