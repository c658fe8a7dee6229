/**
 * Issue 27 classes 8, 9 and 19: shell options and variables bash reads itself pass only from a
 * whitelist; arithmetic that assigns, and integer variables, are followed; a body run by `sh` is
 * also read as dash. Command-level cases are in corpus/bypasses.jsonl too.
 */
import { describe, expect, it } from 'vitest';
import { unknownSetOptions, unknownShoptOptions } from '../../src/walk/shell-options.js';
import { isUnfollowedShellVariable } from '../../src/walk/shell-variables.js';
import { arithmeticAssignedNames } from '../../src/walk/expansion-risks.js';
import { check } from '../helpers/analyzer.js';
import type { Arg } from '../../src/index.js';

const args = (...v: string[]): Arg[] => v.map((value) => ({ value, dynamic: false, glob: false, span: { start: 0, end: 0 } }));
const rules = async (command: string) => (await check(command)).findings.map((f) => f.rule);

describe('set and shopt options, by whitelist', () => {
  it('lets inert options and defaults pass', () => {
    expect(unknownSetOptions(args('-euo', 'pipefail'))).toEqual([]);
    expect(unknownSetOptions(args('-eEuxT', '+o', 'xtrace', '-B', '-o', 'hashall'))).toEqual([]);
    expect(unknownSetOptions(args('--', '-k', 'x'))).toEqual([]); // positional parameters
    expect(unknownShoptOptions(args('-s', 'globstar', 'nullglob', 'extglob'))).toEqual([]);
    expect(unknownShoptOptions(args('-s', 'sourcepath'))).toEqual([]);
    expect(unknownShoptOptions(args('lastpipe'))).toEqual([]); // only reports
  });
  it('names every other option, whichever way it is spelled', () => {
    expect(unknownSetOptions(args('-o', 'posix'))).toEqual(['set -o posix']);
    expect(unknownSetOptions(args('-ek'))).toEqual(['set -k']);
    expect(unknownSetOptions(args('+B'))).toEqual(['set +B']);
    expect(unknownSetOptions(args('-P', '-o', 'history'))).toEqual(['set -P', 'set -o history']);
    expect(unknownShoptOptions(args('-s', 'lastpipe', 'cdable_vars'))).toEqual(['shopt -s lastpipe', 'shopt -s cdable_vars']);
    expect(unknownShoptOptions(args('-u', 'globskipdots'))).toEqual(['shopt -u globskipdots']);
    expect(unknownShoptOptions(args('-so', 'posix'))).toEqual(['shopt -so posix']);
    expect(unknownSetOptions([{ value: '', dynamic: true, glob: false, span: { start: 0, end: 0 }, raw: '$opts' }])).toEqual(['set $opts']);
  });
  it('asks after an option it does not follow, and keeps common script headers allowed', async () => {
    expect(await rules('d=.; shopt -s lastpipe; echo /etc | read d; cd $d; cat passwd')).toContain('shell-option');
    expect(await rules('set -o posix; ls')).toContain('shell-option');
    expect(await rules('shopt -s cdable_vars; x=/etc; cd x; cat passwd')).toContain('shell-option');
    expect((await check('set -euo pipefail; ls')).level).toBe('allow');
    expect((await check('shopt -s globstar; ls **/*.ts')).level).toBe('allow');
  });
});

describe('variables bash reads itself', () => {
  it('only the inert ones pass', () => {
    for (const n of ['BASH_ALIASES', 'BASH_CMDS[ls]', 'OLDPWD', 'PWD', 'POSIXLY_CORRECT', 'GLOBIGNORE', 'EXECIGNORE', 'DIRSTACK', 'IFS'])
      expect(isUnfollowedShellVariable(n)).toBe(true);
    for (const n of ['OPTIND', 'REPLY', 'LC_ALL', 'HISTSIZE', 'PS4', 'my_var', 'f']) expect(isUnfollowedShellVariable(n)).toBe(false);
  });
  it('asks when one is assigned, however it is assigned', async () => {
    expect(await rules('BASH_ALIASES[ls]="rm -rf ~"; ls')).toContain('special-variable');
    expect(await rules('cd src; OLDPWD=/etc; cd -; cat passwd')).toContain('special-variable');
    expect(await rules('declare -g BASH_CMDS[ls]=/bin/rm; ls')).toContain('special-variable');
    expect(await rules('read -r GLOBIGNORE < f; ls *')).toContain('special-variable');
    expect(await rules('for IFS in 0; do :; done; x=src0/etc/shadow; cat $x')).toContain('special-variable');
    expect(await rules('unset IFS; : ${IFS:=0}; x=src0/etc/shadow; cat $x')).toContain('special-variable');
    expect(await rules('((IFS=0)); x=src0/etc/shadow; cat $x')).toContain('special-variable');
  });
  it('an assignment before a special builtin may stay set (posix mode, dash)', async () => {
    expect((await check('IFS=0 :; x=src0/etc/shadow; cat $x')).level).toBe('ask');
    expect((await check('x=a :; cat "$x"')).findings.map((f) => f.rule)).toContain('dynamic-path');
  });
  it('an IFS that is not known to be the default splits a known value anywhere', async () => {
    expect((await check('read -r IFS < f; x=src0/etc/shadow; cat $x')).level).toBe('ask');
    expect((await check('x=src/a; cat $x')).level).toBe('allow');
  });
});

describe('arithmetic and integer variables', () => {
  it('finds the names an expression assigns', () => {
    expect(arithmeticAssignedNames('IFS=0')).toEqual(['IFS']);
    expect(arithmeticAssignedNames('i++, --j, k += 2, a[1] = 3, x == y, x <= y, x != 1').sort()).toEqual(['a', 'i', 'j', 'k']);
  });
  it('forgets what an expression assigned', async () => {
    expect((await check('x=1; : $((x=5)); cat $x')).findings.map((f) => f.rule)).toContain('dynamic-path');
    expect((await check('x=$((1+2)); echo $x')).level).toBe('allow');
    expect((await check('for ((i=0;i<3;i++)); do echo $i; done')).level).toBe('allow');
  });
  it('a value given to an integer variable is arithmetic', async () => {
    expect(await rules('declare -i x; read x < f')).toContain('arithmetic-injection');
    expect(await rules('declare -i x; x=$y')).toContain('arithmetic-injection');
    expect(await rules('declare -i x=$y')).toContain('arithmetic-injection');
    expect(await rules('true && declare -i x; x=y')).toContain('arithmetic-injection');
    expect((await check('declare -i n=0; n=5; echo $n')).level).toBe('allow');
  });
  it('a case-changing variable does not hold what was written', async () => {
    expect(await rules('declare -l x; x=RM; $x -rf ~')).toContain('dynamic-command');
    expect(await rules('declare -u x; x=ls; $x')).toContain('dynamic-command');
  });
});

describe('traps', () => {
  it("a DEBUG, RETURN, ERR or signal trap's changes may have happened before any later command", async () => {
    expect(await rules("trap 'cd /etc' DEBUG; cat passwd")).toContain('trap-state');
    expect(await rules("trap 'cd /etc' DEBUG; cd /ws/project; cat passwd")).toContain('trap-state');
    expect(await rules("trap 'x=/etc/passwd' USR1; x=a; cat $x")).toContain('trap-state');
    expect((await check("trap 'echo done' ERR; ls")).level).toBe('allow');
    expect((await check("trap 'cd /etc' EXIT; cat passwd")).level).toBe('allow');
  });
});

describe('sh is dash', () => {
  it('asks where dash reads a body run by sh otherwise', async () => {
    expect(await rules("sh -c '((rm = 1))'")).toContain('dialect-difference');
    expect(await rules("echo '((rm = 1))' | sh")).toContain('dialect-difference');
    expect(await rules("bash -c '((x = 1))'")).not.toContain('dialect-difference');
    expect(await rules('sh -c \'bash -c "((x = 1))"\'')).not.toContain('dialect-difference');
    expect((await check("sh -c 'ls -la'")).level).toBe('allow');
  });
  it('asks for every construct dash reads otherwise, wherever sh reads the text', async () => {
    const bodies = [
      'echo &>/dev/null ls',
      'ls &>>log',
      "echo $'a'",
      'echo $"a"',
      'echo $[1+1]',
      '[[ a > b ]]',
      'function f { ls; }',
      'coproc ls',
      'for ((i = 0; i < 1; i++)); do ls; done',
      'exec {fd}>/dev/null',
      'echo "$(echo &>/dev/null ls)"',
    ];
    for (const b of bodies) {
      expect(await rules(`sh -c '${b.replace(/'/g, "'\\''")}'`), b).toContain('dialect-difference');
      expect(await rules(`bash -c '${b.replace(/'/g, "'\\''")}'`), b).not.toContain('dialect-difference');
    }
    // dash reads `{a,b}` as text: walked quoted, as the word it is there (bash's reading, for
    // sh on macOS, walks the expansion)
    expect(await rules("sh -c 'echo {a,b}'")).not.toContain('dialect-difference');
    // every way a text reaches sh
    expect(await rules("echo 'ls &>/dev/null' | sh")).toContain('dialect-difference');
    expect(await rules("echo 'ls &>/dev/null' > s.sh; sh s.sh")).toContain('dialect-difference');
    expect(await rules("find . -exec sh -c 'ls &>/dev/null' \\;")).toContain('dialect-difference');
    expect(await rules('sh -c \'eval "ls &>/dev/null"\'')).toContain('dialect-difference');
    expect(await rules("dash -c 'ls &>/dev/null'")).toContain('dialect-difference');
    // the finding names the construct as written
    const v = await check('sh -c "echo \\$\'a\'"');
    expect(v.findings.find((f) => f.rule === 'dialect-difference')?.message).toContain("`$'…'`");
  });
  it('judges portable code run by sh from its bash reading', async () => {
    for (const b of [
      'ls -la >/dev/null 2>&1',
      'ls >&2',
      'cat README | grep -c x',
      'f() { ls; }; f',
      'case x in x) ls;; esac',
      '[ -f x ] && cat x',
      'x=a; echo "${x:-b}" $((1 + 2))',
    ]) {
      expect((await check(`sh -c '${b}'`)).level, b).toBe('allow');
    }
  });
  it("follows no echo text with a backslash into a shell (dash's echo decodes it)", async () => {
    expect((await check("echo 'cat \\0176/x' | sh")).level).toBe('ask');
    expect((await check("echo 'ls' | sh")).level).toBe('allow');
  });
});

describe('conditional assignments', () => {
  it('a command run as the variable is walked with each value it may hold', async () => {
    expect((await check('c=ls; true && c=rm; $c -rf ~')).level).toBe('deny');
    expect((await check('true && c=rm; $c -rf ~')).level).toBe('deny');
    expect((await check('c=ls; if [ -f x ]; then c=rm; fi; $c -rf ~')).level).toBe('deny');
    expect((await check('c=ls; f() { c=rm; }; f; $c -rf ~')).level).toBe('deny');
    expect(await rules('c=ls; [[ -f x ]] || c=cat; $c src')).toContain('dynamic-command');
  });
});
