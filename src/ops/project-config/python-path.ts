/**
 * Where a proven Python run (`python3 -c`, `-m json.tool`) looks for modules before the standard
 * library, and what in its environment could make it run other code:
 * - the working directory, first on `sys.path` for `-c` and `-m`, unless `-I`, `-P` or
 *   `$PYTHONSAFEPATH` (not read under `-E`/`-I`) keep it off;
 * - each `$PYTHONPATH` entry (an empty one is the working directory), unless `-E` or `-I`;
 *   site imports `sitecustomize` and `usercustomize` from them at startup.
 * Startup files in the working directory itself are not read: site runs before the directory is
 * put on the path (a `sitecustomize.py` or `.pth` there runs nothing — checked with Python 3.11).
 * Any other `PYTHON*` variable set (the line's or the analysis context's) leaves the run unproven
 * unless it is on python-options.ts's whitelist of harmless ones with a harmless value.
 */
import { posix } from 'node:path';
import type { ProjectContext, RepoCode } from './types.js';
import { PYTHON2_ONLY_STDLIB, PYTHON3_STDLIB } from '../../programs/inline-code/python-stdlib.js';
import { harmlessPythonVariable, harmlessWarningOption } from '../../programs/inline-code/python-options.js';

/** Followed below, each by its own check. */
const FOLLOWED_HERE = new Set(['PYTHONPATH', 'PYTHONWARNINGS', 'PYTHONSAFEPATH']);

export interface PythonSearchPath {
  /** Directories searched before the standard library, absolute. */
  dirs: string[];
  /** What could not be known (a variable set to an unknown value, or one that changes what runs). */
  unknown: RepoCode[];
}

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
    // Every other PYTHON* variable set is unknown unless proven harmless (a whitelist: PYTHONSTARTUP,
    // PYTHONHOME, PYTHONBREAKPOINT… and whatever the next Python adds are not on it).
    for (const name of ctx.variableNames())
      if (/^PYTHON/.test(name) && !FOLLOWED_HERE.has(name) && envSet(name) && !harmlessPythonVariable(name, ctx.variable(name)))
        unknown.push({
          kind: 'unknown',
          where: 'the environment',
          what: `$${name} is not among the Python variables known to change neither what runs nor where code comes from`,
          value: ctx.variable(name),
        });
    const warnings = ctx.variable('PYTHONWARNINGS');
    if (warnings === null || (typeof warnings === 'string' && !warnings.split(',').every(harmlessWarningOption)))
      unknown.push({ kind: 'unknown', where: 'the environment', what: '$PYTHONWARNINGS may import the module of a warning category', value: warnings });
  }
  return { dirs: [...new Set(dirs)], unknown };
}
