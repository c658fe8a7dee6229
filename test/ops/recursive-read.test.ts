/**
 * What recursive reads and globs really reach, on a workspace on disk: sensitive files below a
 * directory, links that lead out of it, names that start with a dash (ops/recursive-read.ts,
 * paths/name-scan.ts).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzer } from '../helpers/analyzer.js';
import type { Verdict } from '../../src/index.js';

let root: string;
let ws: string;
let home: string;
let clean: string;

async function level(command: string, cwd = ws, roots = [ws]): Promise<Verdict['level']> {
  const v = await (await analyzer()).analyze(command, { cwd, workspaceRoots: roots, home, env: { USER: 'user' } });
  return v.level;
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'sg-reach-')));
  home = join(root, 'home');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY');
  ws = join(root, 'ws');
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'src', 'a.ts'), 'TODO');
  writeFileSync(join(ws, '.env'), 'API_KEY=1');
  writeFileSync(join(ws, '--pre=sh'), '');
  writeFileSync(join(ws, '-rf'), '');
  symlinkSync(home, join(ws, 'homelink'));
  // A workspace with nothing sensitive in it: read-only work there stays allowed.
  clean = join(root, 'clean');
  mkdirSync(join(clean, 'src', 'lib'), { recursive: true });
  writeFileSync(join(clean, 'src', 'a.ts'), 'TODO');
  writeFileSync(join(clean, 'README.md'), '# x');
  mkdirSync(join(clean, 'hidden'), { recursive: true });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a recursive read reaches the secrets below it', () => {
  it('grep -r reads every file, .env included', async () => {
    expect(await level('grep -rn API_KEY .')).toBe('ask');
    expect(await level('grep -r API_KEY')).toBe('ask');
    expect(await level("grep -rh . --include='.env*'")).toBe('ask');
  });
  it('rg skips hidden names unless told not to', async () => {
    expect(await level('rg API_KEY src')).toBe('allow');
    expect(await level('rg --hidden API_KEY')).toBe('ask');
    expect(await level('rg -uu API_KEY')).toBe('ask');
    expect(await level("rg -g '.env' API_KEY")).toBe('ask');
  });
  it('rg searches hidden names an ignore file brings back', async () => {
    const dir = join(root, 'ignored');
    mkdirSync(dir);
    writeFileSync(join(dir, '.env'), 'K=1');
    expect(await level('rg K', dir, [dir])).toBe('allow');
    writeFileSync(join(dir, '.ignore'), '!.env\n');
    expect(await level('rg K', dir, [dir])).toBe('ask');
  });
  it('stays allowed where nothing sensitive is below', async () => {
    expect(await level('grep -rn TODO src')).toBe('allow');
    expect(await level('grep -rn TODO .', clean, [clean])).toBe('allow');
    expect(await level('rg foo', clean, [clean])).toBe('allow');
    expect(await level("find . -name '*.ts' | xargs grep -l foo", clean, [clean])).toBe('allow');
    expect(await level('cat src/*.ts | wc -l', clean, [clean])).toBe('allow');
    expect(await level('ls *.md', clean, [clean])).toBe('allow');
  });
});

describe('a link below a recursive read leads out of the workspace', () => {
  it('grep -R and rg -L follow it; grep -r and rg do not', async () => {
    const dir = join(root, 'links');
    mkdirSync(join(dir, 'src'), { recursive: true });
    symlinkSync(home, join(dir, 'src', 'homelink'));
    expect(await level('grep -r x src', dir, [dir])).toBe('allow');
    expect(await level('grep -R x src', dir, [dir])).toBe('ask');
    expect(await level('rg x src', dir, [dir])).toBe('allow');
    expect(await level('rg -L x src', dir, [dir])).toBe('ask');
    expect(await level('find src -name x', dir, [dir])).toBe('allow');
    expect(await level('find -L src -name x', dir, [dir])).toBe('ask');
    // Named on the command line, a link is followed by every walk.
    expect(await level('grep -r x src/homelink', dir, [dir])).toBe('ask');
  });
});

describe('a glob may expand to a name that is an option', () => {
  it('asks where a file named like an option is met, not with -- or ./', async () => {
    const dir = join(root, 'dashes');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'a.ts'), 'TODO');
    writeFileSync(join(dir, '--pre=sh'), '');
    writeFileSync(join(dir, '-rf'), '');
    expect(await level('rg TODO *', dir, [dir])).toBe('ask');
    expect(await level('rg TODO -- *', dir, [dir])).toBe('allow');
    expect(await level('rg TODO ./*', dir, [dir])).toBe('allow');
    expect(await level('rg TODO *.ts', dir, [dir])).toBe('allow');
    expect(await level('rg TODO *', clean, [clean])).toBe('allow');
    // A program whose options only choose how to read: a name like an option changes nothing.
    expect(await level('ls *', dir, [dir])).toBe('allow');
  });
});

describe('names a program lists below a directory are the files there', () => {
  it('find . | xargs cat reads the .env it lists', async () => {
    expect(await level('find . -type f | xargs cat')).toBe('ask');
    expect(await level('find . -type f -exec cat {} +')).toBe('ask');
    expect(await level('find . -type f | xargs cat', clean, [clean])).toBe('allow');
  });
});

describe('a glob can meet a link that leads out of the workspace', () => {
  it('is a read of where the link leads', async () => {
    const dir = join(root, 'globlinks');
    mkdirSync(join(dir, 'docs'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'config'), 'Host x');
    symlinkSync(join(home, '.ssh'), join(dir, 'keys'));
    expect(await level('cat */config', dir, [dir])).toBe('ask');
    expect(await level('rg TODO ./*', dir, [dir])).toBe('ask');
    expect(await level('cat docs/*', dir, [dir])).toBe('allow');
    expect(await level('cat */config', clean, [clean])).toBe('allow');
  });
});

/**
 * Does the command read or list outside the workspace, or a secret? (A copy or an archive also
 * writes, which asks by itself: what it reads is what these cases are about.)
 */
async function reaches(command: string, cwd = ws, roots = [ws]): Promise<'ask' | 'allow'> {
  const v = await (await analyzer()).analyze(command, { cwd, workspaceRoots: roots, home, env: { USER: 'user' } });
  return v.findings.some((f) => f.rule === 'outside-workspace' || f.rule === 'sensitive-path') ? 'ask' : 'allow';
}

describe('programs that walk as their spec declares (walk field)', () => {
  let dir: string;
  const lv = (command: string) => reaches(command, dir, [dir]);
  beforeAll(() => {
    dir = join(root, 'walkers');
    mkdirSync(join(dir, 'src'), { recursive: true });
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'src', 'a.ts'), 'x');
    symlinkSync(home, join(dir, 'sub', 'homelink'));
  });
  it('cp -r copies links as links; -L follows them, and the last of -a/-L wins', async () => {
    expect(await lv('cp -r sub /dev/null')).toBe('allow');
    expect(await lv('cp -rL sub /dev/null')).toBe('ask');
    expect(await lv('cp -aL sub /dev/null')).toBe('ask');
    expect(await lv('cp -La sub /dev/null')).toBe('allow');
  });
  it('tar -c follows links only with -h', async () => {
    expect(await lv('tar -cf /dev/null sub')).toBe('allow');
    expect(await lv('tar -chf /dev/null sub')).toBe('ask');
    expect(await lv('tar chf /dev/null sub')).toBe('ask');
    expect(await lv('tar -chf /dev/null --no-recursion sub')).toBe('allow');
  });
  it('ls -RL, du -L and tree -l list where a link below leads', async () => {
    expect(await lv('ls -R sub')).toBe('allow');
    expect(await lv('ls -RL sub')).toBe('ask');
    expect(await lv('ls -RL src')).toBe('allow');
    expect(await lv('du -sh sub')).toBe('allow');
    expect(await lv('du -L sub')).toBe('ask');
    expect(await lv('tree sub')).toBe('allow');
    expect(await lv('tree -l')).toBe('ask');
    expect(await lv('tree -l src')).toBe('allow');
  });
  it('zip -r follows links unless -y; rsync only with -L/-k/--copy-unsafe-links', async () => {
    expect(await lv('zip -r /dev/null sub')).toBe('ask');
    expect(await lv('zip -ry /dev/null sub')).toBe('allow');
    expect(await lv('rsync -a sub/ /dev/null')).toBe('allow');
    expect(await lv('rsync -aL sub/ /dev/null')).toBe('ask');
    expect(await lv('rsync -a --copy-unsafe-links sub/ /dev/null')).toBe('ask');
  });
  it('a glob that may be any option makes the walk follow every link', async () => {
    const d = join(root, 'dashwalk');
    mkdirSync(join(d, 'sub'), { recursive: true });
    symlinkSync(home, join(d, 'sub', 'homelink'));
    expect(await level('ls -R *', d, [d])).toBe('allow');
    writeFileSync(join(d, '-L'), '');
    expect(await level('ls -R *', d, [d])).toBe('ask');
  });
  it('reads the secrets below what it copies or archives', async () => {
    expect(await reaches('tar -cf - .')).toBe('ask');
    expect(await reaches('cp -r . /dev/null')).toBe('ask');
    expect(await reaches('tar -cf - src', clean, [clean])).toBe('allow');
  });
});

describe('a ** glob meets the links below it', () => {
  let dir: string;
  beforeAll(() => {
    // bash 5.2 with globstar: `**/config` does not go through `keys`, but `**/*/config` and `d/**/config` do.
    dir = join(root, 'globstar');
    mkdirSync(join(dir, 'd', 'e'), { recursive: true });
    writeFileSync(join(dir, 'd', 'e', 'notes.md'), 'x');
    symlinkSync(join(home, '.ssh'), join(dir, 'd', 'keys'));
  });
  it('asks where a link below leads out of the workspace', async () => {
    expect(await level('shopt -s globstar; cat **/*/config', dir, [dir])).toBe('ask');
    expect(await level('shopt -s globstar; cat d/**/id_rsa', dir, [dir])).toBe('ask');
    expect(await level('shopt -s globstar; ls **', dir, [dir])).toBe('ask');
  });
  it('stays allowed where no link leads out', async () => {
    expect(await level('shopt -s globstar; cat d/e/**/*.md', dir, [dir])).toBe('allow');
    expect(await level('shopt -s globstar; wc -l **/*.ts', clean, [clean])).toBe('allow');
  });
  it('follows a link to another workspace directory on to the links there', async () => {
    const d = join(root, 'chain');
    mkdirSync(join(d, 'a'), { recursive: true });
    mkdirSync(join(d, 'b'), { recursive: true });
    symlinkSync(join(home, '.ssh'), join(d, 'b', 'keys'));
    symlinkSync(join(d, 'b'), join(d, 'a', 'tob'));
    expect(await level('cat a/*/*/id_rsa', d, [d])).toBe('ask');
    expect(await level('cat a/*/*/id_rsa', d, [join(d, 'a'), join(d, 'b')])).toBe('ask');
    // A recursive read of a glob's match that links to another workspace directory reads the secrets there.
    expect(await level('grep -r x a/*', d, [d])).toBe('allow');
    writeFileSync(join(d, 'b', '.env'), 'K=1');
    expect(await level('grep -r x a/*', d, [d])).toBe('ask');
  });
});

describe('a recursive read outside the workspace is not looked at', () => {
  it('asks for a temp directory or any other directory outside', async () => {
    const tmp = join(root, 'elsewhere');
    mkdirSync(tmp);
    writeFileSync(join(tmp, 'a.txt'), 'x');
    expect(await level(`grep -r x ${tmp}`, clean, [clean])).toBe('ask');
    expect(await level(`rg x ${tmp}`, clean, [clean])).toBe('ask');
    expect(await level(`ls -R ${tmp}`, clean, [clean])).toBe('ask');
    expect(await level(`tree ${tmp}`, clean, [clean])).toBe('ask');
    expect(await level('grep -r x /tmp', clean, [clean])).toBe('ask');
    expect(await level(`cat ${tmp}/*`, clean, [clean])).toBe('ask');
  });
});
