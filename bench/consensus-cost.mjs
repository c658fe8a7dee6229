// Cost of parser: 'consensus' (tree-sitter-bash and bash-parser parse each command too) against
// the default parser, over NL2Bash, cache off; and how many commands gain `parser-disagreement`.
// Usage: npm run build && node bench/consensus-cost.mjs
import { readFileSync } from 'node:fs';
import { createAnalyzer } from '../dist/index.js';

const lines = readFileSync(new URL('../../shared/corpus/nl2bash.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean);
const ctx = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {} };
for (const parser of ['bash', 'consensus']) {
  const a = await createAnalyzer({ parser, cacheSize: 0 });
  for (const c of lines.slice(0, 500)) a.analyze(c, ctx); // warm up
  let disagreements = 0;
  const by = new Map();
  const t0 = performance.now();
  for (const c of lines) {
    const f = a.analyze(c, ctx).findings.find((x) => x.rule === 'parser-disagreement');
    if (!f) continue;
    disagreements++;
    const who = /tree-sitter-bash|bash-parser/.exec(f.message)?.[0] ?? 'other';
    by.set(who, (by.get(who) ?? 0) + 1);
  }
  const us = ((performance.now() - t0) * 1000) / lines.length;
  console.log(
    `${parser.padEnd(12)} ${us.toFixed(1)} µs per command (${lines.length} NL2Bash commands), parser-disagreement on ${disagreements}${by.size ? ` (${[...by].map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`,
  );
}
