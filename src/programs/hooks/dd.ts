/** dd: `if=` is read, `of=` written (dd has no getopt options). */
import type { CommandClass } from '../spec-types.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

function dd(b: OperationSink): HandlerResult {
  let cls: CommandClass = 'read-only';
  for (const a of b.cmd.args) {
    const m = /^(if|of)=(.*)$/.exec(a.value);
    if (!m) continue;
    const target = { ...a, value: m[2] };
    if (m[1] === 'if') b.path('Read', target, 'operand');
    else {
      b.path('Write', target, 'operand');
      cls = 'mutating';
    }
  }
  return { class: cls, skipOperands: true };
}

export const ddHooks: ProgramHooks = { module: 'dd.ts', operations: dd };
