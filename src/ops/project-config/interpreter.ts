/**
 * What a proven interpreter one-liner (programs/hooks/interpreter.ts) loads from the directory it
 * runs in, which would run code instead of the proven program:
 * - Python puts the working directory first on `sys.path` for `-c` and `-m` (and `$PYTHONPATH`
 *   before the standard library): a `json.py`, `json/__init__.py`, `json.pyc` or `json.*.so`
 *   there is imported instead of the standard `json`. Not only the modules the code names: the
 *   modules they import (`statistics` imports `numbers`), codecs (`.encode('idna')` imports
 *   `stringprep`) and `-m json.tool` (`argparse`) import more, so no standard module may be
 *   shadowed at all (python-path.ts says which directories are searched).
 * - Node's `require('./x.json')` parses a plain file; when `x.json` is missing it loads
 *   `x.json.js` or the directory `x.json/` (its `index.js`), and a symbolic link to a `.js` file is
 *   loaded as JavaScript. So the file must be a plain file, not a link.
 */
import { posix } from 'node:path';
import { interpreterFamily } from '../../programs/interpreters.js';
import { provenRun, type ProvenRun } from '../../programs/hooks/interpreter.js';
import { StampedCache, type FileProbe } from './file-probe.js';
import { pythonSearchPath, stdlibNames } from './python-path.js';
import type { ProjectContext, RepoCode } from './types.js';

const cache = new StampedCache<RepoCode[]>();

export function interpreterRepoCode(ctx: ProjectContext): RepoCode[] {
  const program = ctx.cmd.program;
  if (program === null) return [];
  const run = provenRun(program, ctx.cmd.args, ctx.parsed);
  if (run === null || run.kind === 'check') return [];
  const family = interpreterFamily(program);
  if (family === 'python') {
    const search = pythonSearchPath(ctx);
    const names = stdlibNames(program);
    const extra = importedModules(run).filter((m) => !names.has(m));
    return [
      ...search.unknown,
      ...search.dirs.flatMap((dir) => cache.get(JSON.stringify(['py', dir, names.size, extra]), (probe) => pythonShadows(probe, dir, names, extra))),
    ];
  }
  if (family === 'node' && run.kind === 'code')
    return run.proof.requiredJson.flatMap((f) => cache.get(JSON.stringify(['js', ctx.cwd, f]), (probe) => notPlainJson(probe, posix.resolve(ctx.cwd, f))));
  return [];
}

/** The modules a proven Python run imports first: json for json.tool, the module `-m` runs, or what the code imports. */
function importedModules(run: Exclude<ProvenRun, { kind: 'check' }>): readonly string[] {
  if (run.kind === 'json-tool') return ['json'];
  if (run.kind === 'module-program') return [run.module];
  return run.proof.imports;
}

/**
 * Entries of `dir` Python would import as a standard module (or as one of `extra`, the module
 * `-m` runs) before the standard library: `NAME.py`, `NAME.pyc` (read without its source),
 * `NAME.so`/`NAME.*.so`/`.pyd` extension modules, and a package `NAME/` with any `__init__.*`. A
 * directory without one is a namespace package, which a regular module anywhere on the path
 * wins over, and which runs nothing itself.
 */
function pythonShadows(probe: FileProbe, dir: string, names: ReadonlySet<string>, extra: readonly string[]): RepoCode[] {
  // A directory that does not exist holds nothing (the command fails there). A file on the path
  // is a zip archive Python imports from: not looked into here.
  if (!probe.isDir(dir)) return probe.exists(dir) ? [{ kind: 'unknown', where: dir, what: 'a file on the Python path, imported from as a zip archive' }] : [];
  const listing = probe.list(dir);
  if (listing === null) return [{ kind: 'unknown', where: dir, what: 'cannot be listed to see whether a file there shadows a Python standard module' }];
  const shadowed = (name: string) => names.has(name) || extra.includes(name);
  const found: RepoCode[] = [];
  for (const e of listing) {
    const path = posix.join(dir, e);
    const module = moduleFileName(e);
    const what = (name: string) => `imported instead of the Python module \`${name}\``;
    if (module !== undefined && shadowed(module)) {
      if (probe.exists(path) && !probe.isDir(path)) found.push({ kind: 'file', where: path, what: what(module) });
    } else if (shadowed(e) && probe.isDir(path)) {
      const inside = probe.list(path);
      if (inside === null) found.push({ kind: 'unknown', where: path, what: `cannot be listed to see whether it is a package shadowing \`${e}\`` });
      else if (inside.some((f) => f.startsWith('__init__.'))) found.push({ kind: 'file', where: path, what: what(e) });
    }
  }
  return found;
}

/** `json.py`, `json.pyc` → json; `json.so`, `json.cpython-311-x86_64-linux-gnu.so` → json (the name before the first dot). */
function moduleFileName(entry: string): string | undefined {
  if (/\.py[cw]?$/.test(entry)) return entry.replace(/\.py[cw]?$/, '');
  if (/\.(so|pyd)$/.test(entry)) return entry.split('.')[0];
  return undefined;
}

function notPlainJson(probe: FileProbe, path: string): RepoCode[] {
  const st = probe.lstat(path);
  if (st !== undefined) return st.isFile() ? [] : [{ kind: 'file', where: path, what: 'not a plain file, so `require` may load JavaScript' }];
  // Missing: require tries these next, and runs what it finds.
  return [`${path}.js`, `${path}.json`, `${path}.node`, path + '/']
    .filter((f) => (f.endsWith('/') ? probe.isDir(f.slice(0, -1)) : probe.exists(f)))
    .map((f) => ({ kind: 'file', where: f, what: `loaded by \`require\` in place of the missing ${posix.basename(path)}` }));
}
