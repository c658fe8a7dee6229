/**
 * jq: the filter is code. `env` and `$ENV` give the whole environment (`jq -n env` prints every
 * secret in it, as `env` does); a filter read from a file (`-f`) cannot be seen, so it may too.
 */
import { unknownCode } from './code-text.js';
import type { ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

const ENVIRONMENT = /\$ENV\b|(^|[^$\w.])env\b/;

function operations(b: OperationSink, parsed: ParsedArgv | null): HandlerResult | void {
  if (parsed === null) return;
  const fromFile = parsed.options.some((o) => o.name === '-f' || o.name === '--from-file');
  const filter = fromFile ? undefined : parsed.operands[0];
  // A filter in a file or only known at run time may hold `env` too.
  const unseen = fromFile || (filter !== undefined && unknownCode(filter));
  if (unseen || (filter !== undefined && ENVIRONMENT.test(filter.value))) b.add('Env', 'program', filter?.span ?? b.cmd.span, { target: '*', program: 'jq' });
}

export const jqHooks: ProgramHooks = { module: 'jq.ts', operations };
