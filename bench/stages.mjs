// Where a verdict's time goes: per stage (parse, walk, ops, guard, other) the mean, median and p99
// in µs and the share of the total, then what an analysis allocates, how many guard rules it tests
// and how many file-system calls it makes. The stages are timed inside the real pipeline through
// the analyser's internal stage clock (src/stage-clock.ts), not a copy of it.
//
// Usage: npx tsc -p tsconfig.json && node bench/stages.mjs [nl2bash|tldr|project] [--rounds N]
// Library: `stageTable(commands, options)` returns the rows; `formatStageTable(rows)` prints them.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { GCProfiler } from 'node:v8';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const DIST = new URL('../dist/', import.meta.url);
const SHARED = new URL('../../shared/corpus/', import.meta.url);
export const STAGE_CONTEXT = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {} };
const STAGES = ['parse', 'walk', 'ops', 'guard', 'other'];

/** The commands of a corpus: `nl2bash`, `tldr` (../shared/corpus) or `project` (corpus/*.jsonl). */
export function corpus(name) {
  if (name === 'nl2bash') return readFileSync(new URL('nl2bash.txt', SHARED), 'utf8').split('\n').filter(Boolean);
  if (name === 'tldr')
    return readFileSync(new URL('tldr.tsv', SHARED), 'utf8')
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split('\t')[2] ?? '');
  if (name === 'project') {
    const dir = new URL('../corpus/', import.meta.url);
    return readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) =>
        readFileSync(new URL(f, dir), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l).command),
      );
  }
  throw new Error(`unknown corpus "${name}" (nl2bash, tldr, project)`);
}

function summary(samples) {
  const s = Float64Array.from(samples).sort();
  let sum = 0;
  for (const x of s) sum += x;
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { mean: sum / s.length, median: q(0.5), p99: q(0.99), sum };
}

/**
 * Rows of the stage table for `commands`. Options: `context` (default STAGE_CONTEXT), `analyzer`
 * (createAnalyzer options, default `{ cacheSize: 0 }`), `rounds` (timed passes, default 2, after
 * one warm-up pass). Each row: { name, unit, mean, median, p99, share } (share of the total time
 * for stage rows; null where it means nothing).
 */
export async function stageTable(commands, options = {}) {
  const context = options.context ?? STAGE_CONTEXT;
  const analyzerOptions = options.analyzer ?? { cacheSize: 0 };
  const rounds = options.rounds ?? 2;
  const { createAnalyzer } = await import(new URL('index.js', DIST).href);
  const { stageClock } = await import(new URL('stage-clock.js', DIST).href);
  const a = await createAnalyzer(analyzerOptions);
  const n = commands.length;

  // Warm-up: every code path JIT-compiled, every spec file and rule compiled once.
  for (const c of commands) a.analyze(c, context);

  // The whole verdict without the clock: what a caller pays.
  const plain = new Float64Array(n * rounds);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      a.analyze(commands[i], context);
      plain[r * n + i] = (performance.now() - t) * 1000;
    }
  }

  // The same with the clock: each lap goes to its stage, what no lap claims is `other`.
  const per = Object.fromEntries(STAGES.map((s) => [s, new Float64Array(n * rounds)]));
  const total = new Float64Array(n * rounds);
  let last = 0;
  let k = 0;
  stageClock.current = {
    lap(stage) {
      const t = performance.now();
      per[stage][k] += (t - last) * 1000;
      last = t;
    },
  };
  try {
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < n; i++, k++) {
        const t0 = performance.now();
        last = t0;
        a.analyze(commands[i], context);
        const t1 = performance.now();
        per.other[k] += (t1 - last) * 1000;
        total[k] = (t1 - t0) * 1000;
      }
    }
  } finally {
    stageClock.current = null;
  }

  // Bytes allocated: heap growth plus what each garbage collection freed on the way.
  const gc = new GCProfiler();
  gc.start();
  const before = process.memoryUsage().heapUsed;
  for (const c of commands) a.analyze(c, context);
  const after = process.memoryUsage().heapUsed;
  const freed = gc.stop().statistics.reduce((s, e) => s + e.beforeGC.heapStatistics.usedHeapSize - e.afterGC.heapStatistics.usedHeapSize, 0);
  const allocated = (after - before + freed) / n;

  // Guard rule tests and file-system calls, counted on an analyser of their own.
  const counted = await createAnalyzer(analyzerOptions);
  let tests = 0;
  const matched = new Set();
  for (const rule of counted.rules) {
    const test = rule.test;
    rule.test = (s) => {
      tests++;
      const hit = test(s);
      if (hit) matched.add(rule.id);
      return hit;
    };
  }
  const testsPer = new Float64Array(n);
  const fsPer = new Float64Array(n);
  let fsCalls = 0;
  const restore = countFsCalls(() => fsCalls++);
  try {
    for (let i = 0; i < n; i++) {
      const t = tests;
      const f = fsCalls;
      counted.analyze(commands[i], context);
      testsPer[i] = tests - t;
      fsPer[i] = fsCalls - f;
    }
  } finally {
    restore();
  }

  const all = summary(total);
  const rows = STAGES.map((s) => ({ name: s, unit: 'µs', ...pick(summary(per[s])), share: summary(per[s]).sum / all.sum }));
  rows.push({ name: 'total (with clock)', unit: 'µs', ...pick(all), share: 1 });
  rows.push({ name: 'total (no clock)', unit: 'µs', ...pick(summary(plain)), share: null });
  rows.push({ name: 'allocated / analysis', unit: 'bytes', mean: allocated, median: null, p99: null, share: null });
  rows.push({ name: 'guard rule tests / command', unit: 'tests', ...pick(summary(testsPer)), share: null });
  rows.push({ name: 'guard rules that ever matched', unit: 'rules', mean: matched.size, median: null, p99: null, share: null });
  rows.push({ name: 'fs calls / analysis', unit: 'calls', ...pick(summary(fsPer)), share: null });
  return rows;
}

function pick({ mean, median, p99 }) {
  return { mean, median, p99 };
}

/** Count the synchronous fs calls the analyser makes (the ESM bindings follow node:fs's). */
function countFsCalls(count) {
  const fs = require('node:fs');
  const names = ['existsSync', 'statSync', 'lstatSync', 'readlinkSync', 'readFileSync', 'readdirSync'];
  const saved = names.map((name) => fs[name]);
  const savedNative = fs.realpathSync.native;
  names.forEach((name, i) => {
    fs[name] = function (...args) {
      count();
      return saved[i].apply(this, args);
    };
  });
  fs.realpathSync.native = (...args) => {
    count();
    return savedNative(...args);
  };
  syncBuiltinESMExports();
  return () => {
    names.forEach((name, i) => (fs[name] = saved[i]));
    fs.realpathSync.native = savedNative;
    syncBuiltinESMExports();
  };
}

/** The rows as a text table. */
export function formatStageTable(rows) {
  const num = (x, unit) => (x === null || x === undefined ? '' : unit === 'µs' ? x.toFixed(2) : x >= 100 ? Math.round(x).toLocaleString('en') : x.toFixed(1));
  const head = ['', 'unit', 'mean', 'median', 'p99', 'share'];
  const body = rows.map((r) => [
    r.name,
    r.unit,
    num(r.mean, r.unit),
    num(r.median, r.unit),
    num(r.p99, r.unit),
    r.share === null ? '' : `${(r.share * 100).toFixed(1)} %`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), ...body.map(line)].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const r = args.indexOf('--rounds');
  const rounds = r >= 0 ? Number(args.splice(r, 2)[1]) : 2;
  const which = args[0] ?? 'nl2bash';
  const commands = corpus(which);
  const rows = await stageTable(commands, { rounds });
  console.log(`${which}: ${commands.length} commands, node ${process.version}, context ${JSON.stringify(STAGE_CONTEXT)}`);
  console.log(formatStageTable(rows));
}
