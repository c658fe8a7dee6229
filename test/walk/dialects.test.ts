/**
 * Issue 28: the shell that runs the command. `shell` (context field, analyser option, settings key,
 * `--shell`) says which: bash, zsh, sh (dash) or auto (every reading). Where that shell may read the
 * line otherwise than bash, the verdict asks with `dialect-difference`, naming the shell; nested
 * `sh -c`, `zsh -c` and `bash -c` bodies are read by their own shell. Real zsh and dash judge the
 * readings in test/oracle/.
 */
import { describe, expect, it } from 'vitest';
import { createAnalyzer, createGate, type Verdict } from '../../src/index.js';
import { check, CONTEXT } from '../helpers/analyzer.js';
import { loadSource } from '../../src/policy/settings.js';

const inShell = (shell: 'bash' | 'zsh' | 'sh' | 'auto') => ({ ...CONTEXT, shell });
const dialect = (v: Verdict) => v.findings.filter((f) => f.rule === 'dialect-difference').map((f) => f.message);
const inZsh = async (command: string) => (await check(command, inShell('zsh'))).level;

describe('the shell that runs the line', () => {
  it('reads a line as zsh where zsh runs it, and only then', async () => {
    for (const command of [
      'ls *(e:true:)',
      'echo $~x',
      'echo hi > a > b',
      'echo x > /dev/null | cat',
      '< README.md',
      'path=(/opt/bin $path)',
      'precmd() { ls; }',
      'repeat 3 ls',
      'cd src lib',
      'alias -g L=less',
      'ls ~named',
      'echo $a[1]',
      'typeset -T FOO foo',
    ]) {
      expect(dialect(await check(command, inShell('zsh'))), command).toEqual([expect.stringMatching(/^zsh reads /)]);
      expect(dialect(await check(command, inShell('bash'))), command).toEqual([]);
      expect(dialect(await check(command, inShell('auto'))), command).not.toEqual([]);
    }
  });

  it('reads a line as dash where sh runs it', async () => {
    const v = await check('echo &>/dev/null ls', inShell('sh'));
    expect(dialect(v)).toEqual([expect.stringMatching(/^dash \(`sh` on Debian and Ubuntu\) reads `&>`/)]);
    expect(dialect(await check('echo &>/dev/null ls', inShell('bash')))).toEqual([]);
    expect(dialect(await check('echo &>/dev/null ls', inShell('zsh')))).toEqual([]);
  });

  it('keeps read-only work allowed in every shell', async () => {
    for (const command of [
      'ls -la',
      'git status',
      'cat README.md | head -n 5',
      'grep -rn TODO src 2>/dev/null | head',
      'ls **/*.ts',
      'find . -name "*.ts" | xargs grep -l foo',
      'ls > /dev/null 2>&1',
      '[ -f x ] && cat x',
      // brace expansion is zsh's as bash's; dash reads the word as it is written
      'echo {a,b}.txt',
      // bash reads `$PWD` then `:t`; zsh the last part of $PWD; both only print
      'echo $PWD:t',
    ])
      for (const shell of ['bash', 'zsh', 'sh', 'auto'] as const) expect((await check(command, inShell(shell))).level, `${shell}: ${command}`).toBe('allow');
  });

  it('reads zsh word forms bash cannot parse as what zsh does with them', async () => {
    // qualifiers that only choose or order names: the bare pattern lists at least as much
    for (const command of ['ls -d *(/)', 'ls -l *(.om[1,5])', 'print -l *.md', 'print -rl -- *', 'noglob ls *', 'echo ${(L)PWD} ${(j:,:)@} "${PWD:h}"'])
      expect(await inZsh(command), command).toBe('allow');
    // code zsh runs is walked with the normal rules, and reaches deny
    for (const command of [
      'for d (~) rm -rf $d',
      'ls; for d (/ ~) rm -rf $d; echo end',
      "ls *(e:'rm -rf ~':)",
      "x='$(rm -rf ~)'; echo ${(e)x}",
      'zshexit() { rm -rf ~; }',
      'f() { rm -rf ~; }; ls *(+f)',
    ])
      expect(await inZsh(command), command).toBe('deny');
    // a value a modifier or flag makes is not known: it asks where it is a path (and `${(P)x}`,
    // read as bash's `${!x}`, must stay unknown: zsh counts `a[1]` from 1, bash from 0)
    for (const command of [
      'cat ${PWD:h}/x',
      'x=a; cat ${x:h}/../b',
      'cat $HOME:h:h/etc/passwd',
      'echo ${(e)x}',
      'cat ${(P)x}',
      'a=(/etc/shadow ./f); x="a[1]"; cat ${(P)x}',
    ])
      expect(await inZsh(command), command).toBe('ask');
    // zsh takes print's options from the words after expansion: a match like `-v` could be one
    expect(await inZsh('print -l *')).toBe('ask');
    // `command print` runs a program called print (mailcap's), not the builtin
    expect(await inZsh('command print -l x')).toBe('ask');
    // inside quotes and comments a zsh form is text: left as written
    expect(await inZsh("echo '*(e:x:)' # $PWD:h")).toBe('allow');
  });

  it('reads each nested body by the shell that runs it, whatever runs the line', async () => {
    expect(dialect(await check("zsh -c 'ls *(e:true:)'", inShell('bash')))).toEqual([expect.stringMatching(/^zsh reads/)]);
    expect(dialect(await check("sh -c 'echo &>/dev/null ls'", inShell('zsh')))).toEqual([expect.stringMatching(/^dash/)]);
    // bash -c is bash's reading, also under zsh (its body is not zsh's)
    expect(dialect(await check("bash -c 'echo $PWD:h'", inShell('zsh')))).toEqual([]);
    expect(dialect(await check("echo 'echo $~x' | zsh", inShell('bash')))).toEqual([expect.stringMatching(/^zsh reads/)]);
    // `sh` is dash on Debian, bash on macOS: both readings, so brace expansion counts there
    expect((await check("echo 'cat {x,.env}' | sh", inShell('bash'))).level).toBe('ask');
    expect((await check("echo 'cat {x,.env}' | dash", inShell('bash'))).level).toBe('allow');
  });

  it('takes the shell from the context, else the option, and caches each apart', async () => {
    const a = await createAnalyzer({ shell: 'zsh' });
    expect(dialect(a.analyze('echo $~x', CONTEXT))).not.toEqual([]);
    expect(dialect(a.analyze('echo $~x', { ...CONTEXT, shell: 'bash' }))).toEqual([]);
    const b = await createAnalyzer();
    expect(b.analyze('echo $~PWD', CONTEXT).level).toBe('allow');
    expect(b.analyze('echo $~PWD', inShell('zsh')).level).toBe('ask');
    expect(b.analyze('echo $~PWD', CONTEXT).level).toBe('allow');
  });

  it('refuses an unknown shell with a message naming the choices', async () => {
    const a = await createAnalyzer();
    expect(() => a.analyze('ls', { ...CONTEXT, shell: 'fish' as 'bash' })).toThrow(/context "shell" must be "bash", "zsh", "sh", "auto"/);
    await expect(createAnalyzer({ shell: 'csh' as 'bash' })).rejects.toThrow(/option "shell" must be/);
  });
});

describe('the settings key `shell`', () => {
  it("is the user's to name; a repository's file may only make it auto", async () => {
    const user = await createGate({ settings: [{ source: 'user', settings: { shell: 'zsh' } }] });
    expect(user.evaluate({ tool: 'shell', args: { command: 'echo ${(e)x}' } }, CONTEXT).level).toBe('ask');
    const repo = await createGate({
      settings: [
        { source: 'user', settings: { shell: 'zsh' } },
        { source: 'project', settings: { shell: 'bash' } },
      ],
    });
    expect(repo.policy.warnings.join('\n')).toMatch(/\/shell skipped/);
    expect(repo.evaluate({ tool: 'shell', args: { command: 'echo ${(e)x}' } }, CONTEXT).level).toBe('ask');
    const narrowed = loadSource({ source: 'project', settings: { shell: 'auto' } }, CONTEXT.cwd!, CONTEXT.home!);
    expect(narrowed.analyzer.shell).toBe('auto');
    expect(narrowed.warnings).toEqual([]);
    await expect(createGate({ settings: [{ source: 'user', settings: { shell: 'fish' } }] })).rejects.toThrow(/shell/);
  });
});
