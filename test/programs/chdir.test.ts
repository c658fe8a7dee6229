/**
 * Issue 27, class 7: options of role `chdir` (`env -C`, `sudo -D`, `make -C`, `git -C`,
 * `npm --prefix`, `tar -C`) move the program's paths and the command a wrapper runs. A directory
 * only known at run time, or a `..` after a name (chdir follows links), is not known.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chdirTarget } from '../../src/programs/chdir.js';
import { check, ops } from '../helpers/analyzer.js';

const word = (value: string, dynamic = false) => ({ value, dynamic });

describe('chdirTarget', () => {
  it('resolves a directory in the one before it', () => {
    expect(chdirTarget(word('sub'), '/ws/project')).toBe('/ws/project/sub');
    expect(chdirTarget(word('../other'), '/ws/project')).toBe('/ws/other');
    expect(chdirTarget(word('/etc'), null)).toBe('/etc');
    expect(chdirTarget(word('./a/./b/'), '/w')).toBe('/w/a/b');
  });

  it('does not know a dynamic word, a relative word in an unknown directory, or a `..` after a name', () => {
    expect(chdirTarget(word('$D', true), '/w')).toBeNull();
    expect(chdirTarget(word('sub'), null)).toBeNull();
    expect(chdirTarget(word('link/..'), '/w')).toBeNull();
    expect(chdirTarget(word('a/../../etc'), '/w')).toBeNull();
    expect(chdirTarget(word('/usr/../etc'), '/w')).toBeNull();
  });
});

describe('the program and its command work in the directory it changes to', () => {
  it.each([
    ['env -C / cat etc/shadow', 'Read /etc/shadow'],
    ['env --chdir=/etc cat passwd', 'Read /etc/passwd'],
    ['env -C ~ cat .ssh/id_rsa', 'Read ~/.ssh/id_rsa'],
    ['sudo -D /root cat .bashrc', 'Read /root/.bashrc'],
    ['env -C sub -- sh -c "cat ../../../etc/hosts"', 'Read /etc/hosts'],
    ['make -C ~ -n', 'List ~'],
    ['npm --prefix ~ ls', 'List ~'],
    ['git -C / status', 'List /'],
    ['tar -C / -cf out.tar etc/shadow', 'Read /etc/shadow'],
    ['tar -cf out.tar -C ~ .ssh', 'Read ~/.ssh'],
    ['tar -xzf a.tgz -C ~', 'Write ~'],
  ])('%s', async (c, op) => {
    const v = await check(c);
    expect(ops(v)).toContain(op);
    expect(v.level).not.toBe('allow');
  });

  it('chdir options add up, each written in the one before', async () => {
    expect(ops(await check('make -C a -C b -n'))).toEqual(expect.arrayContaining(['List ./a', 'List ./a/b']));
    expect(ops(await check('git -C a -C ../b log'))).toEqual(expect.arrayContaining(['List ./a', 'List ./b']));
  });

  it('an unknown directory makes the paths unknown: it asks', async () => {
    for (const c of ['env -C "$D" cat x', 'git -C "$D" status', 'git -C sub/.. status', 'env -C a/.. cat x', 'make -C "$(pwd)/.." -n', 'sudo -D "$D" ls']) {
      expect((await check(c)).level, c).not.toBe('allow');
    }
  });

  it('stays allow inside the workspace', async () => {
    for (const c of ['env -C sub cat x', 'git -C sub status', 'git -C sub log --oneline', 'tar -tzf a.tgz', 'tar -C sub -tf a.tar', 'rg TODO src']) {
      expect((await check(c)).level, c).toBe('allow');
    }
    expect(ops(await check('env -C sub cat x'))).toEqual(['Read ./sub/x']);
    // The archive is opened where tar starts; -C moves the names after it.
    expect(ops(await check('tar -C sub -tf a.tar'))).toEqual(expect.arrayContaining(['List ./sub', 'Read ./a.tar']));
  });
});

describe('a directory in the workspace may be a link', () => {
  const base = mkdtempSync(join(tmpdir(), 'sg-chdir-'));
  const ws = join(base, 'ws');
  const outside = '/etc';
  mkdirSync(join(ws, 'sub'), { recursive: true });
  writeFileSync(join(ws, 'sub', 'x'), 'x\n');
  symlinkSync(outside, join(ws, 'link'));
  const ctx = { cwd: ws, workspaceRoots: [ws], home: '/home/sg-test-nobody', env: {} };
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('paths under a linked directory are where the link points', async () => {
    const v = await check('env -C link cat passwd', ctx);
    expect(v.operations.find((o) => o.kind === 'Read')?.classes).toContain('outside');
    expect(v.level).not.toBe('allow');
    expect((await check('git -C link status', ctx)).level).not.toBe('allow');
    expect((await check('make -C link -n', ctx)).level).not.toBe('allow');
  });

  it('`link/..` is not the workspace', async () => {
    expect((await check('env -C link/.. cat etc/shadow', ctx)).level).not.toBe('allow');
    expect((await check('git -C link/.. status', ctx)).level).not.toBe('allow');
  });

  it("the project configuration is read where the program changes to (yarn --cwd DIR reads DIR's .yarnrc.yml)", async () => {
    mkdirSync(join(ws, 'pkg'), { recursive: true });
    writeFileSync(join(ws, 'pkg', '.yarnrc.yml'), 'yarnPath: ./evil.cjs\n');
    expect((await check('yarn --version', ctx)).level).toBe('allow');
    expect((await check('yarn --cwd pkg --version', ctx)).level).not.toBe('allow');
    expect((await check('env -C pkg yarn --version', ctx)).level).not.toBe('allow');
  });

  it('a real subdirectory stays allow', async () => {
    expect((await check('env -C sub cat x', ctx)).level).toBe('allow');
    expect((await check('git -C sub status', ctx)).level).toBe('allow');
  });
});
