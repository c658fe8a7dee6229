/**
 * What a proven interpreter one-liner (programs/hooks/interpreter.ts) loads from the directory it
 * runs in, which would run code instead of the proven program:
 * - Python puts the working directory first on `sys.path` for `-c` and `-m`: a `json.py`,
 *   `json/__init__.py`, `json.pyc` or `json.*.so` there is imported instead of the standard `json`.
 * - Node's `require('./x.json')` parses a plain file; when `x.json` is missing it loads
 *   `x.json.js` or the directory `x.json/` (its `index.js`), and a symbolic link to a `.js` file is
 *   loaded as JavaScript. So the file must be a plain file, not a link.
 */
import { posix } from 'node:path';
import { interpreterFamily } from '../../programs/interpreters.js';
import { provenRun, type ProvenRun } from '../../programs/hooks/interpreter.js';
import { StampedCache, type FileProbe } from './file-probe.js';
import type { ProjectContext, RepoCode } from './types.js';

const cache = new StampedCache<RepoCode[]>();

export function interpreterRepoCode(ctx: ProjectContext): RepoCode[] {
  const program = ctx.cmd.program;
  if (program === null) return [];
  const run = provenRun(program, ctx.cmd.args, ctx.parsed);
  if (run === null || run.kind === 'check') return [];
  const family = interpreterFamily(program);
  if (family === 'python') {
    const modules = importedModules(run);
    return modules.flatMap((m) => cache.get(JSON.stringify(['py', ctx.cwd, m]), (probe) => pythonShadows(probe, ctx.cwd, m)));
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

/** Files in `dir` Python would import as `module` before the standard library. */
function pythonShadows(probe: FileProbe, dir: string, module: string): RepoCode[] {
  const what = `imported instead of the Python module \`${module}\` the code imports`;
  const found: RepoCode[] = [];
  for (const f of [`${module}.py`, `${module}.pyc`, `${module}/__init__.py`, `${module}/__init__.pyc`]) {
    const path = posix.join(dir, f);
    if (probe.exists(path)) found.push({ kind: 'file', where: path, what });
  }
  // A directory that does not exist holds nothing (the command fails there).
  const listing = probe.isDir(dir) ? probe.list(dir) : [];
  if (listing === null) return [{ kind: 'unknown', where: dir, what: `cannot be listed to see whether a file there shadows \`${module}\`` }];
  for (const e of listing) if (e.startsWith(`${module}.`) && /\.(so|pyd)$/.test(e)) found.push({ kind: 'file', where: posix.join(dir, e), what });
  return found;
}

function notPlainJson(probe: FileProbe, path: string): RepoCode[] {
  const st = probe.lstat(path);
  if (st !== undefined) return st.isFile() ? [] : [{ kind: 'file', where: path, what: 'not a plain file, so `require` may load JavaScript' }];
  // Missing: require tries these next, and runs what it finds.
  return [`${path}.js`, `${path}.json`, `${path}.node`, path + '/']
    .filter((f) => (f.endsWith('/') ? probe.isDir(f.slice(0, -1)) : probe.exists(f)))
    .map((f) => ({ kind: 'file', where: f, what: `loaded by \`require\` in place of the missing ${posix.basename(path)}` }));
}
