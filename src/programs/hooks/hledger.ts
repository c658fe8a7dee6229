/** hledger: with no -f it reads the journal named by $LEDGER_FILE, else ~/.hledger.journal. */
import type { ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/**
 * hledger reads its journal from `-f FILE` (the spec's read role) or, with none, from
 * `$LEDGER_FILE` or `~/.hledger.journal` (hledger manual, "Input"). The home journal is read
 * here, outside the workspace; a spec's `reads` cannot depend on -f being absent. A hook does not
 * see `$LEDGER_FILE`: the home journal stands for the journal read when no -f is given.
 */
function hledger(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p || p.options.some((o) => o.name === '-f' || o.name === '--file')) return;
  b.path('Read', { value: `${b.env.home}/.hledger.journal`, dynamic: false, glob: false, span: b.cmd.span }, 'program');
}

export const hledgerHooks: ProgramHooks = { module: 'hledger.ts', operations: hledger };
