/** Auto mode against a real chat-completions server on 127.0.0.1: every failure blocks. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAutoGate, createGate, createOpenAIClassifier, type AutoGate, type ToolCall } from '../../src/index.js';
import { startChatServer, type ChatServer } from './chat-server.js';

const WS = '/ws/project';
const CTX = { cwd: WS, workspaceRoots: [WS], home: '/home/user', env: {} };
const sh = (command: string): ToolCall => ({ tool: 'shell', args: { command } });
const RISKY = sh('npm install left-pad');

let server: ChatServer;
let auto: AutoGate;
const gate = await createGate({
  settings: [{ source: 'project', settings: { permissions: { allow: ['Bash(npm test)'], ask: ['Bash(git push *)'], deny: ['Bash(curl *)'] } } }],
});

beforeAll(async () => {
  server = await startChatServer();
  // The first fetch of a process loads and compiles undici: on a loaded machine that alone can pass
  // the 300 ms stage-1 timeout and leave a queued answer to the next test. Warm it up first.
  await fetch(server.url + '/chat/completions', { method: 'POST', body: '{}' })
    .then((r) => r.text())
    .catch(() => undefined);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  auto = createAutoGate(gate, {
    classifier: createOpenAIClassifier({ baseUrl: server.url, model: 'big', fastModel: 'small', stage1TimeoutMs: 300, stage2TimeoutMs: 600 }),
  });
});

describe('pipeline', () => {
  it('policy decisions come first: user deny, user allow and user ask never reach the classifier', async () => {
    expect((await auto.decide(sh('curl https://x.example'), CTX)).level).toBe('deny');
    expect((await auto.decide(sh('npm test'), CTX)).level).toBe('allow');
    const asked = await auto.decide(sh('git push origin main'), CTX);
    expect({ level: asked.level, step: asked.step }).toEqual({ level: 'ask', step: 'user' });
    expect((await auto.decide(sh('rm -rf /'), CTX)).step).toBe('policy');
    expect(server.requests.length).toBe(0);
  });

  it('workspace edits and safe reads pass without the classifier', async () => {
    expect((await auto.decide({ tool: 'write_file', args: { path: `${WS}/a.ts` } }, CTX)).step).toBe('accept-edits');
    expect((await auto.decide({ tool: 'read_file', args: { path: '/usr/share/dict/words' } }, CTX)).step).toBe('safe-tool');
    expect(server.requests.length).toBe(0);
    // A key is read-only too, but sensitive: the classifier is asked.
    server.queue({ answer: { shouldBlock: true } }, { answer: { thinking: '', shouldBlock: true, reason: 'reads a private key' } });
    const key = await auto.decide({ tool: 'read_file', args: { path: '/home/user/.ssh/id_rsa' } }, CTX);
    expect({ level: key.level, step: key.step }).toEqual({ level: 'deny', step: 'classifier' });
  });

  it('user regex guards deny before the classifier', async () => {
    const a = createAutoGate(gate, { regexGuards: [{ pattern: 'left-pad', level: 'deny', message: 'no left-pad here' }] });
    const d = await a.decide(RISKY, CTX);
    expect({ level: d.level, step: d.step, feedback: d.feedback }).toEqual({ level: 'deny', step: 'guard', feedback: 'no left-pad here' });
  });

  it('without a classifier, auto mode asks', async () => {
    const a = createAutoGate(gate);
    expect((await a.decide(RISKY, CTX)).level).toBe('ask');
  });
});

describe('classifier', () => {
  it('stage 1 "not blocked" approves, with the fast model', async () => {
    server.queue({ answer: { shouldBlock: false } });
    const d = await auto.decide(RISKY, CTX);
    expect({ level: d.level, step: d.step }).toEqual({ level: 'allow', step: 'classifier' });
    expect(server.requests[0].body.model).toBe('small');
  });

  it('stage 1 block goes to stage 2, whose verdict and reason are final', async () => {
    server.queue({ answer: { shouldBlock: true } }, { answer: { thinking: 'pulls code', shouldBlock: true, reason: 'installs an unreviewed package' } });
    const d = await auto.decide(RISKY, CTX);
    expect({ level: d.level, feedback: d.feedback }).toEqual({ level: 'deny', feedback: 'installs an unreviewed package' });
    expect(server.requests[1].body.model).toBe('big');
    expect(server.requests[1].body).not.toHaveProperty('reasoning_effort');
    server.queue({ answer: { shouldBlock: true } }, { answer: { thinking: 'fine', shouldBlock: false, reason: 'routine' } });
    expect((await auto.decide(RISKY, CTX)).level).toBe('allow');
  });

  const failures: [string, () => void, RegExp][] = [
    ['slower than the stage 1 timeout', () => server.queue({ answer: { shouldBlock: false }, delayMs: 800 }), /stage 1 timed out/],
    [
      'slower than the stage 2 timeout',
      () => server.queue({ answer: { shouldBlock: true } }, { answer: { shouldBlock: false, reason: 'x', thinking: '' }, delayMs: 1200 }),
      /stage 2 timed out/,
    ],
    ['HTTP 500', () => server.queue({ status: 500 }), /HTTP 500/],
    ['HTTP 429', () => server.queue({ status: 429 }), /HTTP 429/],
    ['invalid JSON', () => server.queue({ raw: '{"choices": [' }), /not JSON/],
    ['an answer that is not JSON', () => server.queue({ answer: 'sure, looks fine' }), /not the JSON asked for/],
    ['JSON missing shouldBlock', () => server.queue({ answer: { ok: true } }), /lacks a boolean shouldBlock/],
    ['stage 2 without a reason', () => server.queue({ answer: { shouldBlock: true } }, { answer: { shouldBlock: false } }), /lacks a reason/],
    ['a reply cut off mid-body', () => server.queue({ cutOff: true }), /cut off|failed|terminated/],
    ['a connection reset', () => server.queue({ reset: true }), /request failed/],
  ];
  for (const [name, script, message] of failures) {
    it(`fails closed on ${name}, naming the failure`, async () => {
      script();
      const d = await auto.decide(RISKY, CTX);
      expect(d.level).toBe('deny');
      expect(d.reason).toMatch(message);
    });
  }

  it('an abort from the caller aborts without deciding', async () => {
    server.queue({ hang: true });
    const ac = new AbortController();
    const p = auto.decide(RISKY, CTX, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('user cancelled')), 50);
    await expect(p).rejects.toThrow(/cancelled|abort/i);
  });

  it('redacts secrets and bounds the conversation before it leaves', async () => {
    server.queue({ answer: { shouldBlock: false } });
    const secret = 'sk-ant-' + 'a'.repeat(40);
    const a = createAutoGate(gate, { classifier: createOpenAIClassifier({ baseUrl: server.url }), contextLimit: 200 });
    await a.decide(sh('npm install --registry https://u:hunter2@reg.example x'), CTX, {
      conversation: 'x'.repeat(5000) + ` my key is ${secret} and AKIAABCDEFGHIJKLMNOP`,
    });
    const sent = JSON.stringify(server.requests[0].body);
    expect(sent).not.toContain(secret);
    expect(sent).not.toContain('AKIAABCDEFGHIJKLMNOP');
    expect(sent).not.toContain('hunter2');
    expect(sent).toContain('truncated');
    expect(server.requests[0].body.model).toBe('gpt-4o-mini');
  });
});

describe('denial tracking', () => {
  const block = () => server.queue({ answer: { shouldBlock: true } }, { answer: { thinking: '', shouldBlock: true, reason: 'no' } });

  it('after 3 consecutive blocks the user decides; an approval resets; a rejection keeps', async () => {
    for (let i = 0; i < 3; i++) {
      block();
      expect((await auto.decide(RISKY, CTX, { session: 's1' })).step).toBe('classifier');
    }
    const before = server.requests.length;
    const d = await auto.decide(RISKY, CTX, { session: 's1' });
    expect({ level: d.level, step: d.step }).toEqual({ level: 'ask', step: 'user' });
    expect(server.requests.length).toBe(before);
    auto.userResponded('s1', false);
    expect((await auto.decide(RISKY, CTX, { session: 's1' })).step).toBe('user');
    auto.userResponded('s1', true);
    server.queue({ answer: { shouldBlock: false } });
    expect((await auto.decide(RISKY, CTX, { session: 's1' })).step).toBe('classifier');
    expect((await auto.decide(RISKY, CTX, { session: 'other' })).step).not.toBe('user');
  });

  it('a mode switch resets; the total limit also sends calls to the user', async () => {
    const a = createAutoGate(gate, { classifier: createOpenAIClassifier({ baseUrl: server.url }), limits: { consecutive: 100, total: 2 } });
    for (let i = 0; i < 2; i++) {
      block();
      await a.decide(RISKY, CTX, { session: 's2' });
    }
    expect((await a.decide(RISKY, CTX, { session: 's2' })).step).toBe('user');
    a.modeChanged('s2');
    server.queue({ answer: { shouldBlock: false } });
    expect((await a.decide(RISKY, CTX, { session: 's2' })).step).toBe('classifier');
  });

  it('a batch is decided call by call, concurrently, in order; two blocks count two', async () => {
    server.queue({ answer: { shouldBlock: false } });
    const calls = [RISKY, sh('npm test'), sh('rm -rf /')].map((call) => ({ call, context: CTX }));
    const ds = await auto.decideBatch(calls, { session: 'b' });
    expect(ds.map((d) => d.level)).toEqual(['allow', 'allow', 'deny']);
    block();
    block();
    await auto.decideBatch(
      [RISKY, sh('npm install other')].map((call) => ({ call, context: CTX })),
      { session: 'b2' },
    );
    expect(auto.tracker.counters('b2')).toEqual({ consecutive: 2, total: 2 });
  });
});
