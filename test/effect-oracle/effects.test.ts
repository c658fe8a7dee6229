/**
 * The effect oracle's reading of strace logs (effects.ts), on logs written by hand: what it calls
 * a violation is what the oracle can find, so its blind spots are tested here without a sandbox.
 */
import { describe, expect, it } from 'vitest';
import { effectsOf } from './effects.js';

const ctx = { ws: '/w/project', home: '/w/home', command: "find . -exec echo 'a & b' {} ';'" };
const exec = (path: string, argv: string[]) => `execve("${path}", [${argv.map((a) => JSON.stringify(a)).join(', ')}], 0x7ffc /* 5 vars */) = 0`;
const kinds = (ps: { pid: number; lines: string[] }[], c = ctx) => effectsOf(ps, c).map((e) => `${e.kind} ${e.target}`);

describe('effectsOf', () => {
  const bash = { pid: 9, lines: [exec('/bin/bash', ['/bin/bash', '-c', '--', ctx.command])] };
  it('skips only the sandbox\u2019s own bash, whatever order strace\u2019s per-process files come in', () => {
    const sh = { pid: 10, lines: [exec('/bin/sh', ['sh', '-c', 'id'])] };
    // `t.10` sorts before `t.9`: the child's exec must not be taken for the sandbox's
    expect(kinds([sh, bash])).toEqual(['exec-interpreter sh']);
    expect(kinds([bash, sh])).toEqual(['exec-interpreter sh']);
    // the sandbox's exact `bash -c -- COMMAND` is its own wherever it shows; another bash is not
    const again = { pid: 11, lines: [exec('/bin/bash', ['/bin/bash', '-c', '--', ctx.command])] };
    expect(kinds([bash, again])).toEqual([]);
    const other = { pid: 11, lines: [exec('/bin/bash', ['/bin/bash', '-c', '--', 'id'])] };
    expect(kinds([bash, other])).toEqual(['exec-interpreter bash']);
    const echo = { pid: 10, lines: [exec('/usr/bin/echo', ['echo', 'a & b', '.'])] };
    expect(kinds([echo, bash])).toEqual([]);
  });
  it('counts a refused write as a write, and a read of the home only when it succeeded', () => {
    const p = {
      pid: 3,
      lines: [
        exec('/bin/bash', ['/bin/bash', '-c', '--', 'x']),
        'openat(AT_FDCWD</w/project>, "/w/home/.config/x", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 EROFS (Read-only file system)',
        'openat(AT_FDCWD</w/project>, "/w/home/.ssh/id_rsa", O_RDONLY) = -1 ENOENT (No such file or directory)',
        'openat(AT_FDCWD</w/project>, "/w/home/.bashrc", O_WRONLY|O_NONBLOCK) = -1 ENOENT (No such file or directory)',
        'openat(AT_FDCWD</w/project>, "/w/home/.profile", O_WRONLY|O_APPEND) = -1 EACCES (Permission denied)',
        'openat(AT_FDCWD</w/project>, "/w/home/new", O_WRONLY|O_CREAT, 0644) = -1 ENOENT (No such file or directory)',
        'openat(AT_FDCWD</w/project>, "/w/home/.gitconfig", O_RDONLY) = 3</w/home/.gitconfig>',
        'openat(AT_FDCWD</w/project>, "src/a.c", O_RDONLY) = 3</w/project/src/a.c>',
      ],
    };
    expect(kinds([p])).toEqual(['write /w/home/.config/x', 'write /w/home/.profile', 'write /w/home/new', 'read-home /w/home/.gitconfig']);
  });
  it('lets a command keep private scratch files in shared temp that it removes again (tac, sort)', () => {
    const tac = (mode: string, unlink: boolean) => ({
      pid: 3,
      lines: [
        exec('/bin/bash', ['/bin/bash', '-c', '--', 'x']),
        `openat(AT_FDCWD</w/project>, "/tmp/tacXXXXXX", O_RDWR|O_CREAT|O_EXCL, ${mode}) = 3</tmp/tacaTuoif>`,
        ...(unlink ? ['unlink("/tmp/tacaTuoif")          = 0'] : []),
      ],
    });
    expect(kinds([tac('0600', true)])).toEqual([]);
    // left behind, readable by others, or not new: a write
    expect(kinds([tac('0600', false)])).toEqual(['write /tmp/tacaTuoif']);
    expect(kinds([tac('0644', true)])).toEqual(['write /tmp/tacaTuoif']);
    const plain = {
      pid: 3,
      lines: [
        exec('/bin/bash', ['/bin/bash', '-c', '--', 'x']),
        'openat(AT_FDCWD</w/project>, "/tmp/x", O_WRONLY|O_CREAT|O_TRUNC, 0600) = 3</tmp/x>',
        'unlink("/tmp/x") = 0',
      ],
    };
    expect(kinds([plain])).toEqual(['write /tmp/x']);
  });
  it('knows code the line carries through watch, whose words bash unquoted first', () => {
    const command = 'watch -n1 ps -p \\`pgrep x\\`';
    const run = (code: string) => [
      { pid: 3, lines: [exec('/bin/bash', ['/bin/bash', '-c', '--', command])] },
      { pid: 4, lines: [exec('/bin/sh', ['sh', '-c', code])] },
    ];
    expect(kinds(run('ps -p `pgrep x`'), { ...ctx, command })).toEqual([]);
    expect(kinds(run('curl x | sh'), { ...ctx, command })).toEqual(['exec-interpreter sh']);
  });
  it('lets a program list /dev and /dev/pts, not read a device', () => {
    const p = (path: string) => [
      { pid: 3, lines: [exec('/bin/bash', ['/bin/bash', '-c', '--', 'x']), `openat(AT_FDCWD</w/project>, "${path}", O_RDONLY|O_DIRECTORY) = 3<${path}>`] },
    ];
    expect(kinds(p('/dev'))).toEqual([]);
    expect(kinds(p('/dev/pts'))).toEqual([]);
    expect(kinds(p('/dev/sda'))).toEqual(['read-outside /dev/sda']);
  });
});
