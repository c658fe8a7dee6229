// `shellgate lint` over a large real tree: by default the shell scripts, Makefiles and other files
// the machine's packages ship (/usr, /etc). Reports files and lines per second, findings by level,
// files that threw (must be 0), and writes a random sample of findings with their source line and
// a caret to bench/results/lint-sample.txt for checking positions by hand.
// Then, side by side in one tinybench run over the same largest files: the whole lint of a file
// (find the code, analyse it, map findings back), the analyser alone on the same text, and the
// source kind's extraction alone; and lines per second by file size, to see the cost stay linear.
// Usage: npm run build && node bench/lint-tree.mjs [--sample N] [--seed S] [DIR…]
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { kindOf } from '../dist/lint/sources/index.js';
import { lintAnalyzer } from '../dist/lint/analyzer-for-lint.js';
import { findFiles } from '../dist/lint/files.js';
import { lintFound } from '../dist/lint/run.js';
import { lintText } from '../dist/lint/lint-file.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { sample: { type: 'string' }, seed: { type: 'string' } } });
const roots = positionals.length > 0 ? positionals : ['/usr/bin', '/usr/sbin', '/usr/lib', '/usr/libexec', '/usr/share', '/etc'];
const t0 = performance.now();
const found = findFiles(roots, '/');
const tWalk = performance.now() - t0;
const analyzer = await lintAnalyzer({});
const results = [];
const crashed = [];
let bytes = 0;
let lines = 0;
const byKind = new Map();
const t1 = performance.now();
let tLint = 0;
for (const f of found) {
  const s = performance.now();
  let r;
  try {
    r = lintFound(analyzer, f, f.abs, { root: '/' });
  } catch (e) {
    crashed.push(`${f.abs}: ${e instanceof Error ? e.stack : e}`);
    continue;
  }
  if (r === null) continue;
  tLint += performance.now() - s;
  results.push(r);
  byKind.set(r.kind, (byKind.get(r.kind) ?? 0) + 1);
}
const tAll = performance.now() - t1;
// Sizes of the files read (after the run, so reading them twice does not count in the timing).
const sized = [];
for (const r of results) {
  const t = readFileSync(r.file, 'utf8');
  bytes += t.length;
  lines += t.split('\n').length;
  sized.push({ r, text: t, lines: t.split('\n').length });
}
const findings = results.flatMap((r) => r.findings.map((f) => ({ f, r })));
const levels = { deny: 0, ask: 0 };
for (const { f } of findings) levels[f.level]++;
const byRule = new Map();
for (const { f } of findings) byRule.set(f.rule, (byRule.get(f.rule) ?? 0) + 1);
console.log(`walked ${found.length} files under ${roots.join(' ')} in ${(tWalk / 1000).toFixed(1)} s`);
console.log(`linted ${results.length} files (${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}), ${lines} lines, ${(bytes / 1e6).toFixed(1)} MB`);
console.log(
  `lint time ${(tLint / 1000).toFixed(1)} s (with the kind test of skipped files ${(tAll / 1000).toFixed(1)} s): ${(results.length / (tLint / 1000)).toFixed(1)} files/s, ${Math.round(lines / (tLint / 1000))} lines/s`,
);
console.log(`findings ${findings.length}: deny ${levels.deny}, ask ${levels.ask}; files that threw: ${crashed.length}`);
console.log(
  'most frequent rules:',
  [...byRule]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([r, n]) => `${r} ${n}`)
    .join(', '),
);
for (const c of crashed.slice(0, 5)) console.log('THREW', c);
// A seeded random sample, to check positions by hand.
const n = Number(values.sample ?? 40);
let seed = Number(values.seed ?? 17);
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pool = findings.slice();
const sample = [];
while (sample.length < n && pool.length > 0) sample.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]);
const out = sample.map(({ f, r }) => {
  const src = r.lines[f.line] ?? '';
  const pad = [...src.slice(0, f.column - 1)].map((c) => (c === '\t' ? '\t' : ' ')).join('');
  const width = f.endLine === f.line ? Math.max(1, f.endColumn - f.column) : Math.max(1, src.length - f.column + 1);
  return `${f.file}:${f.line}:${f.column}-${f.endLine}:${f.endColumn} ${f.level} ${f.rule}\n  ${f.message}\n  | ${src}\n  | ${pad}${'^'.repeat(width)}\n`;
});
writeFileSync(new URL('./results/lint-sample.txt', import.meta.url), out.join('\n'));
console.log(`wrote ${sample.length} sampled findings to bench/results/lint-sample.txt`);

// Lines per second by file size: the cost of a file should grow with its length, not faster.
const buckets = [
  [0, 100],
  [100, 500],
  [500, 2000],
  [2000, Infinity],
];
console.log('\nlines per second by file length (each file linted again, one pass):');
for (const [lo, hi] of buckets) {
  const group = sized.filter((x) => x.lines >= lo && x.lines < hi);
  if (group.length === 0) continue;
  const t = performance.now();
  let n = 0;
  for (const { r, text } of group) {
    lintText(analyzer, kindOf(r.file, text.slice(0, 512)), text, r.file, r.file, { root: '/' });
    n += text.split('\n').length;
  }
  const s = (performance.now() - t) / 1000;
  console.log(`  ${String(lo).padStart(4)}–${hi === Infinity ? '…' : hi} lines: ${group.length} files, ${Math.round(n / s)} lines/s`);
}

// Side by side: the 20 largest shell scripts, the whole lint against its parts.
const largest = sized
  .filter((x) => x.r.kind === 'shell')
  .sort((a, b) => b.text.length - a.text.length)
  .slice(0, 20);
const shell = kindOf('x.sh', '');
const bench = new Bench({ time: 3000, warmupTime: 500 });
bench
  .add('lint: extract, analyse, map back', () => {
    for (const { r, text } of largest) lintText(analyzer, shell, text, r.file, r.file, { root: '/' });
  })
  .add('analyser alone on the same text', () => {
    for (const { text } of largest) analyzer.analyze(text, { cwd: '/', workspaceRoots: ['/'] });
  })
  .add('extraction alone', () => {
    for (const { r, text } of largest) shell.extract(text, r.file);
  });
await bench.run();
const kb = largest.reduce((a, x) => a + x.text.length, 0) / 1024;
console.log(`\nside by side (tinybench, one task = one pass over the ${largest.length} largest scripts, ${kb.toFixed(0)} KB):`);
for (const t of bench.tasks) {
  const mean = t.result?.latency?.mean ?? t.result?.mean;
  const rme = t.result?.latency?.rme ?? t.result?.rme;
  console.log(`  ${t.name.padEnd(36)} ${mean.toFixed(1).padStart(9)} ms per pass  ±${rme.toFixed(1)} %  ${(kb / (mean / 1000)).toFixed(0)} KB/s`);
}
if (crashed.length > 0) process.exitCode = 1;
