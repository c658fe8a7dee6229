// Recall of the guard rules on ../shared/corpus/guard-cases.jsonl and bypass-cases.jsonl, and
// false denies on the benign look-alikes and NL2Bash.
// Usage: npm run build && node bench/guard-recall.mjs [--misses CATEGORY]
import { readFileSync } from 'node:fs';
import { createAnalyzer } from '../dist/index.js';

const dir = new URL('../../shared/corpus/', import.meta.url);
const jsonl = (f) =>
  readFileSync(new URL(f, dir), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const missesFor = process.argv.includes('--misses') ? process.argv[process.argv.indexOf('--misses') + 1] : null;
const a = await createAnalyzer();
const ctx = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {} };

const rows = {};
const misses = [];
for (const c of jsonl('guard-cases.jsonl')) {
  const v = a.analyze(c.command, ctx);
  const r = (rows[c.category] ??= { cases: 0, notAllowed: 0, reached: 0, denied: 0, expectedDeny: 0, categoryHit: 0 });
  r.cases++;
  if (c.category === 'benign') {
    if (v.level === 'deny') {
      r.denied++;
      misses.push([
        'benign',
        'DENIED',
        c.command,
        v.findings
          .filter((f) => f.level === 'deny')
          .map((f) => f.rule)
          .join(','),
      ]);
    }
    continue;
  }
  if (v.level !== 'allow') r.notAllowed++;
  if (v.level === c.expected || (c.expected === 'ask' && v.level === 'deny')) r.reached++;
  if (c.expected === 'deny') r.expectedDeny++;
  if (v.level === 'deny' && c.expected === 'deny') r.denied++;
  if (v.findings.some((f) => f.category === c.category)) r.categoryHit++;
  if (v.level === 'allow' || (c.expected === 'deny' && v.level !== 'deny'))
    misses.push([
      c.category,
      `${v.level}≠${c.expected}`,
      c.command,
      v.findings
        .filter((f) => f.level !== 'allow')
        .map((f) => f.rule)
        .slice(0, 3)
        .join(','),
    ]);
}
console.log('category               cases  not-allowed  reached-level  deny/expected-deny  category-finding');
for (const [k, r] of Object.entries(rows).sort()) {
  if (k === 'benign') continue;
  console.log(
    `${k.padEnd(22)} ${String(r.cases).padStart(5)}  ${String(r.notAllowed).padStart(11)}  ${String(r.reached).padStart(13)}  ${`${r.denied}/${r.expectedDeny}`.padStart(18)}  ${String(r.categoryHit).padStart(16)}`,
  );
}
console.log(`benign look-alikes: ${rows.benign?.cases ?? 0}, denied: ${rows.benign?.denied ?? 0}`);
let bypassAllowed = 0,
  bypassDenyReached = 0,
  bypassDeny = 0;
for (const c of jsonl('bypass-cases.jsonl')) {
  const v = a.analyze(c.command, ctx);
  if (v.level === 'allow') bypassAllowed++;
  if (c.expected === 'deny') {
    bypassDeny++;
    if (v.level === 'deny') bypassDenyReached++;
  }
}
console.log(`bypass cases: allowed ${bypassAllowed}, deny reached ${bypassDenyReached}/${bypassDeny}`);
let nlDeny = 0;
const nlDenied = [];
for (const c of readFileSync(new URL('nl2bash.txt', dir), 'utf8').split('\n').filter(Boolean)) {
  const v = a.analyze(c, ctx);
  if (v.level === 'deny') {
    nlDeny++;
    if (nlDenied.length < 40)
      nlDenied.push(
        `${c}  [${v.findings
          .filter((f) => f.level === 'deny')
          .map((f) => f.rule)
          .join(',')}]`,
      );
  }
}
console.log(`NL2Bash denied: ${nlDeny}`);
if (missesFor) {
  for (const m of misses) if (m[0] === missesFor) console.log(`  ${m[1]}  ${JSON.stringify(m[2]).slice(0, 150)}  ${m[3]}`);
  if (missesFor === 'nl2bash') for (const m of nlDenied) console.log('  ' + m.slice(0, 200));
}
