/**
 * The server's analyses run in a pool of worker threads, so one slow analysis never holds up
 * another request, nor the sockets: the main thread only accepts, authenticates, queues and
 * answers. Each request has a deadline counted from its arrival; when it passes — still queued,
 * or running — the request is answered by `late` (ask, saying the deadline passed) and a thread
 * busy with it is terminated and replaced. So a request waits at most for the deadline, and a slow
 * one delays another only when every thread is busy with slow ones. A thread that dies under a
 * request (out of memory, a crash) is answered the same way and replaced.
 *
 * The analyser's own work budget ends most slow analyses first; the deadline is the backstop for
 * whatever the budget does not count.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AgentProfile } from '../agents/types.js';
import type { AuditRecord } from '../audit/types.js';
import type { FromWorker, RequestFrom, ServeDecision, ToWorker, WorkerSetup } from './analysis-messages.js';

export interface PoolOptions {
  size: number;
  deadlineMs: number;
  setup: WorkerSetup;
  /** The answer when an analysis did not end: `why` says what stopped it. */
  late(agent: AgentProfile, input: string, from: RequestFrom, why: string): Promise<ServeDecision>;
  record?(r: AuditRecord): void;
  onProjectFiles(files: string[]): void;
  log(message: string): void;
  /** Heap limit of each thread, in MB: an analysis that needs more is answered as late. */
  maxHeapMb?: number;
}

export interface AnalysisPool {
  decide(agent: AgentProfile, input: string, from: RequestFrom): Promise<ServeDecision>;
  /** Every thread re-reads its settings; the errors of the first that reports any. */
  reload(): Promise<string[]>;
  close(): Promise<void>;
}

interface Job {
  id: number;
  agent: AgentProfile;
  input: string;
  from: RequestFrom;
  timer: NodeJS.Timeout;
  settle(d: ServeDecision): void;
  settled: boolean;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  /** Reloads sent to this thread and not answered yet. */
  reloads: Map<number, (errors: string[]) => void>;
}

/** The bundled thread (fast to start) when the build made it, else tsc's module. */
function workerFile(): URL {
  // `../serve/`: right from dist/serve/ (tsc), and from the bundles in dist/cli/ and dist/lib/.
  const bundled = new URL('../serve/analysis-worker.cjs', import.meta.url);
  return existsSync(fileURLToPath(bundled)) ? bundled : new URL('../serve/analysis-worker.js', import.meta.url);
}

interface Pool {
  o: PoolOptions;
  file: URL;
  queue: Job[];
  slots: Set<Slot>;
  nextId: number;
  closed: boolean;
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;

/** Starts a thread and adds it to the pool. */
function start(p: Pool): void {
  if (p.closed) return;
  const worker = new Worker(p.file, {
    workerData: p.o.setup,
    resourceLimits: { maxOldGenerationSizeMb: p.o.maxHeapMb ?? 1024 },
    stdout: false,
    stderr: false,
  });
  const slot: Slot = { worker, job: null, reloads: new Map() };
  p.slots.add(slot);
  worker.on('message', (m: FromWorker) => onMessage(p, slot, m));
  const died = (why: string): void => {
    if (!p.slots.has(slot)) return; // terminated on purpose
    retire(p, slot);
    if (!p.closed) p.o.log(`an analysis thread stopped (${why}); starting another`);
    if (slot.job) lateFor(p, slot.job, `the analysis thread stopped (${why})`);
    // A thread that cannot start at all must not be restarted in a tight loop.
    setTimeout(() => start(p), slot.job ? 0 : 1000).unref();
    pump(p);
  };
  worker.on('error', (e) => died(e.message));
  worker.on('exit', (code) => died(`exit status ${code}`));
  pump(p);
}

/** Takes a thread out of the pool: its reloads count as done (a new thread reads the settings afresh). */
function retire(p: Pool, slot: Slot): void {
  p.slots.delete(slot);
  for (const done of slot.reloads.values()) done([]);
  slot.reloads.clear();
}

function onMessage(p: Pool, slot: Slot, m: FromWorker): void {
  switch (m.type) {
    case 'decided': {
      const job = slot.job;
      if (!job || job.id !== m.id) return; // answered late already; the thread was replaced
      slot.job = null;
      const { type: _t, id: _id, ...decision } = m;
      job.settle(decision as ServeDecision);
      pump(p);
      return;
    }
    case 'reloaded':
      slot.reloads.get(m.id)?.(m.errors);
      slot.reloads.delete(m.id);
      return;
    case 'record':
      p.o.record?.(m.record);
      return;
    case 'files':
      p.o.onProjectFiles(m.files);
      return;
    case 'failed':
      p.o.log(`an analysis thread could not load the parser: ${m.message}`);
      return;
    case 'ready':
      return;
  }
}

const send = (slot: Slot, m: ToWorker): void => slot.worker.postMessage(m);

/** Hands queued requests to idle threads, oldest first. */
function pump(p: Pool): void {
  for (const slot of p.slots) {
    if (p.queue.length === 0) return;
    if (slot.job) continue;
    const job = p.queue.shift()!;
    slot.job = job;
    send(slot, { type: 'decide', id: job.id, agent: job.agent.id, input: job.input, from: job.from });
  }
}

/** Answers a request that did not get its analysis; a thread still working on it is replaced. */
function lateFor(p: Pool, job: Job, why: string): void {
  if (job.settled) return;
  const queued = p.queue.indexOf(job);
  if (queued >= 0) p.queue.splice(queued, 1);
  for (const slot of p.slots) {
    if (slot.job !== job) continue;
    retire(p, slot);
    void slot.worker.terminate();
    start(p);
  }
  p.o
    .late(job.agent, job.input, job.from, why)
    .then(job.settle, (e: unknown) => job.settle({ refused: `internal error (${(e as Error).message}) after: ${why}` }));
}

function enqueue(p: Pool, agent: AgentProfile, input: string, from: RequestFrom): Promise<ServeDecision> {
  if (p.closed) return Promise.resolve({ refused: 'the server is closing' });
  return new Promise<ServeDecision>((resolve) => {
    const job: Job = {
      id: p.nextId++,
      agent,
      input,
      from,
      settled: false,
      settle: (d) => {
        if (job.settled) return;
        job.settled = true;
        clearTimeout(job.timer);
        resolve(d);
      },
      timer: setTimeout(() => lateFor(p, job, `the server's deadline of ${seconds(p.o.deadlineMs)} passed before the analysis ended`), p.o.deadlineMs),
    };
    p.queue.push(job);
    pump(p);
  });
}

export function createAnalysisPool(o: PoolOptions): AnalysisPool {
  const p: Pool = { o, file: workerFile(), queue: [], slots: new Set(), nextId: 1, closed: false };
  for (let i = 0; i < o.size; i++) start(p);
  return {
    decide: (agent, input, from) => enqueue(p, agent, input, from),
    async reload() {
      const all = [...p.slots].map(
        (slot) =>
          new Promise<string[]>((resolve) => {
            const id = p.nextId++;
            slot.reloads.set(id, resolve);
            send(slot, { type: 'reload', id });
          }),
      );
      return (await Promise.all(all)).find((errors) => errors.length > 0) ?? [];
    },
    async close() {
      p.closed = true;
      for (const job of p.queue.splice(0)) job.settle({ refused: 'the server is closing' });
      const stopping = [...p.slots].map((slot) => {
        retire(p, slot);
        slot.job?.settle({ refused: 'the server is closing' });
        return slot.worker.terminate();
      });
      await Promise.all(stopping);
    },
  };
}
