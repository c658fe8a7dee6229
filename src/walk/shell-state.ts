/**
 * What builtins do to the shell state the walker follows: the working directory (cd, pushd, popd),
 * variables (assignments through export/declare/readonly, read, mapfile, printf -v, unset), which
 * variables are exported, and `set -a`. One place for every builtin's state change, so a later
 * command sees what bash would have.
 *
 * Where bash's result cannot be known (a dynamic target, CDPATH, a nameref, a builtin that
 * assigns from input), the state becomes unknown rather than guessed: later paths and values that
 * depend on it are then dynamic, and never `allow` by assumption.
 */
import type { Arg } from './types.js';
import { forgetState, GLOB_OPTIONS, type Scope } from './scope.js';
import { unknownSetOptions, unknownShoptOptions } from './shell-options.js';
import { isUnfollowedShellVariable } from './shell-variables.js';
import { assignedNames, assignsVariables } from './assigned-names.js';
import { resolvePath } from '../expand/paths.js';
import { variableValue, type ExpandScope } from '../expand/word.js';

/** Builtins whose `NAME=VALUE` arguments assign (and, for `export` / `-x`, export) variables. */
export const DECLARATION_BUILTINS: ReadonlySet<string> = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

/** The builtins that change the shell's directory. */
export const DIRECTORY_BUILTINS: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const OPTION = /^[-+][A-Za-z]+$/;

/** What a builtin changed that shellgate does not follow: the walker reports it as a finding. */
export interface StateFinding {
  rule: 'shell-option' | 'special-variable' | 'arithmetic-injection';
  detail: string;
}

/**
 * Findings for assignments to `names` (a subscript may follow): a shell variable bash reads that
 * shellgate does not follow, or a variable with the integer attribute given a value that is not
 * a known integer (bash evaluates it as arithmetic, running `a[$(…)]` inside).
 */
export function assignmentFindings(scope: Scope, name: string, value: string | null, raw = value ?? '…'): StateFinding[] {
  const out: StateFinding[] = [];
  if (isUnfollowedShellVariable(name)) out.push({ rule: 'special-variable', detail: `\`${name.replace(/\[.*$/, '')}\`` });
  if (scope.transforms?.get(name.replace(/\[.*$/, ''))?.includes('i') && !isIntegerText(value))
    out.push({ rule: 'arithmetic-injection', detail: `\`${name}=${raw.slice(0, 40)}\` (an integer variable)` });
  return out;
}

/** A value that is an integer as written (what arithmetic leaves unchanged). */
function isIntegerText(value: string | null): boolean {
  return value !== null && /^\s*[-+]?\d+\s*$/.test(value);
}

/**
 * Apply `program args…` to `scope`. `certain`: the command surely runs in this shell (its changes
 * are then known); otherwise what it changes becomes unknown.
 */
export function trackShellState(
  program: string,
  args: Arg[],
  scope: Scope,
  certain: boolean,
  es: ExpandScope,
  prefixes: readonly { name: string; value: string | null }[] = [],
): StateFinding[] {
  if (DECLARATION_BUILTINS.has(program)) return declaration(program, args, scope, certain);
  if (program === 'set') {
    setOptions(args, scope, certain);
    return unfollowed(scope, unknownSetOptions(args));
  }
  if (assignsVariables(program)) {
    // `read X`, `printf -v X`, `mapfile X`…: X's value comes from input (a dynamic name may be any).
    const { names, unknown } = assignedNames(program, args);
    const out: StateFinding[] = [];
    for (const n of names) {
      out.push(...assignmentFindings(scope, n.value, null, '(input)'));
      scope.vars.set(n.value, null);
    }
    if (unknown) forgetVariables(scope);
    return out;
  }
  if (DIRECTORY_BUILTINS.has(program)) {
    // `CDPATH=/etc cd ssh`, `HOME=/ cd`: a prefix is seen by the builtin itself.
    const own = prefixes.length === 0 ? es : { ...es, vars: new Map([...es.vars, ...prefixes.map((p) => [p.name, p.value] as const)]) };
    changeDirectory(program, args, scope, certain, own);
    return [];
  }
  if (program === 'shopt') {
    shopt(args, scope, certain);
    return unfollowed(scope, unknownShoptOptions(args));
  }
  return [];
}

/** Options shellgate does not follow: reported, and what follows them is unknown. */
function unfollowed(scope: Scope, options: string[]): StateFinding[] {
  if (options.length === 0) return [];
  forgetState(scope);
  return options.map((o) => ({ rule: 'shell-option', detail: `\`${o}\`` }));
}

/**
 * `shopt -s dotglob nullglob…` turns glob options on for later commands (`-u` off, when sure).
 * A dynamic option name may turn on any of them.
 */
function shopt(args: Arg[], scope: Scope, certain: boolean): void {
  let mode: 's' | 'u' | null = null;
  for (const a of args) {
    if (a.dynamic) {
      for (const o of GLOB_OPTIONS) scope.globOptions.add(o);
      continue;
    }
    if (/^-[a-z]+$/.test(a.value)) {
      if (a.value.includes('o')) return; // `shopt -o`: set -o options, not glob ones
      if (a.value.includes('s')) mode = 's';
      else if (a.value.includes('u')) mode = 'u';
      continue;
    }
    const o = GLOB_OPTIONS.find((g) => g === a.value);
    if (!o || mode === null) continue;
    if (mode === 's') scope.globOptions.add(o);
    else if (certain) scope.globOptions.delete(o);
  }
}

/** Every variable's value becomes unknown (a nameref or a dynamic name may have changed any). */
function forgetVariables(scope: Scope): void {
  for (const k of scope.vars.keys()) scope.vars.set(k, null);
  scope.varsUnknown = true;
}

/**
 * `export X=1` sets X like `X=1` does; `export`, `declare -x` (and any assignment under `set -a`)
 * also put it in the environment of every later command. `declare -n R=X` makes R a nameref:
 * assigning R later assigns X, so from then on variable values are not trusted.
 */
function declaration(program: string, args: Arg[], scope: Scope, certain: boolean): StateFinding[] {
  const flags = args.filter((a) => OPTION.test(a.value) && !a.dynamic).map((a) => a.value);
  const has = (ch: string) => flags.some((f) => f.startsWith('-') && f.includes(ch));
  const unexport = program === 'export' && has('n');
  const exporting = !unexport && (program === 'export' || has('x') || scope.allexport);
  const nameref = program !== 'export' && has('n');
  // `-i` (values are arithmetic), `-l`/`-u`/`-c` (case changed): what is stored is not what is written.
  const transforms = program === 'export' ? '' : [...'iluc'].filter(has).join('');
  const out: StateFinding[] = [];
  if (nameref) forgetVariables(scope);
  for (const a of args) {
    if (OPTION.test(a.value) && !a.dynamic) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?(\+?=|$)/.exec(a.value);
    // `declare "$x"`, `export $(cat .env)`: names known only at run time (`export HOME="$D"`
    // names HOME: only its value is unknown).
    const nameKnown = m !== null && (!a.dynamic || a.raw === undefined || a.raw.startsWith(m[0]));
    if (!nameKnown) {
      if (a.dynamic) forgetVariables(scope);
      continue;
    }
    if (nameref) {
      // `declare -n R=TARGET`: later assignments to R land in TARGET (unknown when dynamic).
      const target = a.value.slice(m![0].length);
      scope.namerefs.set(m![1], m![2] === '=' && !a.dynamic && NAME.test(target) ? target : null);
      continue;
    }
    if (transforms !== '') (scope.transforms ??= new Map()).set(m![1], [...new Set((scope.transforms.get(m![1]) ?? '') + transforms)].join(''));
    // In a function, `local` (and `declare`/`typeset` without -g) lasts until the call returns
    // (calls.ts restores it). Outside one, bash refuses `local` and zsh makes a global: either value.
    const local = program === 'local' || ((program === 'declare' || program === 'typeset') && !has('g'));
    if (local && scope.locals !== undefined) scope.locals.add(m![1]);
    else if (program === 'local' && m![2] !== '') {
      out.push(...assignmentFindings(scope, m![1], null, a.raw ?? a.value));
      scope.vars.set(m![1], null);
      continue;
    }
    if (m![2] !== '') {
      const value = a.dynamic ? null : a.value.slice(m![0].length);
      out.push(...assignmentFindings(scope, m![1], arithmeticResult(a) ?? value, a.raw ?? a.value));
      const known = certain && !a.dynamic && !a.glob && m![2] === '=' && !a.value.slice(m![1].length).startsWith('[');
      scope.vars.set(m![1], known && !scope.transforms?.has(m![1]) ? value : null);
    }
    // Un-exporting is only sure when it surely ran; exporting counts even when it may have.
    if (exporting) scope.exports.add(m![1]);
    else if (unexport && certain) scope.exports.delete(m![1]);
  }
  return out;
}

/** `declare -i n=$((…))`: a value that is one arithmetic expansion is a number (its own risks are walked). */
function arithmeticResult(a: Arg): string | null {
  return a.dynamic && a.raw !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=\$\(\([^()]*\)\)$/.test(a.raw) ? '0' : null;
}

/** `set -a` / `set -o allexport`: later assignments are exported (`set +a` ends it, when sure). */
function setOptions(args: Arg[], scope: Scope, certain: boolean): void {
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    if (args[i].dynamic) {
      scope.allexport = true; // `set $opts` may turn it on
      continue;
    }
    const named = /^[-+]o$/.test(v) ? args[i + 1]?.value : undefined;
    const letters = /^[-+][A-Za-z]+$/.test(v) && named === undefined ? v.slice(1) : '';
    if (letters.includes('a') || named === 'allexport') {
      if (v.startsWith('-')) scope.allexport = true;
      else if (certain) scope.allexport = false;
    }
    if (named !== undefined) i++;
  }
}

/**
 * cd / pushd / popd change the directory later relative paths resolve against.
 * - `cd` alone goes to $HOME, `cd -` to $OLDPWD; `-L`, `-P`, `-e`, `-@` are options.
 * - A relative target is looked up in $CDPATH first when CDPATH is set: then the result is unknown.
 * - `pushd -n DIR` / `popd -n` only edit the stack; `pushd +N`/`-N` rotate it.
 */
function changeDirectory(program: string, args: Arg[], scope: Scope, certain: boolean, es: ExpandScope): void {
  let i = 0;
  let noChange = false;
  let rotate = false;
  for (; i < args.length; i++) {
    const v = args[i].value;
    if (args[i].dynamic) break;
    if (v === '--') {
      i++;
      break;
    }
    if (program !== 'cd' && /^[-+]\d+$/.test(v)) {
      rotate = true;
      break;
    }
    if (!/^-[A-Za-z@]+$/.test(v)) break;
    if (program !== 'cd' && v.includes('n')) noChange = true;
  }
  const target = args[i];
  const stack = scope.dirStack;
  let next: string | null;
  if (rotate) {
    next = null;
    stack.length = 0;
    if (!noChange) stack.push(null);
  } else if (program === 'popd') {
    if (noChange) {
      stack.pop();
      return;
    }
    next = stack.length > 0 ? stack.pop()! : null;
  } else if (!target) {
    if (program === 'pushd') {
      // `pushd` alone swaps the top two directories.
      next = stack.length > 0 ? stack.pop()! : null;
    } else {
      const home = variableValue('HOME', es);
      next = home === undefined ? null : home;
    }
  } else if (target.dynamic || target.glob) {
    next = null;
  } else if (target.value === '-' && program === 'cd') {
    next = scope.oldpwd;
  } else {
    const relative = !target.value.startsWith('/');
    const viaCdpath = relative && !/^\.\.?(\/|$)/.test(target.value) && cdpathSet(es);
    next = viaCdpath || (scope.cwd === null && relative) ? null : resolvePath(target.value, scope.cwd ?? '/');
  }
  if (program === 'pushd' && !rotate) {
    if (noChange) {
      // `pushd -n DIR`: DIR goes on the stack below the top, the directory stays.
      stack.push(next);
      return;
    }
    stack.push(scope.cwd);
  }
  scope.oldpwd = certain ? scope.cwd : null;
  scope.cwd = certain ? next : null;
}

function cdpathSet(es: ExpandScope): boolean {
  if (es.vars.has('CDPATH')) return es.vars.get('CDPATH') !== '';
  const v = es.env.CDPATH;
  return v !== undefined && v !== '';
}

/**
 * The variable an assignment to `name` really sets: a nameref's target. A nameref whose target is
 * not known may set any variable, so its assignments count as exported from then on.
 */
export function namerefTarget(scope: Scope, name: string): string {
  if (!scope.namerefs.has(name)) return name;
  const target = scope.namerefs.get(name)!;
  if (target === null) {
    scope.allexport = true;
    return name;
  }
  return target;
}
