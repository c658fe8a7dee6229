/**
 * Where a proven Python run (`python3 -c`, `-m json.tool`) looks for modules before the standard
 * library, and what in its environment could make it run other code:
 * - the working directory, first on `sys.path` for `-c` and `-m`, unless `-I`, `-P` or
 *   `$PYTHONSAFEPATH` (not read under `-E`/`-I`) keep it off;
 * - each `$PYTHONPATH` entry (an empty one is the working directory), unless `-E` or `-I`;
 *   site imports `sitecustomize` and `usercustomize` from them at startup.
 * Startup files in the working directory itself are not read: site runs before the directory is
 * put on the path (a `sitecustomize.py` or `.pth` there runs nothing — checked with Python 3.11).
 * Variables that move the standard library, add site directories, read compiled files from
 * elsewhere, import warning categories or go interactive after the code cannot be checked here:
 * when set, the run is not proven.
 */
import { posix } from 'node:path';
import type { ProjectContext, RepoCode } from './types.js';
import { PYTHON2_ONLY_STDLIB, PYTHON3_STDLIB } from '../../programs/inline-code/python-stdlib.js';
import { harmlessWarningOption } from '../../programs/inline-code/python-options.js';

export interface PythonSearchPath {
  /** Directories searched before the standard library, absolute. */
  dirs: string[];
  /** What could not be known (a variable set to an unknown value, or one that changes what runs). */
  unknown: RepoCode[];
}

/** Variables whose mere presence changes where code comes from or what runs (when the environment is read). */
const CODE_VARIABLES: Readonly<Record<string, string>> = {
  PYTHONHOME: 'moves the standard library',
  PYTHONPLATLIBDIR: 'moves the standard library',
  PYTHONEXECUTABLE: 'moves the prefix the standard library is found from',
  PYTHONUSERBASE: 'adds a site directory whose .pth files run',
  PYTHONPYCACHEPREFIX: 'reads compiled modules from another tree',
  PYTHONINSPECT: 'reads and runs Python from stdin after the code',
  PYTHONSTARTUP: 'runs a file when Python goes interactive',
};

/** The standard-library names a workspace file must not take, for this interpreter. */
export function stdlibNames(program: string): ReadonlySet<string> {
  // `python2…`, and `python`/`pypy` without a version, may be Python 2.
  const maybe2 = /^(python|pypy)(2[0-9.]*)?$/i.test(program.split('/').pop() ?? program);
  return maybe2 ? new Set([...PYTHON3_STDLIB, ...PYTHON2_ONLY_STDLIB]) : PYTHON3_STDLIB;
}

export function pythonSearchPath(ctx: ProjectContext): PythonSearchPath {
  const flags = new Set(ctx.parsed.options.map((o) => o.name));
  const isolated = flags.has('-I');
  const ignoreEnv = isolated || flags.has('-E');
  const envSet = (name: string) => !ignoreEnv && ctx.variable(name) !== undefined;
  const safePath = isolated || flags.has('-P') || (!ignoreEnv && !!ctx.variable('PYTHONSAFEPATH'));
  const dirs: string[] = [];
  const unknown: RepoCode[] = [];
  if (!safePath) dirs.push(ctx.cwd);
  if (!ignoreEnv) {
    const path = ctx.variable('PYTHONPATH');
    if (path === null)
      unknown.push({
        kind: 'unknown',
        where: 'the environment',
        what: '$PYTHONPATH has a value not known here: a directory on it may shadow a standard module',
      });
    else if (path !== undefined) for (const entry of path.split(':')) dirs.push(posix.resolve(ctx.cwd, entry));
    for (const [name, what] of Object.entries(CODE_VARIABLES))
      if (envSet(name)) unknown.push({ kind: 'unknown', where: 'the environment', what: `$${name} ${what}`, value: ctx.variable(name) });
    const warnings = ctx.variable('PYTHONWARNINGS');
    if (warnings === null || (typeof warnings === 'string' && !warnings.split(',').every(harmlessWarningOption)))
      unknown.push({ kind: 'unknown', where: 'the environment', what: '$PYTHONWARNINGS may import the module of a warning category', value: warnings });
  }
  return { dirs: [...new Set(dirs)], unknown };
}
