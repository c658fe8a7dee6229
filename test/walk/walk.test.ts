import { describe, expect, it } from 'vitest';
import { argvs, check } from '../helpers/analyzer.js';

describe('unwrapping wrappers', () => {
  const cases: [string, string][] = [
    ['sudo -u root -E rm -rf /x', 'rm -rf /x'],
    ['doas -u root rm x', 'rm x'],
    ['env -i -u HOME FOO=1 rm x', 'rm x'],
    ['command rm x', 'rm x'],
    ['builtin echo hi', 'echo hi'],
    ['exec rm x', 'rm x'],
    ['nohup rm x', 'rm x'],
    ['nice -n 10 rm x', 'rm x'],
    ['ionice -c 3 rm x', 'rm x'],
    ['timeout -s KILL 9 rm x', 'rm x'],
    ['time -p rm x', 'rm x'],
    ['stdbuf -oL rm x', 'rm x'],
    ['setsid -f rm x', 'rm x'],
    ['watch -n 1 rm x', 'rm x'],
    ['busybox rm x', 'rm x'],
    ['chroot /mnt rm x', 'rm x'],
    ["su -c 'rm x' root", 'rm x'],
    ['flock /tmp/l rm x', 'rm x'],
    ["flock /tmp/l -c 'rm x'", 'rm x'],
    ["script -qc 'rm x' /dev/null", 'rm x'],
    ["bash -lc 'rm x'", 'rm x'],
    ["sh -ec 'rm x'", 'rm x'],
    ["bash --norc -c 'rm x'", 'rm x'],
    ["zsh -o pipefail -c 'rm x'", 'rm x'],
    ["eval 'rm x'", 'rm x'],
    ['eval rm x', 'rm x'],
    ["env -S 'rm x'", 'rm x'],
    ['parallel rm ::: a b', 'rm a'],
    ["ssh host 'rm x'", 'rm x'],
    ['/usr/bin/sudo /bin/rm x', 'rm x'],
  ];
  for (const [command, inner] of cases) {
    it(`${command} runs ${inner}`, async () => {
      expect(argvs(await check(command))).toContain(inner);
    });
  }
  it('links the inner command to its wrapper and keeps the chain', async () => {
    const v = await check("sudo timeout 5 bash -c 'rm x'");
    const rm = v.commands.find((c) => c.program === 'rm')!;
    expect(rm.context.via).toEqual(['wrapper:sudo', 'wrapper:timeout', 'shell-c:bash']);
    expect(rm.context.privileged).toBe(true);
    expect(rm.parent).not.toBeNull();
  });
  it('does not unwrap lookups: command -v rm', async () => {
    expect(argvs(await check('command -v rm'))).toEqual(['command -v rm']);
  });
  it('xargs appends what it reads: here the names find prints', async () => {
    expect(argvs(await check('find . -name x | xargs rm -f'))).toEqual(['find . -name x', 'xargs rm -f', 'rm -f ./**/x']);
  });
  it('find -exec runs its command on paths under the root', async () => {
    expect(argvs(await check('find /var/log -name "*.gz" -exec rm {} +'))).toContain('rm /var/log/**/*.gz');
  });
  it('marks ssh commands as remote', async () => {
    const v = await check("ssh -p 22 user@box 'ls /'");
    expect(v.commands.find((c) => c.program === 'ls')?.context.remote).toBe('box');
  });
  it('caps nested scripts and asks past the cap', async () => {
    let cmd = 'ls';
    for (let i = 0; i < 12; i++) cmd = `bash -c ${JSON.stringify(cmd)}`;
    const v = await check(cmd);
    expect(v.level).toBe('ask');
    expect(v.findings.some((f) => f.rule === 'depth-limit')).toBe(true);
  });
});

describe('constructs and context', () => {
  it('walks substitutions before the command that uses them', async () => {
    expect(argvs(await check('echo $(date) `id` <(ls) >(wc -l)'))).toEqual(['date', 'id', 'ls', 'wc -l', 'echo $(…) `…` <(…) >(…)']);
  });
  it('runs unquoted heredoc substitutions, not quoted ones', async () => {
    expect(argvs(await check('cat <<EOF\n$(whoami)\nEOF'))).toEqual(['whoami', 'cat']);
    expect(argvs(await check("cat <<'EOF'\n$(whoami)\nEOF"))).toEqual(['cat']);
  });
  it('analyses what a shell reads from a static heredoc or here-string', async () => {
    expect(argvs(await check('bash <<< "rm -rf x"'))).toEqual(['bash', 'rm -rf x']);
    expect(argvs(await check('sh <<EOF\nrm y\nEOF'))).toEqual(['sh', 'rm y']);
  });
  it('finds substitutions in arithmetic, subscripts and tests', async () => {
    expect(argvs(await check('echo $(( $(id -u) + 1 ))'))).toContain('id -u');
    expect(argvs(await check('a[$(whoami)]=1'))).toContain('whoami');
    expect(argvs(await check('[[ -f $(pwd) ]]'))).toContain('pwd');
  });
  it('analyses function bodies where defined and again at each call', async () => {
    const v = await check('f() { rm -rf x; }; f');
    expect(argvs(v)).toEqual(['rm -rf x', 'f', 'rm -rf x']);
    expect(v.commands[1].calls).toEqual({ kind: 'function', name: 'f' });
    expect(v.commands[0].context.functionName).toBe('f');
    expect(v.commands[2].parent).toBe(1);
    expect(v.commands[2].context.via).toContain('function:f');
  });
  it('walks an alias value where defined and, with the words after it, at each use; the name is a program too', async () => {
    const v = await check("alias ll='ls -la; rm x'; ll");
    expect(argvs(v)).toEqual(['alias ll=ls -la; rm x', 'ls -la', 'rm x', 'll', 'ls -la', 'rm x']);
    expect(v.commands[3].calls).toBeNull();
    expect(v.commands[4].context.via).toContain('alias:ll');
  });
  it('records pipeline neighbours, background and loops', async () => {
    const v = await check('while read l; do echo $l; done < f | sort & ');
    const sort = v.commands.find((c) => c.program === 'sort')!;
    expect(sort.context.pipeline).toMatchObject({ index: 1, length: 2 });
    expect(sort.context.background).toBe(true);
    expect(v.commands.find((c) => c.program === 'echo')!.context.loop).toBe(true);
  });
  it('uses assignments made earlier on the line', async () => {
    expect(argvs(await check('D=/tmp/x; rm -r $D'))).toEqual(['', 'rm -r /tmp/x']);
    // Conditional assignments are not certain.
    const v = await check('true && D=/tmp/x; rm -r $D');
    expect(v.commands[2].args[1].dynamic).toBe(true);
  });
  it('tracks cd, pushd and popd', async () => {
    const v = await check('cd sub && cat a; pushd /etc; cat b; popd; cat c');
    const cwd = v.commands.filter((c) => c.program === 'cat').map((c) => c.cwd);
    // popd back to sub may fail (sub is not on disk here): cat c is walked in /etc too
    expect(cwd).toEqual(['/ws/project/sub', '/etc', '/etc', '/ws/project/sub']);
    expect((await check('cd $X; cat a')).commands[1].cwd).toBeNull();
  });
  it('normalises program names and keeps what was written', async () => {
    const v = await check(`\\rm a; "rm" b; r''m c; /bin/rm d; $'\\x72\\x6d' e`);
    expect(v.commands.map((c) => c.program)).toEqual(['rm', 'rm', 'rm', 'rm', 'rm']);
    expect(v.commands[0].programRaw).toBe('\\rm');
  });
});
