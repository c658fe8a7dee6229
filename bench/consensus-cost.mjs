// Cost of parser: 'consensus' (a second parse with bash-parser) over NL2Bash, cache off.
// Usage: npm run build && node bench/consensus-cost.mjs
import { readFileSync } from 'node:fs';
import { createAnalyzer } from '../dist/index.js';

const lines = readFileSync(new URL('../../shared/corpus/nl2bash.txt', import.meta.url), 'utf8').split('\n').filter(Boolean);
const ctx = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {} };
for (const parser of ['tree-sitter', 'consensus']) {
  const a = await createAnalyzer({ parser, cacheSize: 0 });
  for (const c of lines.slice(0, 500)) a.analyze(c, ctx); // warm up
  let disagreements = 0;
  const t0 = performance.now();
  for (const c of lines) if (a.analyze(c, ctx).findings.some((f) => f.rule === 'parser-disagreement')) disagreements++;
  const us = ((performance.now() - t0) * 1000) / lines.length;
  console.log(`${parser.padEnd(12)} ${us.toFixed(1)} µs per command (${lines.length} NL2Bash commands), parser-disagreement on ${disagreements}`);
}
