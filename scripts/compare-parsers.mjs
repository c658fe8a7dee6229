// The verdict of every corpus command under two front ends, side by side: shellgate's own parser
// (`parser: 'bash'`, the default) and tree-sitter-bash (`parser: 'tree-sitter'`, the default
// before issue 13). Prints, per corpus, how many levels changed in each direction and writes
// every changed command with both levels and their deciding findings to a JSON file, so each
// change can be explained. Usage: npx tsc -p tsconfig.json && node scripts/compare-parsers.mjs [out.json]
import { writeFileSync } from 'node:fs';
import { createAnalyzer } from '../dist/index.js';
import { allCorpora } from './lib/corpora.mjs';

const CTX = { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {} };
const corpora = allCorpora();

const ours = await createAnalyzer({ cacheSize: 0 });
const theirs = await createAnalyzer({ cacheSize: 0, parser: 'tree-sitter' });
const ORDER = { allow: 0, ask: 1, deny: 2 };
const deciding = (v) => [...new Set(v.findings.filter((f) => f.level === v.level && f.level !== 'allow').map((f) => f.rule))].join(', ');
const changes = [];
console.log('corpus            commands  same  stricter  looser   (ours vs tree-sitter)');
for (const [name, commands] of Object.entries(corpora)) {
  let same = 0;
  let stricter = 0;
  let looser = 0;
  for (const command of commands) {
    const a = ours.analyze(command, CTX);
    const b = theirs.analyze(command, CTX);
    if (a.level === b.level) {
      same++;
      continue;
    }
    if (ORDER[a.level] > ORDER[b.level]) stricter++;
    else looser++;
    changes.push({ corpus: name, command, ours: a.level, treeSitter: b.level, oursRules: deciding(a), treeSitterRules: deciding(b) });
  }
  console.log(
    `${name.padEnd(18)}${String(commands.length).padStart(8)}${String(same).padStart(6)}${String(stricter).padStart(10)}${String(looser).padStart(8)}`,
  );
}
const out = process.argv[2] ?? '/tmp/shellgate-parser-verdicts.json';
writeFileSync(out, JSON.stringify(changes, null, 1));
console.log(`${changes.length} changed verdicts written to ${out}`);
