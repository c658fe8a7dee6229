/**
 * Which variables a builtin assigns, read as bash reads its arguments. One place for both
 * layers: the walker forgets those values (walk/shell-state.ts) and the operations report them
 * as Env operations, so `read PATH` or `printf -v LD_PRELOAD …` is seen as an assignment.
 *
 * - `read [-ers] [-a NAME] [-d D] [-i T] [-n N] [-N N] [-p PROMPT] [-t T] [-u FD] [NAME…]`
 * - `mapfile`/`readarray [-d D] [-n N] [-O O] [-s N] [-t] [-u FD] [-C CB] [-c Q] [ARRAY]`
 * - `getopts OPTSTRING NAME [ARG…]`, `printf -v NAME …`, `wait -p NAME …`
 * - `let NAME=EXPR…` (also `+=`, `-=`…), `unset [-fvn] NAME…` (a function name with -f)
 */
import type { Arg } from './types.js';

/** Short options that take a value, per builtin (the value is the next word or attached). */
const VALUE_OPTIONS: Record<string, string> = {
  read: 'adinNptu',
  mapfile: 'dnOsuCc',
  readarray: 'dnOsuCc',
  printf: 'v',
  wait: 'p',
  getopts: '',
  let: '',
  unset: '',
};
/** The option whose value is a variable name. */
const NAME_OPTION: Record<string, string> = { read: 'a', printf: 'v', wait: 'p' };

export interface AssignedNames {
  /** The words naming assigned variables (subscripts removed from the value). */
  names: Arg[];
  /** Some assigned name is only known at run time: any variable may change. */
  unknown: boolean;
}

const NONE: AssignedNames = { names: [], unknown: false };
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\[.*\])?$/;

/**
 * What `program in VALUE_OPTIONS` finds: its keys, and (through the prototype) Object.prototype's
 * names. As a Set: every command asks, and `in` with a name from the command looks it up slowly.
 */
const ASSIGNING: ReadonlySet<string> = new Set([...Object.keys(VALUE_OPTIONS), ...Object.getOwnPropertyNames(Object.prototype)]);

/** Does `program` assign variables it is told the names of? */
export function assignsVariables(program: string): boolean {
  return ASSIGNING.has(program);
}

export function assignedNames(program: string, args: Arg[]): AssignedNames {
  const valueLetters = VALUE_OPTIONS[program];
  if (valueLetters === undefined) return NONE;
  const names: Arg[] = [];
  let unknown = false;
  const take = (a: Arg) => {
    if (a.dynamic) unknown = true;
    else if (NAME.test(a.value)) names.push({ ...a, value: a.value.replace(/\[.*$/, '') });
  };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic) break;
    if (a.value === '--') {
      i++;
      break;
    }
    if (!/^-[A-Za-z]+$/.test(a.value) || program === 'let') break;
    if (program === 'unset' && a.value.includes('f')) return NONE; // functions, not variables
    for (let j = 1; j < a.value.length; j++) {
      if (!valueLetters.includes(a.value[j])) continue;
      const attached = a.value.slice(j + 1);
      const value = attached !== '' ? { ...a, value: attached } : args[++i];
      if (value && a.value[j] === NAME_OPTION[program]) take(value);
      break;
    }
  }
  const operands = args.slice(i);
  if (program === 'read' || program === 'unset') operands.forEach(take);
  else if (program === 'mapfile' || program === 'readarray') operands.slice(0, 1).forEach(take);
  else if (program === 'getopts') operands.slice(1, 2).forEach(take);
  else if (program === 'let') {
    for (const a of operands) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\s*([-+*/%&|^]|<<|>>)?=(?!=)/.exec(a.value);
      if (a.dynamic && !m) unknown = true;
      else if (m) names.push({ ...a, value: m[1] });
    }
  }
  return { names, unknown };
}
