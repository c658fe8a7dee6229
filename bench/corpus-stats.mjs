// Verdict statistics over the shared corpora: levels, parse errors, most frequent reasons to ask.
// Usage: npm run build && node bench/corpus-stats.mjs [nl2bash|tldr] [--shell bash|zsh|sh|auto]
import { readFileSync } from 'node:fs';
import { createAnalyzer } from '../dist/index.js';

const which = process.argv[2] ?? 'nl2bash';
const dir = new URL('../../shared/corpus/', import.meta.url);
const lines =
  which === 'tldr'
    ? readFileSync(new URL('tldr.tsv', dir), 'utf8')
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((l) => l.split('\t')[2] ?? '')
    : readFileSync(new URL('nl2bash.txt', dir), 'utf8').split('\n').filter(Boolean);
const a = await createAnalyzer();
const shellAt = process.argv.indexOf('--shell');
const shell = shellAt > 0 ? process.argv[shellAt + 1] : 'bash';
const ctx = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {}, shell };
const levels = { allow: 0, ask: 0, deny: 0 };
let parseErrors = 0;
const reasons = new Map();
const t0 = performance.now();
for (const c of lines) {
  const v = a.analyze(c, ctx);
  levels[v.level]++;
  if (v.findings.some((f) => f.rule === 'parse-error')) parseErrors++;
  if (v.level !== 'ask') continue;
  for (const r of new Set(v.findings.filter((f) => f.level === 'ask').map((f) => f.rule))) reasons.set(r, (reasons.get(r) ?? 0) + 1);
}
const ms = performance.now() - t0;
console.log(`${which}: ${lines.length} commands in ${ms.toFixed(0)} ms (${((ms * 1000) / lines.length).toFixed(1)} µs each)`);
console.log(`allow ${levels.allow}  ask ${levels.ask}  deny ${levels.deny}  parse errors ${parseErrors}`);
console.log('most frequent reasons for ask (commands carrying each):');
for (const [r, n] of [...reasons].sort((x, y) => y[1] - x[1]).slice(0, 20)) console.log(`  ${String(n).padStart(6)}  ${r}`);
