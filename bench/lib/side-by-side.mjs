// The same batch of commands through every tool, timed by tinybench: each task is one pass over
// the batch, so its mean ÷ the batch size is the cost of one command, with tinybench's relative
// margin of error beside it. The per-command distributions (median, p99) come from timing.mjs;
// this table is the side-by-side throughput, all tools measured in one Bench, one after another.
import { Bench } from 'tinybench';

/**
 * @param {{ name: string, key?: string, parse: ((c: string) => unknown) | null }[]} tools
 * @param {string[]} commands the corpus; every `step`-th command forms the batch
 * @returns {Promise<{ batch: number, rows: Record<string, { usPerCommand: number, rme: number, samples: number } | { note: string }> }>}
 */
export async function sideBySide(tools, commands, { batchSize = 200, timeMs = 1500 } = {}) {
  const step = Math.max(1, Math.floor(commands.length / batchSize));
  const batch = commands.filter((_, i) => i % step === 0).slice(0, batchSize);
  const bench = new Bench({ time: timeMs, warmupTime: 200, iterations: 5 });
  for (const t of tools) {
    if (!t.parse) continue;
    const f = t.parse;
    bench.add(t.key ?? t.name, () => {
      for (const c of batch) f(c);
    });
  }
  await bench.run();
  const rows = {};
  for (const t of tools) {
    const task = bench.getTask(t.key ?? t.name);
    const r = task?.result;
    rows[t.key ?? t.name] =
      r && 'latency' in r
        ? { usPerCommand: (r.latency.mean * 1000) / batch.length, rme: r.latency.rme, samples: r.latency.samplesCount }
        : { note: 'not available' };
  }
  return { batch: batch.length, rows };
}
