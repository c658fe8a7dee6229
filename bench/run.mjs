// shellgate benchmark: everything issue 13 measures, side by side in one run.
//   1. the full verdict per command over NL2Bash (the targets), tldr, the project corpus and a
//      synthetic corpus;
//   2. each front end's parse alone, and cc-safety-net's checkCommand, on the same NL2Bash commands;
//   3. the ratios between them (in the targets table);
//   4. scaling: 1 KB to 1 MB commands of four shapes, each shape in a child process with a time limit;
//   5. cold start in fresh processes (in-process, and the one-shot CLI against `node -e 0`);
//   6. the per-stage table of bench/stages.mjs, when that file exists;
//   7. `shellgate serve` under load and under a connection flood (bench/serve-load.mjs), last: its
//      flood competes for the cores.
// Prints a compact table and writes every figure to bench/results/<date>.json (<date>-2.json… when taken).
// Usage: npm run bench   (builds dist/ and the CLI bundle first)
// Environment: SHELLGATE_BENCH_SCALING_LIMIT_S (default 5: five times the 1 MB target),
// SHELLGATE_BENCH_MEMORY_RUNS (default 20,000; 0 skips), SHELLGATE_BENCH_SYNTHETIC (synthetic
// corpus size, default 50,000). The defaults keep a run near 5 minutes on 2 shared cores with the
// tree-sitter pipeline; a faster pipeline shortens every section but scaling's time limits.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { BENCH_CONTEXT } from './lib/context.mjs';
import { loadCorpora } from './lib/corpora.mjs';
import { measureColdStart } from './lib/cold-start.mjs';
import { loadFrontEnds } from './lib/front-ends.mjs';
import { measureMemory } from './lib/memory.mjs';
import { loadPeer } from './lib/peer.mjs';
import { printReport } from './lib/report.mjs';
import { measureScaling, SCALING_MAX_INPUT } from './lib/scaling.mjs';
import { runStageTable } from './lib/stage-table.mjs';
import { measureServeLoad, printServeLoad } from './serve-load.mjs';
import { sideBySide } from './lib/side-by-side.mjs';
import { checkTargets } from './lib/targets.mjs';
import { timeEach } from './lib/timing.mjs';
import { fullVerdict, timeVerdicts } from './lib/verdicts.mjs';

const ROOT = new URL('..', import.meta.url);
const env = (name, d) => (process.env[name] === undefined ? d : Number(process.env[name]));
const SCALING_LIMIT_S = env('SHELLGATE_BENCH_SCALING_LIMIT_S', 5);
const MEMORY_RUNS = env('SHELLGATE_BENCH_MEMORY_RUNS', 20_000);
const COMPARISON_WARMUP = 2000;
const started = performance.now();
const progress = (what) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${what}\n`);

const results = {
  machine: { cpus: cpus().length, model: cpus()[0]?.model, memGiB: Math.round(totalmem() / 2 ** 30) },
  node: process.version,
  date: new Date().toISOString(),
  // Other work on a shared machine moves every figure: the load average says how much there was.
  loadAverage: { start: loadavg()[0] },
};

// Fresh processes first, while this one has not loaded anything that competes for the cores.
progress('cold start');
results.coldStart = measureColdStart({ runs: 7 });

progress('full verdict per corpus');
const corpora = loadCorpora({ syntheticSize: env('SHELLGATE_BENCH_SYNTHETIC', 50_000) });
results.corpora = {};
for (const [name, commands] of Object.entries(corpora)) results.corpora[name] = await timeVerdicts(commands);

// The front ends and the peer on the very commands the verdict targets are measured on.
const comparisonCorpus = corpora.nl2bash ? 'nl2bash' : 'project';
const same = corpora[comparisonCorpus];
const warmup = same.slice(0, COMPARISON_WARMUP);
results.comparison = { corpus: comparisonCorpus, commands: same.length, warmup: `the first ${warmup.length}`, rows: {} };
const peer = await loadPeer();
// The verdict is timed again here, the same way as the others and just before them, so a ratio
// compares two figures taken under the same load (the targets' mean/median/p99 are the corpus pass above).
const candidates = [
  { name: 'shellgate full verdict', parse: await fullVerdict() },
  ...(await loadFrontEnds()),
  { name: `cc-safety-net checkCommand${peer.version ? ` ${peer.version}` : ''}`, key: 'cc-safety-net checkCommand', parse: peer.check, note: peer.note },
];
for (const f of candidates) {
  progress(`on ${comparisonCorpus}: ${f.name}`);
  results.comparison.rows[f.key ?? f.name] = f.parse ? { ...timeEach(f.parse, same, { warmup }), label: f.name } : { note: f.note ?? 'not available' };
}

progress(`side by side with tinybench on ${comparisonCorpus}`);
results.sideBySide = await sideBySide(candidates, same);

progress('per-stage table');
results.stages = await runStageTable(same, { context: BENCH_CONTEXT, corpus: comparisonCorpus });

progress(`scaling (limit ${SCALING_LIMIT_S} s a size)`);
results.scalingLimitSeconds = SCALING_LIMIT_S;
results.scalingMaxInputLength = SCALING_MAX_INPUT;
results.scaling = await measureScaling({ limitSeconds: SCALING_LIMIT_S });

if (MEMORY_RUNS > 0) {
  progress(`memory (${MEMORY_RUNS} analyses)`);
  results.memory = await measureMemory(corpora.synthetic, MEMORY_RUNS);
}

progress('serve under load and under a connection flood');
results.serveLoad = await measureServeLoad();

results.loadAverage.end = loadavg()[0];
results.targets = checkTargets(results);
results.seconds = (performance.now() - started) / 1000;
printReport(results);
printServeLoad(results.serveLoad);

mkdirSync(new URL('bench/results/', ROOT), { recursive: true });
// A second run on the same day gets its own file: a committed result (the "before" of a change) is never overwritten.
let name = `bench/results/${results.date.slice(0, 10)}.json`;
for (let n = 2; existsSync(new URL(name, ROOT)); n++) name = `bench/results/${results.date.slice(0, 10)}-${n}.json`;
writeFileSync(new URL(name, ROOT), JSON.stringify(results, null, 2) + '\n');
console.log(`written: ${name}`);
