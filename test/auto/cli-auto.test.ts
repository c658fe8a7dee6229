/** `shellgate check --mode auto --classifier-url URL --classifier-model NAME` against the test server. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './chat-server.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
let server: ChatServer;
beforeAll(async () => {
  server = await startChatServer();
});
afterAll(() => server.close());

function run(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [BIN, 'check', ...args], { env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('check --mode auto', () => {
  it('asks the classifier and follows it', async () => {
    server.queue({ answer: { shouldBlock: false } });
    const ok = await run('--json', '--mode', 'auto', '--classifier-url', server.url, '--classifier-model', 'm1', 'npm install left-pad');
    expect(ok.code).toBe(0);
    expect(server.requests.at(-1)?.body.model).toBe('m1');
    server.queue({ answer: { shouldBlock: true } }, { answer: { thinking: '', shouldBlock: true, reason: 'not in the task' } });
    const blocked = await run('--json', '--mode', 'auto', '--classifier-url', server.url, '--classifier-model', 'm1', 'npm install left-pad');
    expect(blocked.code).toBe(2);
    expect(JSON.parse(blocked.out).reason).toContain('not in the task');
  });

  it('without a classifier, auto mode asks', async () => {
    expect((await run('--mode', 'auto', 'npm install left-pad')).code).toBe(1);
  });
});
