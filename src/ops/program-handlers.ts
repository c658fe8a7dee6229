/**
 * Shell builtins whose effect is not in their argv shape: declarations and assignments (Env
 * operations), environment dumps, `hash -p`. They stay beside the walker that reads the same
 * builtins (walk/assigned-names.ts); programs' own hooks live in programs/hooks/<program>.ts.
 * PROGRAM_HANDLERS is every program's operations hook, builtins and HOOKS together.
 */
import { assignedNames } from '../walk/assigned-names.js';
import type { OperationsHook } from '../programs/hook-types.js';
import { HOOKS } from '../programs/hooks/index.js';

export type Handler = OperationsHook;
export type { HandlerResult } from '../programs/hook-types.js';

/** `[[ … ]]` only tests; its substitutions are walked on their own. */
const conditional: Handler = () => ({ class: 'read-only', skipOperands: true });

/** alias definitions are parsed and walked by the walker; `alias` alone lists them. */
const alias: Handler = () => ({ class: 'read-only', skipOperands: true });

const ASSIGN_ARG = /^([A-Za-z_][A-Za-z0-9_]*)(\+?=)?/;

/**
 * export / declare / typeset / local / readonly: each NAME=VALUE sets a variable (an Env
 * operation); with no names (or -p) they print variables, secrets included.
 */
const declaration: Handler = (b) => {
  const names = b.cmd.args.filter((a) => !a.value.startsWith('-') && !a.value.startsWith('+'));
  const printing = names.length === 0 && !b.cmd.args.some((a) => /^-[a-zA-Z]*f/.test(a.value));
  if (printing) b.add('Env', 'program', b.cmd.span, { target: '*', program: b.cmd.program ?? '' });
  // `declare -p NAME`, `export -p NAME`: prints the named variables, sets nothing.
  if (!printing && b.cmd.args.some((a) => /^-[a-zA-Z]*p/.test(a.value)) && !b.cmd.args.some((a) => /^-[a-zA-Z]*f/.test(a.value))) {
    for (const a of names) b.add('Env', 'operand', a.span, { target: a.value, program: b.cmd.program ?? '', dynamic: a.dynamic, prints: true });
    return { class: 'read-only', skipOperands: true };
  }
  for (const a of names) {
    const m = ASSIGN_ARG.exec(a.value);
    b.add('Env', 'operand', a.span, { target: m ? m[1] : a.value, dynamic: a.dynamic && !m });
  }
  return { class: 'read-only', skipOperands: true };
};

/** printenv with no names, and `set` with no arguments at all, dump the environment (`set -e` does not). */
const envDump: Handler = (b) => {
  const operands = b.cmd.args.filter((a) => !a.value.startsWith('-') && !a.value.startsWith('+'));
  const dumps = b.cmd.program === 'set' ? b.cmd.args.length === 0 : operands.length === 0;
  if (dumps) b.add('Env', 'program', b.cmd.span, { target: '*', program: b.cmd.program ?? '' });
  else if (b.cmd.program === 'printenv')
    for (const a of operands) b.add('Env', 'operand', a.span, { target: a.value, program: 'printenv', dynamic: a.dynamic, prints: true });
  return { class: 'read-only', skipOperands: true };
};

/**
 * Builtins that assign the variables they name (`read`, `mapfile`, `getopts`, `printf -v`,
 * `wait -p`, `let`; walk/assigned-names.ts reads their arguments): each name is an Env
 * operation, so `read PATH` or `printf -v LD_PRELOAD …` is seen as what it is.
 */
const assignsNames: Handler = (b) => {
  const program = b.cmd.program ?? '';
  for (const n of assignedNames(program, b.cmd.args).names) b.add('Env', 'operand', n.span, { target: n.value, program });
};

/** `hash -p PATH NAME` points NAME at another program for the rest of the session. */
const hash: Handler = (b) => {
  if (b.cmd.args.some((a) => /^-[a-z]*p/.test(a.value))) {
    b.add('Env', 'option', b.cmd.span, { target: 'PATH', program: 'hash' });
    return { class: 'mutating', skipOperands: true };
  }
  return { class: 'read-only', skipOperands: true };
};

const BUILTIN_HANDLERS: Record<string, Handler> = {
  '[[': conditional,
  alias,
  export: declaration,
  declare: declaration,
  typeset: declaration,
  local: declaration,
  readonly: declaration,
  printenv: envDump,
  set: envDump,
  hash,
  read: assignsNames,
  mapfile: assignsNames,
  readarray: assignsNames,
  getopts: assignsNames,
  printf: assignsNames,
  wait: assignsNames,
  let: assignsNames,
};

/** Every program's operations hook by program name: the builtins here, then programs/hooks/. */
export const PROGRAM_HANDLERS: Readonly<Record<string, Handler>> = {
  ...BUILTIN_HANDLERS,
  ...Object.fromEntries(Object.entries(HOOKS).flatMap(([name, hooks]) => (hooks.operations ? [[name, hooks.operations]] : []))),
};
