/** ps: BSD-style option words without a dash (`ps aux`), and `e` that prints environments. */
import type { Span } from '../../syntax/ast.js';
import type { ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/**
 * procps ps takes BSD options as words without a dash (`ps aux`, `ps e`); a value follows `o`,
 * `O`, `p`, `q`, `t`, `U`, `k` (procps-ng 4.0 `ps --help all`). `e` (and macOS `-E`) prints each
 * process's environment after its command: the user's processes' secrets.
 */
const PS_BSD_FLAGS = new Set([...'arTxfjlZsuvXHmceLnSVwgh']);
const PS_BSD_VALUE = new Set([...'oOpqtUk']);

function ps(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  let env: Span | null = p.options.find((o) => o.name === '-E')?.arg.span ?? null;
  const ops = p.operands;
  for (let i = 0; i < ops.length; i++) {
    const a = ops[i];
    if (a.dynamic) {
      b.unknownOption(a.value, a, 'ps', null, true);
      continue;
    }
    if (/^[0-9,]+$/.test(a.value)) continue; // a list of pids
    if (!/^[A-Za-z]+$/.test(a.value)) {
      b.unknownOption(a.value, a, 'ps');
      continue;
    }
    for (let j = 0; j < a.value.length; j++) {
      const ch = a.value[j];
      if (ch === 'e') env ??= a.span;
      if (PS_BSD_VALUE.has(ch)) {
        if (j === a.value.length - 1) i++; // the value is the next word
        break;
      }
      if (!PS_BSD_FLAGS.has(ch)) {
        b.unknownOption(ch, a, 'ps');
        break;
      }
    }
  }
  if (env) b.add('Env', 'option', env, { target: '*', program: 'ps' });
  return { class: 'read-only', skipOperands: true };
}

export const psHooks: ProgramHooks = { module: 'ps.ts', operations: ps };
