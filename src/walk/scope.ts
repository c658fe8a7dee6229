/**
 * The shell state the walker follows along a command line, and how it flows: copied into
 * subshells and branches, merged back as *uncertain* where control flow may or may not have
 * changed it. Merging keeps the stricter reading: a value that differs becomes unknown, an export
 * or a glob option that may have been set counts as set, a function that may be defined is "maybe".
 */
import { isGlobMatch } from '../expand/word.js';
import type { Command } from '../syntax/ast.js';
import type { SourceFrame } from './source-frame.js';
import type { GlobOption } from './types.js';

/** A function defined on the line: its body, where it was written, and whether it surely exists. */
export interface FunctionDefinition {
  body: Command;
  frame: SourceFrame;
  /** Defined unconditionally in this shell; else it may not exist when called (`true && f() {…}`). */
  certain: boolean;
}

/** Every glob option the walker follows (what code it cannot see may have turned on). */
export const GLOB_OPTIONS: readonly GlobOption[] = ['dotglob', 'globstar', 'nullglob', 'extglob', 'nocaseglob', 'failglob'];

export interface Scope {
  cwd: string | null;
  /** The directory before the last `cd` on the line ($OLDPWD, `cd -`); null when unknown. */
  oldpwd: string | null;
  /** Commands run on another host (`ssh host CMD`): its home and environment are unknown. */
  remote?: boolean;
  vars: Map<string, string | null>;
  /** Variables set to what `which A || which B` printed: the programs they may name (found-programs.ts). */
  found?: Map<string, string[]>;
  /** A nameref or a dynamic name may have assigned any variable: none is known from here on. */
  varsUnknown?: boolean;
  /** Names this line exported (`export X=1`, `declare -x X`, assignments under `set -a`). */
  exports: Set<string>;
  /** `set -a` / `set -o allexport` ran: every later assignment is exported. */
  allexport: boolean;
  dirStack: (string | null)[];
  /** Functions defined on the line and visible here (write through defineFunction). */
  functions: Map<string, FunctionDefinition>;
  /**
   * `functions` is the table of the scope this one was forked from: copied before the first
   * write. A script that defines many functions and forks at every pipeline would otherwise copy
   * them all at each fork (quadratic in its length). The parent keeps writing its own table in
   * place: a fork is walked to its end before the walk goes on in the parent, so nothing the
   * parent defines later reaches a fork still in use.
   */
  sharedFunctions?: boolean;
  /** Aliases defined on the line (name → value); whether bash expands them is never assumed. */
  aliases: Map<string, string>;
  /** Glob options that may be on (`shopt -s dotglob`…); bash -c starts with none of them. */
  globOptions: Set<GlobOption>;
  /** `declare -n R=X`: assigning R assigns X (null: a target known only at run time). */
  namerefs: Map<string, string | null>;
  /**
   * `declare -i/-l/-u/-c NAME`: the attribute letters a variable may have. Its assigned values are
   * not stored as written (case changed, or evaluated as arithmetic: values are then unknown).
   */
  transforms?: Map<string, string>;
  /**
   * While a function's body is walked: the names it declared local (`local`, and `declare` or
   * `typeset` without -g), whose values the call restores when it returns. Undefined outside one.
   */
  locals?: Set<string>;
}

export function newScope(cwd: string): Scope {
  return {
    cwd,
    oldpwd: null,
    vars: new Map(),
    exports: new Set(),
    allexport: false,
    dirStack: [],
    functions: new Map(),
    aliases: new Map(),
    globOptions: new Set(),
    namerefs: new Map(),
  };
}

/** A copy for a subshell or a branch: what it changes does not reach `scope` unless merged. */
export function forkScope(scope: Scope): Scope {
  return {
    cwd: scope.cwd,
    oldpwd: scope.oldpwd,
    remote: scope.remote,
    vars: copyMap(scope.vars),
    ...(scope.found ? { found: new Map(scope.found) } : {}),
    varsUnknown: scope.varsUnknown,
    exports: copySet(scope.exports),
    allexport: scope.allexport,
    dirStack: scope.dirStack.slice(),
    functions: shareFunctions(scope),
    sharedFunctions: scope.functions.size > 0,
    aliases: copyMap(scope.aliases),
    globOptions: copySet(scope.globOptions),
    namerefs: copyMap(scope.namerefs),
    ...(scope.transforms ? { transforms: new Map(scope.transforms) } : {}),
    ...(scope.locals ? { locals: new Set(scope.locals) } : {}),
  };
}

function shareFunctions(scope: Scope): Map<string, FunctionDefinition> {
  return scope.functions.size === 0 ? new Map() : scope.functions;
}

/** Define (or redefine) a function in this scope, copying a shared table first. */
export function defineFunction(scope: Scope, name: string, definition: FunctionDefinition): void {
  if (scope.sharedFunctions) {
    scope.functions = new Map(scope.functions);
    scope.sharedFunctions = false;
  }
  scope.functions.set(name, definition);
}

// Most of a line's state is empty: a fresh collection then, without walking an iterator.
function copyMap<K, V>(m: Map<K, V>): Map<K, V> {
  return m.size === 0 ? new Map() : new Map(m);
}

function copySet<T>(s: Set<T>): Set<T> {
  return s.size === 0 ? new Set() : new Set(s);
}

/** A value that names a program as one word (`rm`, `./run.sh`), the only kind walked as a candidate. */
const PROGRAM_WORD = /^[A-Za-z0-9_./+-]+$/;
/** At most this many programs a variable may name are walked. */
const MAX_CANDIDATES = 8;

/** State that `maybe` may or may not have reached: where it differs from `scope`, it becomes unknown. */
export function mergeUncertain(scope: Scope, maybe: Scope): void {
  if (maybe.cwd !== scope.cwd) scope.cwd = null;
  if (maybe.oldpwd !== scope.oldpwd) scope.oldpwd = null;
  // (Each loop is skipped when there is nothing to merge: most lines set nothing.)
  if (maybe.vars.size > 0)
    for (const [k, v] of maybe.vars) {
      const before = scope.vars.get(k);
      if (before === v) continue;
      // `c=ls; true && c=rm; $c -rf ~`: the value is unknown, and a command run as `$c` is also
      // walked as each program the variable may name (found-programs.ts).
      const names = [before, v].filter((x): x is string => typeof x === 'string' && PROGRAM_WORD.test(x));
      if (names.length > 0) (scope.found ??= new Map()).set(k, [...new Set([...(scope.found.get(k) ?? []), ...names])].slice(0, MAX_CANDIDATES));
      scope.vars.set(k, null);
    }
  // A program a variable may name in either branch stays a reading to walk.
  if (maybe.found) for (const [k, names] of maybe.found) (scope.found ??= new Map()).set(k, [...new Set([...(scope.found.get(k) ?? []), ...names])]);
  // An export that may have run counts as done: the stricter reading for what later commands see.
  if (maybe.exports.size > 0) for (const k of maybe.exports) scope.exports.add(k);
  scope.allexport ||= maybe.allexport;
  scope.varsUnknown ||= maybe.varsUnknown;
  // A function that may have been defined may also not be: calls analyse the program as well.
  // (A table still shared with `scope` holds nothing new.)
  if (maybe.functions.size > 0 && maybe.functions !== scope.functions) {
    for (const [k, f] of maybe.functions) if (scope.functions.get(k) !== f) defineFunction(scope, k, { ...f, certain: false });
  }
  if (maybe.aliases.size > 0) for (const [k, v] of maybe.aliases) scope.aliases.set(k, v);
  if (maybe.globOptions.size > 0) for (const o of maybe.globOptions) scope.globOptions.add(o);
  if (maybe.namerefs.size > 0) for (const [k, v] of maybe.namerefs) if (scope.namerefs.get(k) !== v) scope.namerefs.set(k, scope.namerefs.has(k) ? null : v);
  // An attribute that may have been given counts as given: its values are then not trusted.
  if (maybe.transforms)
    for (const [k, v] of maybe.transforms) (scope.transforms ??= new Map()).set(k, [...new Set((scope.transforms.get(k) ?? '') + v)].join(''));
}

/**
 * Did `after` (a fork of `before`, walked through some code) change what later commands see: the
 * directory, a variable, an export, an option, a function, an alias, a nameref or an attribute?
 */
export function stateChanged(before: Scope, after: Scope): boolean {
  if (before.cwd !== after.cwd || before.oldpwd !== after.oldpwd || before.allexport !== after.allexport) return true;
  if (Boolean(before.varsUnknown) !== Boolean(after.varsUnknown)) return true;
  const mapDiffers = <K, V>(a: ReadonlyMap<K, V> | undefined, b: ReadonlyMap<K, V> | undefined) =>
    (a?.size ?? 0) !== (b?.size ?? 0) || [...(b ?? [])].some(([k, v]) => a?.get(k) !== v || !a.has(k));
  const setDiffers = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>) => a.size !== b.size || [...b].some((x) => !a.has(x));
  return (
    mapDiffers(before.vars, after.vars) ||
    mapDiffers(before.functions, after.functions) ||
    mapDiffers(before.aliases, after.aliases) ||
    mapDiffers(before.namerefs, after.namerefs) ||
    mapDiffers(before.transforms, after.transforms) ||
    setDiffers(before.exports, after.exports) ||
    setDiffers(before.globOptions, after.globOptions) ||
    before.dirStack.length !== after.dirStack.length ||
    before.dirStack.some((d, i) => after.dirStack[i] !== d)
  );
}

/** Run `f` on the scope itself when the command surely runs here, else on a copy merged back as uncertain. */
export function withCertainty(scope: Scope, certain: boolean, f: (s: Scope) => void): void {
  if (certain) return f(scope);
  const copy = forkScope(scope);
  f(copy);
  mergeUncertain(scope, copy);
}

/**
 * After code shellgate cannot see ran in this shell (`eval "$x"`, `source` of an unread file): the
 * directory, every variable and the options may have changed.
 */
export function forgetState(scope: Scope): void {
  scope.cwd = null;
  scope.oldpwd = null;
  scope.varsUnknown = true;
  scope.allexport = true;
  for (const o of GLOB_OPTIONS) scope.globOptions.add(o);
}

const NO_EXPORTS: ReadonlyMap<string, string | null> = new Map();
const NO_GLOB_OPTIONS: ReadonlySet<GlobOption> = new Set();

/** The glob options that may be on now, as a snapshot (the scope's set keeps changing). */
export function globOptionsNow(scope: Scope): ReadonlySet<GlobOption> {
  return scope.globOptions.size === 0 ? NO_GLOB_OPTIONS : new Set(scope.globOptions);
}

/** What this line exported so far, with the value when it is known. */
export function exportedVariables(scope: Scope): ReadonlyMap<string, string | null> {
  if (scope.exports.size === 0) return NO_EXPORTS;
  const out = new Map<string, string | null>();
  for (const k of scope.exports) {
    const v = scope.vars.get(k);
    out.set(k, scope.varsUnknown || isGlobMatch(v) ? null : (v ?? null));
  }
  return out;
}
