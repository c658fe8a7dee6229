/** A `check --jobs` worker: one gate, one slice of commands, rendered output back in order. */
import { parentPort, workerData } from 'node:worker_threads';
import { createGate } from '../policy/gate.js';
import type { PresetName } from '../policy/presets.js';
import { renderDecision } from './render.js';
import type { JobResult, JobSlice } from './jobs.js';

const { setup, commands } = workerData as JobSlice;
const gate = await createGate({ settings: setup.settings, presets: setup.presets as PresetName[] });
const result: JobResult = { outputs: [], levels: [] };
for (const command of commands) {
  const d = gate.evaluate({ tool: 'shell', args: { command } }, setup.context);
  result.outputs.push(renderDecision(d, setup.json, setup.color));
  result.levels.push(d.level);
}
parentPort!.postMessage(result);
