// The full verdict (parse, walk, operations, guard rules) per command over each corpus, with the
// verdict cache off: every command is really analysed. Then the same commands through a caching
// analyser, for what a repeated command costs.
import { createAnalyzer } from '../../dist/index.js';
import { BENCH_CONTEXT } from './context.mjs';
import { timeEach } from './timing.mjs';

/** The analyser every uncached figure uses (the one the context bench uses: cacheSize 0). */
export const uncachedAnalyzer = () => createAnalyzer({ cacheSize: 0 });

/** One full verdict per call, cache off: the function the comparison times beside the parsers. */
export async function fullVerdict() {
  const a = await uncachedAnalyzer();
  return (c) => a.analyze(c, BENCH_CONTEXT);
}

/**
 * @param {string[]} commands
 * @returns full-verdict µs per command: the first pass (JIT, lazily loaded specs) and the second
 * (the steady state of a long-running gate), plus the warm-cache cost.
 */
export async function timeVerdicts(commands) {
  const verdict = await fullVerdict();
  const first = timeEach(verdict, commands, { warmup: [] });
  const steady = timeEach(verdict, commands, { warmup: [] });
  return {
    commands: commands.length,
    ...steady,
    firstPass: { mean: first.mean, median: first.median, p99: first.p99 },
    warmCacheUs: await timeWarmCache(commands.slice(0, 5000)),
  };
}

/** µs per command answered from the cache: chunks of 250, each looked up again right after it was analysed (well inside the 1 s time to live). */
async function timeWarmCache(commands) {
  const cached = await createAnalyzer({ cacheSize: commands.length + 10 });
  let ms = 0;
  for (let i = 0; i < commands.length; i += 250) {
    const chunk = commands.slice(i, i + 250);
    for (const c of chunk) cached.analyze(c, BENCH_CONTEXT);
    const t = performance.now();
    for (const c of chunk) cached.analyze(c, BENCH_CONTEXT);
    ms += performance.now() - t;
  }
  return (ms * 1000) / commands.length;
}
