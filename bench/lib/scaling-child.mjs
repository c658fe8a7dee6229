// One scaling shape, run in its own process so the parent can stop it when a size takes too long
// (a super-linear parser must not hang the bench). Prints one JSON line per size, smallest first.
// Usage: node --expose-gc scaling-child.mjs <maxInputLength> '<shape name>' <bytes> [<bytes>…]
import { createAnalyzer } from '../../dist/index.js';
import { BENCH_CONTEXT } from './context.mjs';
import { SHAPES } from './shapes.mjs';
import { median } from './stats.mjs';

const [maxInput, shape, ...sizes] = process.argv.slice(2);
const make = SHAPES[shape];
if (!make) throw new Error(`unknown shape ${shape}`);
const MAX_INPUT = Number(maxInput);
const analyzer = await createAnalyzer({ cacheSize: 0, maxInputLength: MAX_INPUT });
// Small inputs are timed several times (median) so a timer tick or one collection does not make
// them look slow per byte; a run of 200 ms or more is timed once.
const BUDGET_MS = 200;

for (let i = 0; i < 3; i++) analyzer.analyze(make(1024), BENCH_CONTEXT); // JIT warm-up on the same shape
for (const bytes of sizes.map(Number)) {
  const text = make(bytes);
  if (text.length > MAX_INPUT) throw new Error('input larger than maxInputLength');
  const times = [];
  let verdict;
  let spent = 0;
  do {
    globalThis.gc?.();
    const t = performance.now();
    verdict = analyzer.analyze(text, BENCH_CONTEXT);
    const ms = performance.now() - t;
    times.push(ms);
    spent += ms;
  } while (spent < BUDGET_MS && times.length < 25);
  const ms = median(times);
  console.log(
    JSON.stringify({
      bytes: text.length,
      ms,
      nsPerByte: (ms * 1e6) / text.length,
      runs: times.length,
      level: verdict.level,
      commands: verdict.commands.length,
    }),
  );
}
