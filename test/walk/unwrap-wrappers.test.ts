/**
 * Where a wrapper's command starts, read from the registry: the spec's value options and
 * `command` operand, `shell-string` options, tags for privilege, and hooks for the rest.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../src/walk/unwrap-wrappers.js';
import type { Arg } from '../../src/walk/types.js';

const SPAN = { start: 0, end: 0 };
const args = (...words: string[]): Arg[] => words.map((value) => ({ value, dynamic: false, glob: false, span: SPAN }));
const values = (a: Arg[]) => a.map((x) => x.value);

describe('unwrap', () => {
  it('skips the options that take a value, as the spec lists them', () => {
    expect(unwrap('sudo', args('-u', 'root', '-E', 'rm', '-rf', '/'))?.inner).toEqual({ kind: 'argv', start: 3 });
    expect(unwrap('sudo', args('-uroot', 'rm'))?.inner).toEqual({ kind: 'argv', start: 1 });
    expect(unwrap('nice', args('--adjustment=5', 'make'))?.inner).toEqual({ kind: 'argv', start: 1 });
  });

  it("starts at the spec's command operand when no hook says otherwise", () => {
    expect(unwrap('timeout', args('-s', 'KILL', '5', 'rm', 'x'))?.inner).toEqual({ kind: 'argv', start: 3 });
    expect(unwrap('timeout', args('5'))?.inner).toEqual({ kind: 'none' });
    expect(unwrap('nohup', args('./run.sh'))?.inner).toEqual({ kind: 'argv', start: 0 });
  });

  it('reads a shell-string option as a command line', () => {
    const su2 = unwrap('su', args('-c', 'rm -rf /', 'root'));
    expect(su2?.inner.kind === 'shell' && values(su2.inner.script)).toEqual(['rm -rf /']);
    const flock = unwrap('flock', args('/tmp/l', '-c', 'make'));
    expect(flock?.inner.kind === 'shell' && values(flock.inner.script)).toEqual(['make']);
  });

  it('privilege comes from tags: sudo and chroot raise it, env and shells do not', () => {
    expect(unwrap('sudo', args('ls'))?.privileged).toBe(true);
    expect(unwrap('chroot', args('/srv', 'ls'))?.privileged).toBe(true);
    expect(unwrap('env', args('ls'))?.privileged).toBe(false);
    expect(unwrap('bash', args('-c', 'ls'))?.privileged).toBe(false);
  });

  it('hooks say what data cannot: env -S, sudo VAR=x, ssh, xargs -I, parallel', () => {
    const env = unwrap('env', args('-S', 'rm -rf /tmp/x'));
    expect(env?.inner.kind === 'shell' && values(env.inner.script)).toEqual(['rm -rf /tmp/x']);
    expect(unwrap('sudo', args('X=1', 'make'))).toMatchObject({ inner: { kind: 'argv', start: 1 }, assignments: [{ name: 'X', value: '1' }] });
    expect(unwrap('sudo', args('-i'))?.inner).toEqual({ kind: 'stdin-shell' });
    const ssh = unwrap('ssh', args('-p', '22', 'me@host', 'rm', '-rf', '/'));
    expect(ssh?.remote).toBe('host');
    expect(ssh?.inner.kind === 'shell' && values(ssh.inner.script)).toEqual(['rm', '-rf', '/']);
    expect(unwrap('xargs', args('-I', '{}', 'rm', '{}'))?.inner).toEqual({ kind: 'argv', start: 2, replace: '{}' });
    const par = unwrap('parallel', args('-j', '2', 'rm', ':::', 'a', 'b'));
    expect(par?.inner.kind === 'jobs' && par.inner.scripts.length).toBe(2);
  });

  it('every shell reads -c, a script file or stdin alike; other programs are not unwrapped', () => {
    const c = unwrap('fish', args('-c', 'ls'));
    expect(c?.inner.kind === 'shell' && values(c.inner.script)).toEqual(['ls']);
    expect(unwrap('dash', args('x.sh'))?.inner.kind).toBe('script-file');
    expect(unwrap('zsh', args())?.inner).toEqual({ kind: 'stdin-shell' });
    expect(unwrap('cat', args('x'))).toBeNull();
    expect(unwrap('constructor', args('x'))).toBeNull();
  });
});
