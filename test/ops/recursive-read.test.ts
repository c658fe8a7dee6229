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
