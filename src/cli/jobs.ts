/**
 * `check --jobs N`: the commands are cut into N contiguous slices, each analysed in a worker
 * thread with its own gate (the WASM parser is per thread); the main thread prints the results
 * in input order.
 */
import { Worker } from 'node:worker_threads';
import type { GateContext } from '../policy/gate.js';
import type { SettingsSource } from '../policy/settings.js';
import { LEVEL_ORDER, type Level } from '../verdict/types.js';

export interface JobSetup {
  settings: SettingsSource[];
  presets: string[];
  context: GateContext;
  json: boolean;
  color: boolean;
}

export interface JobSlice {
  setup: JobSetup;
  commands: string[];
}

export interface JobResult {
  outputs: string[];
  levels: Level[];
}

export async function runJobs(n: number, commands: string[], setup: JobSetup): Promise<{ outputs: string[]; worst: Level }> {
  const size = Math.ceil(commands.length / n);
  const slices: string[][] = [];
  for (let i = 0; i < commands.length; i += size) slices.push(commands.slice(i, i + size));
  const results = await Promise.all(
    slices.map(
      (slice) =>
        new Promise<JobResult>((resolve, reject) => {
          const w = new Worker(new URL('./job-worker.js', import.meta.url), { workerData: { setup, commands: slice } satisfies JobSlice });
          w.once('message', resolve);
          w.once('error', reject);
          w.once('exit', (code) => {
            if (code !== 0) reject(new Error(`a --jobs worker exited with status ${code}`));
          });
        }),
    ),
  );
  let worst: Level = 'allow';
  for (const r of results) for (const l of r.levels) if (LEVEL_ORDER[l] > LEVEL_ORDER[worst]) worst = l;
  return { outputs: results.flatMap((r) => r.outputs), worst };
}
