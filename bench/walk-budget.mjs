// The walk's budget (maxWalkSteps) against lines written to multiply the work: each under 4 KB,
// each asks with expansion-limit; prints the analysis time of each and the slowest.
// Usage: npm run build && node bench/walk-budget.mjs
import { createAnalyzer } from '../dist/index.js';

const ctx = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {} };
const repeat = (s, n, sep = ';') => Array(n).fill(s).join(sep);

/** Scripts s0…s{levels-1}, each running the next `fanout` times with `run`. */
function nested(levels, fanout, run, leaf = 'cat notes.txt') {
  const parts = [];
  for (let i = 0; i < levels; i++) parts.push(`echo '${i === levels - 1 ? leaf : repeat(`${run} s${i + 1}`, fanout)}' > s${i}`);
  return [...parts, `${run} s0`].join(';');
}

const cases = {
  'source, 6 levels × 10': nested(6, 10, '.'),
  'source, 4 levels × 60': nested(4, 60, '.'),
  'bash FILE, 6 levels × 10': nested(6, 10, 'bash'),
  'a script that runs itself ×10': `echo '${repeat('bash s', 10)}' > s; bash s`,
  'a script that sources itself ×200': `echo '${repeat('. s', 200)}' > s; . s`,
  'sh -c self ×300': `echo '${repeat('sh s', 300)}' > s; sh s`,
  'functions calling functions': `a(){ ${repeat('ls -l', 40)}; }; b(){ ${repeat('a', 40)}; }; c(){ ${repeat('b', 40)}; }; ${repeat('c', 40)}`,
  'eval of long text ×40': `x='${repeat('ls -l ./a ./b', 80)}'; ${repeat('eval "$x"', 40)}`,
  'leaf with many words': nested(5, 8, '.', `grep -rn ${repeat('x', 200, ' ')} .`),
  'leaf with 1,500 words': nested(3, 8, '.', `grep -rn ${repeat('x', 1500, ' ')} .`),
  'function of 1,500 words ×60': `f(){ grep -rn ${repeat('x', 1500, ' ')} .; }; ${repeat('f', 60)}`,
  'loop over a leaf of 1,500 words': `for i in ${repeat('a', 100, ' ')}; do grep -rn ${repeat('x', 1500, ' ')} .; done`,
};

const a = await createAnalyzer({ cacheSize: 0 });
let worst = { ms: 0, name: '' };
for (const [name, line] of Object.entries(cases)) {
  if (line.length >= 4096) throw new Error(`${name}: ${line.length} characters`);
  a.analyze(line, ctx); // warm
  const t0 = performance.now();
  const v = a.analyze(line, ctx);
  const ms = performance.now() - t0;
  const limited = v.findings.some((f) => f.rule === 'expansion-limit' || f.rule === 'depth-limit');
  console.log(`${ms.toFixed(0).padStart(7)} ms  ${String(line.length).padStart(5)} chars  ${v.level}${limited ? ' (limit)' : ''}  ${name}`);
  if (ms > worst.ms) worst = { ms, name };
}
console.log(`slowest: ${worst.ms.toFixed(0)} ms (${worst.name})`);
