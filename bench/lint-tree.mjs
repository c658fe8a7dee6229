// `shellgate lint` over a large real tree: by default the shell scripts, Makefiles and other files
// the machine's packages ship (/usr, /etc). Reports files and lines per second, findings by level,
// files that threw (must be 0), and writes a random sample of findings with their source line and
// a caret to bench/results/lint-sample.txt for checking positions by hand.
// Usage: npm run build && node bench/lint-tree.mjs [--sample N] [--seed S] [DIR…]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { lintAnalyzer } from '../dist/lint/analyzer-for-lint.js';
import { findFiles } from '../dist/lint/files.js';
import { lintFound } from '../dist/lint/run.js';

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
const { readFileSync } = await import('node:fs');
for (const r of results) {
  const t = readFileSync(r.file, 'utf8');
  bytes += t.length;
  lines += t.split('\n').length;
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
if (crashed.length > 0) process.exitCode = 1;
