/**
 * A proven Python run (`python3 -c`, `-m json.tool`) imports the standard library from the
 * directories before it on `sys.path`: the working directory (unless -I/-P) and `$PYTHONPATH`.
 * A workspace file of ANY standard module's name there runs in its place — not only the modules
 * the code names (`statistics` imports `numbers`, `json.tool` imports `argparse`). Each fixture is
 * a temporary workspace; where python3 is installed, the claims about what Python does are
 * checked against it too.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer, type Analyzer } from '../../../src/index.js';

let analyzer: Analyzer;
beforeAll(async () => {
  analyzer = await createAnalyzer({ cacheSize: 0 });
});

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A workspace holding `tree` (a path ending in `/` is an empty directory). */
function workspace(tree: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'sg-pyshadow-'));
  made.push(root);
  writeFileSync(join(root, 'package.json'), '{"name": "demo"}');
  for (const [path, text] of Object.entries(tree)) {
    if (path.endsWith('/')) mkdirSync(join(root, path), { recursive: true });
    else {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  }
  return root;
}

function run(command: string, cwd: string, env: Record<string, string> = {}) {
  const v = analyzer.analyze(command, { cwd, workspaceRoots: [cwd], home: '/home/user', env });
  return {
    level: v.level,
    code: v.findings
      .filter((f) => f.rule === 'repo-code')
      .map((f) => f.message)
      .join('\n'),
  };
}

const MARK = 'print("SHADOW-RAN")\n';
const READ_NAME = `python3 -c 'import json,sys; print(json.load(open("package.json"))["name"])'`;

/** The real python3 executable (not a version manager's shim, which is slow to start), or null. */
const python3 = (() => {
  try {
    return execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();

/** What real python3 prints, run in `cwd` with these arguments (stdin empty). */
function realPython(cwd: string, args: string[], env: Record<string, string> = {}): string {
  try {
    return execFileSync(python3 ?? 'python3', args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
      input: '{}',
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? '');
  }
}

describe('python: workspace files that shadow a standard module', () => {
  it('allows read-only code in a clean workspace', () => {
    const ws = workspace({ 'src/app.py': '', 'tests/__init__.py': '', 'test/__init__.py': '', 'README.md': '' });
    expect(run(READ_NAME, ws).level).toBe('allow');
    expect(run('python3 -m json.tool package.json', ws).level).toBe('allow');
  });

  it('asks when a module imported only transitively is shadowed', () => {
    const cases: [string, Record<string, string>, string][] = [
      ['python3 -m json.tool package.json', { 'argparse.py': MARK }, 'argparse.py'], // json.tool imports argparse
      ["python3 -c 'import statistics; print(statistics.mean([1, 2]))'", { 'numbers.py': MARK }, 'numbers.py'], // statistics → fractions → numbers
      ["python3 -c 'import pprint; pprint.pprint([1])'", { 'copy.py': MARK }, 'copy.py'],
      [READ_NAME, { 'stringprep.py': MARK }, 'stringprep.py'], // any standard name, imported or not
    ];
    for (const [command, tree, file] of cases) {
      const ws = workspace(tree);
      const r = run(command, ws);
      expect(r.level, command).toBe('ask');
      expect(r.code, command).toContain(file);
    }
  });

  it('knows every form Python imports: source, a bare .pyc, an extension module, a package', () => {
    for (const tree of [
      { 'json.py': MARK },
      { 'json.pyc': '' },
      { 'json.cpython-311-x86_64-linux-gnu.so': '' },
      { '_json.abi3.so': '' },
      { 'json/__init__.py': MARK },
      { 'json/__init__.pyc': '' },
    ]) {
      const r = run(READ_NAME, workspace(tree));
      expect(r.level, Object.keys(tree)[0]).toBe('ask');
    }
    // A directory without __init__ is a namespace package: the standard module wins over it.
    expect(run(READ_NAME, workspace({ 'json/': '', 'copy/x.py': MARK })).level).toBe('allow');
  });

  it('keeps the working directory off the path with -I and -P, not with -E', () => {
    const ws = workspace({ 'json.py': MARK });
    expect(run(READ_NAME.replace('python3 -c', 'python3 -I -c'), ws).level).toBe('allow');
    expect(run(READ_NAME.replace('python3 -c', 'python3 -P -c'), ws).level).toBe('allow');
    expect(run(READ_NAME.replace('python3 -c', 'python3 -Ic'), ws).level).toBe('allow');
    expect(run(READ_NAME.replace('python3 -c', 'python3 -E -c'), ws).level).toBe('ask');
  });

  it('searches $PYTHONPATH (relative entries and empty ones from the working directory) unless -E/-I', () => {
    const ws = workspace({ 'lib/json.py': MARK, 'lib/sitecustomize.py': MARK });
    expect(run(READ_NAME, ws, { PYTHONPATH: 'lib' }).code).toContain(join(ws, 'lib/json.py'));
    expect(run(READ_NAME, ws, { PYTHONPATH: 'lib' }).code).toContain('sitecustomize.py');
    expect(run(READ_NAME.replace('python3 -c', 'python3 -E -c'), ws, { PYTHONPATH: 'lib' }).level).toBe('allow');
    expect(run(READ_NAME, workspace({ 'lib.zip': 'PK' }), { PYTHONPATH: 'lib.zip' }).code).toContain('zip archive');
    const top = workspace({ 'json.py': MARK });
    expect(run(READ_NAME.replace('python3 -c', 'python3 -P -c'), top, { PYTHONPATH: '/usr/lib/nothing:' }).level).toBe('ask');
  });

  it('asks when the environment moves the standard library or imports a warning category', () => {
    const ws = workspace({});
    for (const env of [{ PYTHONHOME: '/opt/py' }, { PYTHONUSERBASE: '.' }, { PYTHONINSPECT: '1' }, { PYTHONWARNINGS: 'ignore::unittest.__main__.X' }])
      expect(run(READ_NAME, ws, env).level, JSON.stringify(env)).toBe('ask');
    expect(run(READ_NAME, ws, { PYTHONWARNINGS: 'ignore,default' }).level).toBe('allow');
    expect(run(READ_NAME, ws, { PYTHONHOME: '/opt/py' }).level).toBe('ask');
    expect(run(READ_NAME.replace('python3 -c', 'python3 -I -c'), ws, { PYTHONHOME: '/opt/py' }).level).toBe('allow');
  });

  it('takes only the PYTHON* variables on its whitelist, with their values, as harmless (issue 27)', () => {
    const ws = workspace({});
    // Names no list of dangerous ones held, and one a future Python may add.
    for (const env of [
      { PYTHONBREAKPOINT: 'os.system' },
      { PYTHONEXECUTABLE: '/tmp/py' },
      { PYTHONFUTUREHOOK: 'x' },
      { PYTHONIOENCODING: 'evil_codec' },
      { PYTHONHASHSEED: '$(id)' },
    ])
      expect(run(READ_NAME, ws, env).level, JSON.stringify(env)).toBe('ask');
    for (const env of [{ PYTHONUNBUFFERED: '1' }, { PYTHONIOENCODING: 'utf-8:replace' }, { PYTHONHASHSEED: '0' }, { PYTHONDONTWRITEBYTECODE: 'x' }])
      expect(run(READ_NAME, ws, env).level, JSON.stringify(env)).toBe('allow');
  });

  it('adds the names of Python 2 for an interpreter that may be Python 2', () => {
    const ws = workspace({ 'user.py': MARK });
    expect(run(READ_NAME, ws).level).toBe('allow');
    expect(run(READ_NAME.replace('python3', 'python'), ws).level).toBe('ask');
    expect(run(READ_NAME.replace('python3', 'python2.7'), ws).level).toBe('ask');
  });

  it.skipIf(!python3)('agrees with the real python3 about what runs', () => {
    const ran = (tree: Record<string, string>, args: string[], env: Record<string, string> = {}) =>
      realPython(workspace(tree), args, env).includes('SHADOW-RAN');
    expect(ran({ 'argparse.py': MARK }, ['-m', 'json.tool'])).toBe(true);
    expect(ran({ 'numbers.py': MARK }, ['-c', 'import statistics'])).toBe(true);
    expect(ran({ 'json.py': MARK }, ['-I', '-c', 'import json'])).toBe(false);
    expect(ran({ 'json.py': MARK }, ['-P', '-c', 'import json'])).toBe(false);
    expect(ran({ 'copy/x.py': MARK, 'copy/': '' }, ['-c', 'import copy, copy.x'])).toBe(false);
    // site runs before the working directory is put on the path; from $PYTHONPATH it does run.
    expect(ran({ 'sitecustomize.py': MARK, 'x.pth': 'import sys; print("SHADOW-RAN")\n' }, ['-c', 'pass'])).toBe(false);
    expect(ran({ 'lib/sitecustomize.py': MARK }, ['-c', 'pass'], { PYTHONPATH: 'lib' })).toBe(true);
    // A -W category is imported by its module's name.
    expect(ran({ 'm/__init__.py': '', 'm/cat.py': MARK + 'X = Warning\n' }, ['-W', 'ignore::m.cat.X', '-c', 'pass'], { PYTHONPATH: '.' })).toBe(true);
  });
});
if (!python3) console.log('python-shadow.test.ts: python3 not found, the checks against the real interpreter are skipped');
