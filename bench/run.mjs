// shellgate benchmark: full verdict per command over the project corpus, a synthetic corpus and
// the shared NL2Bash/tldr corpora (when present), baselines measured in the same run on the same
// commands (tree-sitter parse only, bash-parser parse only, shell-quote tokenise only), cold
// start, warm cache, and scaling with input size. Prints a table and writes JSON to
// bench/results/. Usage: npm run bench   (builds first)
import { readFileSync, readdirSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { execFileSync } from 'node:child_process';
import { Bench } from 'tinybench';
import { parse as shellQuote } from 'shell-quote';
import { createRequire } from 'node:module';
import { BashParser } from '../dist/syntax/tree-sitter/parser.js';

const require = createRequire(import.meta.url);
const ROOT = new URL('..', import.meta.url);
const SHARED = new URL('../../shared/corpus/', import.meta.url);
const CTX = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {} };

// ---- cold start, in fresh processes: import + WASM + rules + first verdict (inside the process),
// and the CLI end to end (`shellgate check ls`, node's own start-up included). Median of 7.
const coldScript = `const t0 = performance.now();
const { createAnalyzer } = await import(${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)});
const a = await createAnalyzer({ cacheSize: 0 });
a.analyze('ls', { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {} });
console.log(performance.now() - t0);`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const coldRuns = Array.from({ length: 7 }, () => Number(execFileSync(process.execPath, ['--input-type=module', '-e', coldScript], { encoding: 'utf8' })));
const coldStartMs = median(coldRuns);
// The installed command (bin/shellgate.cjs: the bundle with its code cache; one warm-up run writes
// the cache) and the unbundled modules it is built from.
const timeCli = (entry) =>
  median(
    Array.from({ length: 8 }, () => {
      const t = performance.now();
      try {
        execFileSync(process.execPath, [new URL(entry, import.meta.url).pathname, 'check', '--cwd', '/tmp', 'ls'], { stdio: 'ignore' });
      } catch {}
      return performance.now() - t;
    }).slice(1),
  );
const cliMs = timeCli('../bin/shellgate.cjs');
const cliUnbundledMs = timeCli('../dist/cli/main.js');
const { createAnalyzer } = await import('../dist/index.js');

// ---- corpora
const corpora = {};
corpora.project = readdirSync(new URL('corpus/', ROOT)).filter((f) => f.endsWith('.jsonl')).flatMap((f) => readFileSync(new URL(`corpus/${f}`, ROOT), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).command));
corpora.synthetic = synthetic(100_000);
if (existsSync(new URL('nl2bash.txt', SHARED))) corpora.nl2bash = readFileSync(new URL('nl2bash.txt', SHARED), 'utf8').split('\n').filter(Boolean);
if (existsSync(new URL('tldr.tsv', SHARED))) corpora.tldr = readFileSync(new URL('tldr.tsv', SHARED), 'utf8').split('\n').slice(1).filter(Boolean).map((l) => l.split('\t')[2] ?? '');

/** Deterministic realistic commands: pipelines, chains, substitutions, wrappers, heredocs, long argument lists. */
function synthetic(n) {
  let seed = 12345;
  const rnd = (k) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % k);
  const pick = (xs) => xs[rnd(xs.length)];
  const simple = ['ls -la src', 'cat README.md', 'grep -rn TODO src', 'git status', 'git log --oneline -n 20', 'npm test', 'rm -rf build', 'mkdir -p dist', 'sed -i s/a/b/ f.txt', 'find . -name "*.ts"', 'curl -s https://example.com/api', 'tar czf out.tgz src', 'echo "$HOME/x"', 'wc -l src/a.ts', 'head -n 5 package.json', 'python3 script.py --flag', 'docker ps -a', 'kubectl get pods'];
  const wrap = [(c) => c, (c) => `sudo ${c}`, (c) => `timeout 9 ${c}`, (c) => `bash -c '${c.replace(/'/g, '')}'`, (c) => `env A=1 ${c}`, (c) => `nohup ${c} &`];
  const out = [];
  for (let i = 0; i < n; i++) {
    const parts = Array.from({ length: 1 + rnd(4) }, () => pick(wrap)(pick(simple)));
    let c = parts.join(pick([' | ', ' && ', '; ', ' || ']));
    const r = rnd(10);
    if (r === 0) c = `echo $(${pick(simple)}) && ${c}`;
    if (r === 1) c = `cat <<EOF | grep x\nline $(date)\nEOF\n${c}`;
    if (r === 2) c = `${pick(simple)} ${Array.from({ length: 30 }, (_, k) => `arg${k}`).join(' ')}`;
    out.push(c);
  }
  return out;
}

function percentiles(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p90: q(0.9), p99: q(0.99), max: s[s.length - 1] };
}

const results = { machine: { cpus: cpus().length, model: cpus()[0]?.model, memGiB: Math.round(totalmem() / 2 ** 30) }, node: process.version, date: new Date().toISOString(), coldStartMs, cliCheckMs: cliMs, cliCheckUnbundledMs: cliUnbundledMs, corpora: {}, baselines: {}, scaling: [] };

const ts = await BashParser.create();
// The bare tree-sitter parse (tree built and freed, nothing read from it): the floor under everything.
const rawTs = await (async () => {
  const { Parser, Language } = await import('web-tree-sitter');
  await Parser.init();
  const p = new Parser();
  p.setLanguage(await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')));
  return (c) => p.parse(c)?.delete();
})();
const bashParser = require('bash-parser');
for (const [name, commands] of Object.entries(corpora)) {
  const sample = commands;
  const a = await createAnalyzer({ cacheSize: 0 });
  // Two passes over the corpus: the first meets every code path and spec file for the first time
  // (JIT compilation, lazy spec loading), the second is the steady state of a long-running gate.
  const pass = () => {
    const times = new Float64Array(sample.length);
    const tStart = performance.now();
    for (let i = 0; i < sample.length; i++) {
      const t = performance.now();
      a.analyze(sample[i], CTX);
      times[i] = (performance.now() - t) * 1000;
    }
    return { times, totalMs: performance.now() - tStart };
  };
  const first = pass();
  const { times, totalMs } = pass();
  const p = percentiles(times);
  const firstPass = percentiles(first.times);
  // Warm cache: the same commands again through a caching analyser with its default settings.
  // Chunks of 250, each looked up right after it was analysed: well inside the 1 s time to live.
  const cached = await createAnalyzer({ cacheSize: sample.length + 10 });
  const warmSet = sample.slice(0, 5000);
  let warmMs = 0;
  for (let i = 0; i < warmSet.length; i += 250) {
    const chunk = warmSet.slice(i, i + 250);
    for (const c of chunk) cached.analyze(c, CTX);
    const tw = performance.now();
    for (const c of chunk) cached.analyze(c, CTX);
    warmMs += performance.now() - tw;
  }
  const warmUs = (warmMs * 1000) / warmSet.length;
  results.corpora[name] = { commands: sample.length, ...p, perSecond: Math.round((sample.length / totalMs) * 1000), warmCacheUs: warmUs, firstPassMedian: firstPass.median, firstPassP99: firstPass.p99 };
}

// ---- baselines, same commands (NL2Bash when present, else the project corpus), via tinybench
const base = (corpora.nl2bash ?? corpora.project).slice(0, 2000);
const bench = new Bench({ time: 1500 });
const full = await createAnalyzer({ cacheSize: 0 });
// Peer baseline: cc-safety-net's library API (a devDependency), same commands.
let peer = null;
try {
  const api = await import('cc-safety-net/api');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const cwd = mkdtempSync(tmpdir() + '/sg-bench-');
  peer = (c) => { try { api.checkCommand({ command: c || ' ', cwd }); } catch {} };
} catch (e) {
  console.error(`cc-safety-net not available (${e.message}); its baseline is skipped`);
}
bench
  .add('shellgate full verdict', () => { for (const c of base) full.analyze(c, CTX); })
  .add('tree-sitter parse only', () => { for (const c of base) rawTs(c); })
  .add('parse to our AST', () => { for (const c of base) ts.parse(c); })
  .add('bash-parser parse only', () => { for (const c of base) { try { bashParser(c); } catch {} } })
  .add('shell-quote tokenise only', () => { for (const c of base) { try { shellQuote(c); } catch {} } });
if (peer) bench.add('cc-safety-net checkCommand', () => { for (const c of base) peer(c); });
await bench.run();
for (const t of bench.tasks) {
  const meanMs = t.result?.latency?.mean ?? t.result?.mean;
  results.baselines[t.name] = { usPerCommand: (meanMs * 1000) / base.length };
}

// ---- where the time goes: the four stages of a verdict, timed apart on the same commands
{
  const { Walker } = await import('../dist/walk/walker.js');
  const { identity } = await import('../dist/walk/nested-scripts.js');
  const { newScope } = await import('../dist/walk/scope.js');
  const { defaultSpecs } = await import('../dist/ops/load-specs.js');
  const { commandFacts } = await import('../dist/ops/operations.js');
  const { assessCommand } = await import('../dist/verdict/assess.js');
  const { PathClassifier } = await import('../dist/paths/classify.js');
  const { loadRules } = await import('../dist/guard/load-rules.js');
  const { applyGuards } = await import('../dist/guard/apply.js');
  const specs = defaultSpecs();
  const guards = loadRules([], () => CTX.home);
  const classifier = new PathClassifier({ home: CTX.home, workspaceRoots: CTX.workspaceRoots });
  const stages = { 'parse (tree-sitter + our AST)': [], walk: [], 'operations + core findings': [], 'guard rules': [] };
  const [parseT, walkT, opsT, guardT] = Object.values(stages);
  const rootCtx = { pipeline: null, substitution: null, background: false, negated: false, conditional: false, loop: false, infiniteLoop: false, functionName: null, depth: 0, via: [], remote: null, privileged: false };
  for (let round = 0; round < 2; round++) {
    for (const list of Object.values(stages)) list.length = 0;
    for (const c of base) {
      let t = performance.now();
      const parsed = ts.parse(c);
      let t2 = performance.now();
      parseT.push(t2 - t);
      t = t2;
      const w = new Walker({ home: CTX.home, env: {}, cwd: CTX.cwd, parse: (s) => ts.parse(s), maxScriptDepth: 8, readSource: () => null, commandStart: () => null });
      w.walkScript(parsed.script, { source: c, map: identity, scriptDepth: 0 }, rootCtx, newScope(CTX.cwd));
      t2 = performance.now();
      walkT.push(t2 - t);
      t = t2;
      const ops = [];
      for (const cmd of w.commands) {
        const f = commandFacts(cmd, { specs, classifier, home: CTX.home, vars: {}, links: w.lineLinks, readScript: () => null });
        assessCommand(cmd, f, { chaining: 'info' }, ops.length);
        ops.push(...f.ops);
      }
      t2 = performance.now();
      opsT.push(t2 - t);
      t = t2;
      applyGuards(guards, w.commands, ops, specs);
      guardT.push(performance.now() - t);
    }
  }
  results.stages = Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, { medianUs: percentiles(v).median * 1000, meanUs: (v.reduce((a, b) => a + b, 0) / v.length) * 1000 }]));
}

// ---- scaling: time per input byte must stay flat
const scalingCases = [];
for (const kb of [1, 10, 100, 1000]) scalingCases.push([`command of ${kb} KB`, 'echo ' + 'a '.repeat((kb * 1024) / 2)]);
for (const n of [10, 100, 1000, 10000]) scalingCases.push([`pipeline of ${n}`, Array.from({ length: n }, (_, i) => `grep x${i}`).join(' | ')]);
for (const d of [10, 100, 1000]) scalingCases.push([`$( ) nesting ${d}`, '$('.repeat(d) + 'ls' + ')'.repeat(d)]);
for (const d of [10, 100, 1000]) scalingCases.push([`subshell nesting ${d}`, '('.repeat(d) + 'ls' + ')'.repeat(d)]);
scalingCases.push(['script of 1,000 lines', Array.from({ length: 1000 }, (_, i) => `cp src/f${i}.ts dist/ && echo done ${i}`).join('\n')]);
for (const [name, text] of scalingCases) {
  const a = await createAnalyzer({ cacheSize: 0 });
  const t = performance.now();
  a.analyze(text, CTX);
  const ms = performance.now() - t;
  results.scaling.push({ name, bytes: text.length, ms, nsPerByte: (ms * 1e6) / text.length });
}

// ---- memory: heap and RSS before and after many analyses (trees must be freed, caches bounded)
const memoryRuns = Number(process.env.SHELLGATE_BENCH_MEMORY_RUNS ?? 1_000_000);
{
  const a = await createAnalyzer({ cacheSize: 10_000 });
  const cmds = corpora.synthetic.slice(0, 50_000);
  for (const c of cmds.slice(0, 2000)) a.analyze(c, CTX);
  global.gc?.();
  const before = process.memoryUsage();
  const t = performance.now();
  for (let i = 0; i < memoryRuns; i++) a.analyze(`${cmds[i % cmds.length]} #${i}`, CTX); // distinct: each is really analysed
  global.gc?.();
  const after = process.memoryUsage();
  results.memory = { analyses: memoryRuns, seconds: (performance.now() - t) / 1000, heapBeforeMB: before.heapUsed / 2 ** 20, heapAfterMB: after.heapUsed / 2 ** 20, rssBeforeMB: before.rss / 2 ** 20, rssAfterMB: after.rss / 2 ** 20 };
}

// ---- output
const f = (x, d = 1) => (typeof x === 'number' ? x.toFixed(d) : String(x));
console.log(`shellgate bench — ${results.machine.cpus} cores (${results.machine.model}), node ${results.node}, ${results.date}`);
console.log(`cold start (fresh process: import, WASM, rules, first verdict): ${f(coldStartMs, 0)} ms; \`shellgate check ls\` end to end: ${f(cliMs, 0)} ms (unbundled dist/cli/main.js: ${f(cliUnbundledMs, 0)} ms)\n`);
console.log('second pass over each corpus (steady state), verdict cache off; then the first pass, and the cache warm:');
console.log('corpus        commands   median µs   p90 µs   p99 µs    max µs   cmds/s (1 core)   1st pass median/p99 µs   warm cache µs');
for (const [n, r] of Object.entries(results.corpora)) console.log(`${n.padEnd(12)} ${String(r.commands).padStart(9)} ${f(r.median).padStart(11)} ${f(r.p90).padStart(8)} ${f(r.p99).padStart(8)} ${f(r.max, 0).padStart(9)} ${String(r.perSecond).padStart(17)} ${(f(r.firstPassMedian) + ' / ' + f(r.firstPassP99, 0)).padStart(24)} ${f(r.warmCacheUs, 2).padStart(15)}`);
const fullUs = results.baselines['shellgate full verdict'].usPerCommand;
console.log(`\nbaselines on ${base.length} ${corpora.nl2bash ? 'NL2Bash' : 'project'} commands (µs per command, and shellgate ÷ baseline):`);
for (const [n, b] of Object.entries(results.baselines)) console.log(`  ${n.padEnd(28)} ${f(b.usPerCommand).padStart(8)}   ×${f(fullUs / b.usPerCommand, 1)}`);
console.log(`\nwhere the time goes, same commands, stage by stage (µs per command):`);
for (const [n, v] of Object.entries(results.stages)) console.log(`  ${n.padEnd(30)} median ${f(v.medianUs).padStart(7)}   mean ${f(v.meanUs).padStart(7)}`);
console.log('\nscaling                      bytes        ms    ns/byte');
for (const s of results.scaling) console.log(`  ${s.name.padEnd(24)} ${String(s.bytes).padStart(9)} ${f(s.ms).padStart(9)} ${f(s.nsPerByte, 0).padStart(9)}`);
const m = results.memory;
console.log(`\nmemory over ${m.analyses.toLocaleString('en')} analyses (${f(m.seconds, 0)} s, distinct commands, cache 10,000): heap ${f(m.heapBeforeMB)} → ${f(m.heapAfterMB)} MB, RSS ${f(m.rssBeforeMB)} → ${f(m.rssAfterMB)} MB`);
mkdirSync(new URL('bench/results/', ROOT), { recursive: true });
const file = new URL(`bench/results/${results.date.slice(0, 10)}.json`, ROOT);
writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
console.log(`\nwritten: bench/results/${results.date.slice(0, 10)}.json`);
