/**
 * `lint --jobs N`: files are handed out in small batches to N worker threads (each with its own
 * analyser: the WASM parser is per thread), so a slow file does not hold up a whole slice; the
 * results come back in file order.
 */
import { Worker } from 'node:worker_threads';
import type { FoundFile } from '../lint/files.js';
import type { Batch, BatchResult, WorkerSetup } from './lint-worker.js';
import type { FileResult } from '../lint/types.js';

const BATCH = 8;

export async function lintInWorkers(
  n: number,
  files: readonly { file: FoundFile; shown: string }[],
  setup: WorkerSetup,
  progress: (done: number) => void,
): Promise<(FileResult | null)[]> {
  const results: (FileResult | null)[] = new Array(files.length).fill(null);
  let next = 0;
  let done = 0;
  const batch = (): Batch | null => {
    if (next >= files.length) return null;
    const items = [];
    for (let i = 0; i < BATCH && next < files.length; i++, next++) items.push({ index: next, file: files[next]!.file, shown: files[next]!.shown });
    return { items };
  };
  await Promise.all(
    Array.from(
      { length: Math.max(1, Math.min(n, files.length)) },
      () =>
        new Promise<void>((resolve, reject) => {
          let finished = false;
          // The bundled CLI and its modules both sit in dist/cli/, so this finds the worker from either.
          const w = new Worker(new URL('./lint-worker.js', import.meta.url), { workerData: setup });
          w.on('message', (m: 'ready' | BatchResult) => {
            if (m !== 'ready') {
              for (const r of m.results) results[r.index] = r.result;
              done += m.results.length;
              progress(done);
            }
            const b = batch();
            w.postMessage(b);
            if (b === null) {
              finished = true;
              void w.terminate().then(() => resolve());
            }
          });
          w.once('error', reject);
          w.once('exit', (code) => {
            if (!finished) reject(new Error(`a --jobs worker exited with status ${code}`));
          });
        }),
    ),
  );
  return results;
}
