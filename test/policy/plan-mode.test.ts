/**
 * Plan mode denies what changes something and lets reads run. Writing to /dev/null or to the
 * command's own output streams changes no file, however it is spelt; every other write still does
 * (a redirect around the block, a device that is not a sink, a path known only at run time).
 */
import { describe, expect, it } from 'vitest';
import { createGate, type GateContext } from '../../src/index.js';

const WS = '/ws/project';
const PLAN: GateContext = { cwd: WS, workspaceRoots: [WS], home: '/home/user', env: {}, mode: 'plan' };
const gate = await createGate({});
const decide = (command: string) => gate.evaluate({ tool: 'shell', args: { command } }, PLAN);

describe('plan mode', () => {
  it.each([
    'grep -rn foo src 2>/dev/null',
    'ls > /dev/null',
    'ls >/dev/null 2>&1',
    'ls &>/dev/null',
    'ls >> /dev/null',
    'cat README.md 1>/dev/stderr',
    'echo done > /dev/stdout',
    'git status 2> /dev/null | head',
  ])('lets a read whose only write is a sink run: %s', (command) => {
    expect(decide(command).level).toBe('allow');
  });

  it.each([
    ['a file in the workspace', 'echo x > out.txt'],
    ['a block redirected to a file', '{ echo x > /dev/stdout; } > out.txt'],
    ['a sink and a file', 'ls 2>/dev/null > list.txt'],
    ['deleting the device itself', 'rm /dev/null'],
    ['a device that is not a sink', 'echo x > /dev/zero'],
    ['the terminal', 'cat README.md > /dev/tty'],
    ['a path known only at run time', 'echo x > "$F"'],
    ['a glob that may name another device', 'echo x > /dev/nul*'], // /dev/n* may also be a disk (nvme0n1): the guard denies that first
  ])('denies a write to %s', (_what, command) => {
    const d = decide(command);
    expect(d.level).toBe('deny');
    expect(d.layer).toBe('mode');
  });
});
