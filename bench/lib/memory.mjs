// Heap and RSS before and after many distinct analyses through a caching analyser: trees must be
// freed and caches bounded. Run with --expose-gc for comparable heap figures.
import { createAnalyzer } from '../../dist/index.js';
import { BENCH_CONTEXT } from './context.mjs';

export async function measureMemory(commands, runs) {
  const a = await createAnalyzer({ cacheSize: 10_000 });
  for (const c of commands.slice(0, 2000)) a.analyze(c, BENCH_CONTEXT);
  globalThis.gc?.();
  const before = process.memoryUsage();
  const t = performance.now();
  for (let i = 0; i < runs; i++) a.analyze(`${commands[i % commands.length]} #${i}`, BENCH_CONTEXT); // distinct: each is really analysed
  globalThis.gc?.();
  const after = process.memoryUsage();
  const mb = (x) => x / 2 ** 20;
  return {
    analyses: runs,
    seconds: (performance.now() - t) / 1000,
    heapBeforeMB: mb(before.heapUsed),
    heapAfterMB: mb(after.heapUsed),
    rssBeforeMB: mb(before.rss),
    rssAfterMB: mb(after.rss),
  };
}
