/**
 * Interpreter commands whose run is proven read-only (programs/hooks/interpreter.ts): the verdict,
 * the files read, and what keeps them at ask — options, operands `<>` would open with perl's
 * two-argument open, and files in the working directory that would run instead of the program.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { check, ops, rules } from '../../helpers/analyzer.js';

describe('proven one-liners are read-only, with the files they name', () => {
  it.each([
    ["python3 -c 'print(1+1)'", []],
    [`python3 -c "import json; print(json.load(open('package.json'))['version'])"`, ['Read ./package.json']],
    [`node -e 'console.log(require("./package.json").version)'`, ['Read ./package.json']],
    [`node -e "console.log(require('fs').readFileSync('tsconfig.json','utf8'))"`, ['Read ./tsconfig.json']],
    ["perl -ne 'print if /TODO/' src/*.pl", ['Read ./src/*.pl']],
    ["perl -lane '$t += $F[6]; print $t' data.txt", ['Read ./data.txt']],
    ["perl -MList::Util=sum -lane 'print sum(@F)'", []],
    ["perl -F: -lane 'print $F[0]' users.txt", ['Read ./users.txt']],
    ["perl -F'\\t' -lane 'print $F[1]' data.tsv", ['Read ./data.tsv']],
    ["perl -F'/[,;]\\s*/' -lane 'print $F[1]' data.csv", ['Read ./data.csv']],
    ["perl -F'\\|' -lane 'print $F[0]' a.txt", ['Read ./a.txt']],
    ['node --check src/index.js', ['Read ./src/index.js']],
    ['php -l src/a.php', ['Read ./src/a.php']],
    ['bash -n scripts/build.sh', ['Read ./scripts/build.sh']],
    ['python3 -m json.tool package.json', ['Read ./package.json']],
  ])('%s', async (command, expected) => {
    const v = await check(command);
    expect(v.level, JSON.stringify(v.findings)).toBe('allow');
    expect(ops(v)).toEqual(expected);
  });
});

describe('what keeps an interpreter at ask', () => {
  it.each([
    [`python3 -c "print(open('/etc/shadow').read())"`, 'sensitive-path'],
    [`python3 -c "import sys; print(open(sys.stdin.readline()).read())"`, 'dynamic-path'],
    [`python3 -c "print(open(input()).read())"`, 'exec'], // Python 2, which `python` may be, evaluates what input() reads
    [`python3 -c "import os; os.system('ls')"`, 'exec'],
    [`python3 -c "open('out.txt','w').write('x')"`, 'exec'],
    [`node -p 'process.env'`, 'env-dump'],
    [`python3 -c "import os; print(os.environ)"`, 'env-dump'],
    [`node -e "require('fs').writeFileSync('x','')"`, 'exec'],
    ["perl -pi -e 's/a/b/' f.txt", 'exec'], // -i edits in place
    ["perl -ne 'print' *.pl", 'exec'], // `*.pl` may match `|cmd.pl` or `>x.pl`, which <> would run or truncate
    ["perl -ne 'print' 'x|'", 'exec'],
    ["perl -I. -MList::Util -e 'print 1'", 'exec'], // -I: a workspace file could stand in for the module
    ["perl -MPOSIX -e 'print 1'", 'exec'],
    ["perl -F'/(?{system 1})/' -ane 'print'", 'exec'],
    // A -F pattern is code pasted into `split(…)`: only a plain regex over a whitelisted alphabet passes.
    ["perl -F'/x/,system(1),/' -ane 'print'", 'exec'],
    ["perl -F'/a/+/b/' -ane 'print'", 'exec'], // code between two regexes
    ["perl -F'\"@{[system 1]}\"' -ane 'print'", 'exec'], // a double-quoted pattern interpolates
    ["perl -F'\\N{U+41}' -ane 'print'", 'exec'],
    ["perl -F'/a\\/' -ane 'print'", 'exec'], // a trailing backslash escapes the closing slash
    ["perl -F'a b' -ane 'print'", 'exec'],
    ["perl -F'$x' -ane 'print'", 'exec'],
    ["python3 -i -c 'print(1)'", 'exec'], // then reads code from stdin
    ["node -r ./hook.js -e 'console.log(1)'", 'exec'],
    ['python3 -m json.tool in.json out.json', 'write'],
    ['python3 -m py_compile src/app.py', 'exec'],
    ['perl -c script.pl', 'exec'], // BEGIN blocks and `use` run
    ["php -d auto_prepend_file=x.php -r 'echo 1;'", 'exec'],
    [`php -r 'echo array_sum(explode(PHP_EOL, stream_get_contents(STDIN)));'`, 'exec'], // PHP has no prover (issue 27)
    ['ruby -c app.rb', 'exec'], // a `#!ruby -rlib` line in app.rb is read as switches: the library runs
    ["perl -e '$f = \"ARGV\"; print <$f>' 'id|'", 'exec'], // a symbolic ARGV handle opens the operands with the two-argument open
  ])('%s', async (command, rule) => {
    const v = await check(command);
    expect(v.level).not.toBe('allow');
    expect(rules(v)).toContain(rule);
  });
});

describe('files where the one-liner runs that would run instead', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-interp-'));
  const at = (sub: string) => ({ cwd: join(dir, sub), workspaceRoots: [dir], home: '/home/user', env: {} });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a module file shadowing an import (Python puts the working directory first)', async () => {
    for (const [sub, file] of [
      ['py', 'json.py'],
      ['pkg', 'json/__init__.py'],
      ['ext', 'json.cpython-312-x86_64-linux-gnu.so'],
    ]) {
      mkdirSync(join(dir, sub, file, '..'), { recursive: true });
      writeFileSync(join(dir, sub, file), '');
      const v = await check("python3 -c 'import json; print(1)'", at(sub));
      expect(rules(v), file).toContain('repo-code');
      expect((await check('python3 -m json.tool a.json', at(sub))).level, file).toBe('ask');
      // Any standard module's name, not only those the code imports (issue 27: they import more).
      expect((await check("python3 -c 'print(1)'", at(sub))).level, file).toBe('ask');
      expect((await check("python3 -I -c 'import json; print(1)'", at(sub))).level, file).toBe('allow');
    }
  });
  it('a required JSON file that is a directory, a link, or missing with a .js beside it', async () => {
    const cmd = `node -e 'console.log(require("./package.json").name)'`;
    mkdirSync(join(dir, 'plain'));
    writeFileSync(join(dir, 'plain', 'package.json'), '{}');
    expect((await check(cmd, at('plain'))).level).toBe('allow');
    mkdirSync(join(dir, 'dir', 'package.json'), { recursive: true });
    expect(rules(await check(cmd, at('dir')))).toContain('repo-code');
    mkdirSync(join(dir, 'link'));
    writeFileSync(join(dir, 'link', 'evil.js'), '');
    symlinkSync('evil.js', join(dir, 'link', 'package.json'));
    expect(rules(await check(cmd, at('link')))).toContain('repo-code');
    mkdirSync(join(dir, 'js'));
    writeFileSync(join(dir, 'js', 'package.json.js'), '');
    expect(rules(await check(cmd, at('js')))).toContain('repo-code');
  });
});

describe('python -m MODULE where the module is a program of its own', () => {
  it('judges `python3 -m pip …` as pip with the rest of the argv', async () => {
    // pip checks its cache directory in the home unless --no-cache-dir (src/programs/hooks/pip.ts)
    for (const c of [
      'python3 -m pip list --no-cache-dir --disable-pip-version-check',
      'python3 -m pip show --no-cache-dir requests',
      'python -I -m pip freeze --no-cache-dir',
    ])
      expect((await check(c)).level, c).toBe('allow');
    for (const c of [
      'python3 -m pip show requests',
      'python3 -m pip install requests',
      'python3 -m pip list --outdated',
      'python3 -X dev -m pip list',
      'python3 -m pipx list',
    ])
      expect((await check(c)).level, c).toBe('ask');
  });

  it('a pip.py in the working directory is what runs instead', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-pipmod-'));
    writeFileSync(join(dir, 'pip.py'), 'import os\n');
    const v = await check('python3 -m pip show x', { cwd: dir, workspaceRoots: [dir], home: '/home/user', env: {} });
    expect(rules(v)).toContain('repo-code');
  });
});
