/**
 * `cd DIR; next`: the cd fails where DIR is missing, a file or not enterable — and the workspace's
 * files are the attacker's — and next then runs where the shell was (found by the dialect
 * differential: `cd /etc; cd sub; cat passwd` read /etc/passwd when sub was missing). The rest of
 * the line is walked in both places unless DIR can be entered as the disk is now and nothing the
 * line ran before could have changed that.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzer } from '../helpers/analyzer.js';

const ws = mkdtempSync(join(tmpdir(), 'shellgate-cd-'));
mkdirSync(join(ws, 'sub'));
mkdirSync(join(ws, 'locked'));
writeFileSync(join(ws, 'file'), 'x');
afterAll(() => {
  chmodSync(join(ws, 'locked'), 0o755);
  rmSync(ws, { recursive: true, force: true });
});
const a = await analyzer();
const level = (command: string) => a.analyze(command, { cwd: ws, workspaceRoots: [ws], home: '/home/user', env: {} }).level;

describe('a cd that may fail', () => {
  it('walks what follows where the shell was, when the directory is missing or a file', () => {
    expect(level(`cd /etc; cd ${ws}/missing; cat passwd`)).not.toBe('allow');
    expect(level(`cd /etc; cd ${ws}/file; cat passwd`)).not.toBe('allow');
    expect(level(`cd /etc; pushd ${ws}/missing; cat passwd`)).not.toBe('allow');
  });

  it('trusts a directory that can be entered now, unless the line may have changed the disk first', () => {
    expect(level(`cd /etc; cd ${ws}/sub; cat passwd`)).toBe('allow');
    expect(level('cd sub; ls -la')).toBe('allow');
    expect(level('cd /etc; cd -; cat shadow')).toBe('allow');
    // mv ran first: sub may be gone by the time cd runs
    expect(level(`cd /etc; mv ${ws}/sub ${ws}/gone; cd ${ws}/sub; cat passwd`)).not.toBe('allow');
  });

  it('does not trust a directory it may not search', () => {
    chmodSync(join(ws, 'locked'), 0o600);
    // root enters it all the same
    if (process.getuid?.() !== 0) expect(level(`cd /etc; cd ${ws}/locked; cat passwd`)).not.toBe('allow');
    chmodSync(join(ws, 'locked'), 0o755);
  });

  it('leaves the directory after a group unknown when a cd inside it may have failed', () => {
    expect(level(`{ cd ${ws}/missing; true; }; cat README.md`)).not.toBe('allow');
    // `&&` stops at a failed cd: what follows runs only where the cd went
    expect(level(`cd /etc && cd ${ws}/missing && cat passwd`)).toBe('allow');
    expect(level(`cd ${ws}/missing && cat README.md`)).toBe('allow');
    expect(level(`{ cd /etc; cd ${ws}/missing; true; }; cat passwd`)).not.toBe('allow');
  });
});
