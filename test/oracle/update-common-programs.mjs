// Regenerates common-programs.json: the 400 program names shellgate reports most often over the
// shared NL2Bash and tldr corpora (after unwrapping). Run after `npx tsc -p .` from the project root:
//   node test/oracle/update-common-programs.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAnalyzer } from '../../dist/index.js';

const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus');
const CONTEXT = { cwd: '/work', workspaceRoots: ['/work'], home: '/root', env: {} };
const nl2bash = readFileSync(join(SHARED, 'nl2bash.txt'), 'utf8').split('\n').filter(Boolean);
const tldr = readFileSync(join(SHARED, 'tldr.tsv'), 'utf8')
  .split('\n')
  .slice(1)
  .filter(Boolean)
  .map((l) => l.split('\t')[2] ?? '');
const analyzer = await createAnalyzer();
const count = new Map();
for (const c of [...nl2bash, ...tldr]) {
  for (const x of analyzer.analyze(c, CONTEXT).commands) {
    if (x.program && /^[A-Za-z0-9_][A-Za-z0-9._+-]*$/.test(x.program)) count.set(x.program, (count.get(x.program) ?? 0) + 1);
  }
}
const top = [...count]
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  .slice(0, 400)
  .map(([p]) => p)
  .sort();
writeFileSync(join(import.meta.dirname, 'common-programs.json'), JSON.stringify(top, null, 1) + '\n');
console.log(`${top.length} names`);
