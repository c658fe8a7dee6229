/**
 * One analysis thread of `shellgate serve` (analysis-pool.ts starts them): a decider of its own —
 * its own parser, gates and verdict cache — answering one request at a time. The main thread keeps
 * the sockets and the clock; when a request passes its deadline it terminates this thread and
 * starts another, so nothing here needs to be interruptible.
 *
 * Built twice: by tsc (dist/serve/analysis-worker.js) and as a bundle (dist/serve/analysis-worker.cjs,
 * scripts/bundle.mjs) that starts in a fraction of the time. No top-level await: the bundle is CommonJS.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createGate } from '../policy/gate.js';
import { createDecider } from './decider.js';
import type { FromWorker, ToWorker, WorkerSetup } from './analysis-messages.js';

const setup = workerData as WorkerSetup;
const port = parentPort!;
const post = (m: FromWorker): void => port.postMessage(m);

const decider = createDecider({
  policy: setup.policy,
  version: setup.version,
  home: setup.home,
  // The audit log is written by the main thread, in the order decisions are made.
  ...(setup.audit ? { record: (record) => post({ type: 'record', record }) } : {}),
  onProjectFiles: (files) => post({ type: 'files', files }),
});

async function handle(m: ToWorker): Promise<void> {
  if (m.type === 'reload') {
    post({ type: 'reloaded', id: m.id, errors: await decider.reload() });
    return;
  }
  try {
    const agent = decider.agentOf(m.agent);
    if (typeof agent === 'string') return post({ type: 'decided', id: m.id, refused: agent });
    const r = await decider.decide(agent, m.input, m.from);
    if ('refused' in r) return post({ type: 'decided', id: m.id, refused: r.refused });
    // A blocking answer's reason and tool go along: HTTP re-encodes it as the agent's JSON deny.
    const block = r.answer.exitCode !== 0 ? { reason: r.record.reason, tool: r.record.tool } : undefined;
    post({ type: 'decided', id: m.id, answer: r.answer, ...(block ? { block } : {}) });
  } catch (e) {
    post({ type: 'decided', id: m.id, refused: `internal error (${(e as Error).message})` });
  }
}

// Requests arrive one at a time (the pool sends the next after the answer); a reload may arrive
// while a decision runs, and is chained after it.
let chain: Promise<void> = Promise.resolve();
port.on('message', (m: ToWorker) => {
  chain = chain.then(() => handle(m));
});

// Loads the parser before the first request, so that request is answered as fast as the next.
createGate({}).then(
  () => post({ type: 'ready' }),
  (e: unknown) => post({ type: 'failed', message: (e as Error).message }),
);
