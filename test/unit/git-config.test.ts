import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitConfigRisk } from '../../src/ops/git-config.js';
import { check } from '../helpers/analyzer.js';

function repo(config: string): string {
  const ws = mkdtempSync(join(tmpdir(), 'sg-git-'));
  mkdirSync(join(ws, '.git'));
  writeFileSync(join(ws, '.git', 'config'), config);
  mkdirSync(join(ws, 'sub'));
  return ws;
}
const home = mkdtempSync(join(tmpdir(), 'sg-home-'));

describe('git configuration that runs programs', () => {
  it('is found from a subdirectory, as git finds it', () => {
    expect(gitConfigRisk(join(repo('[core]\n\tfsmonitor = ./x.sh\n'), 'sub'), home)).toBe('runs-programs');
    expect(gitConfigRisk(repo('[core]\n\trepositoryformatversion = 0\n'), home)).toBe('clean');
  });
  it('names diff drivers, textconv, filters and pagers, but not safe pagers', () => {
    expect(gitConfigRisk(repo('[diff "x"]\n\ttextconv = sh -c id\n'), home)).toBe('runs-programs');
    expect(gitConfigRisk(repo('[filter "lfs"]\n\tclean = git-lfs clean -- %f\n'), home)).toBe('runs-programs');
    expect(gitConfigRisk(repo('[core]\n\tpager = sh -c id\n'), home)).toBe('runs-programs');
    expect(gitConfigRisk(repo('[core]\n\tpager = less -R\n'), home)).toBe('clean');
  });
  it('cannot vouch for included files', () => {
    expect(gitConfigRisk(repo('[include]\n\tpath = ../other\n'), home)).toBe('unknown');
  });
  it('makes a read-only git command ask in such a repository', async () => {
    const ws = repo('[core]\n\tfsmonitor = "touch /tmp/pwned"\n');
    const ctx = { cwd: ws, workspaceRoots: [ws], home, env: {} };
    expect((await check('git status', ctx)).level).toBe('ask');
    const clean = repo('[core]\n\tbare = false\n');
    expect((await check('git status', { ...ctx, cwd: clean, workspaceRoots: [clean] })).level).toBe('allow');
  });
  it('reads the configuration of the repository `git -C DIR` names, each -C relative to the last', async () => {
    const risky = repo('[core]\n\tfsmonitor = "touch /tmp/pwned"\n');
    const clean = repo('[core]\n\tbare = false\n');
    const ctx = { cwd: clean, workspaceRoots: [clean, risky], home, env: {} };
    expect((await check(`git -C ${clean} status`, ctx)).level).toBe('allow');
    expect((await check(`git -C ${risky} status`, ctx)).level).toBe('ask');
    expect((await check(`git -C / -C ${risky.slice(1)}/sub status`, ctx)).level).toBe('ask');
    expect((await check('git -C "$D" status', ctx)).level).toBe('ask');
  });
});
