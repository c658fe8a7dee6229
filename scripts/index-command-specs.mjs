// Writes rules/commands/index.json (program → file) from the spec files, so the analyser can read
// a spec file only when a program in it is met. Run after editing rules/commands/: npm run specs:index
// (a test fails while the index is out of date).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexSpecDir, RULES_DIR } from '../dist/ops/load-specs.js';

const dir = join(RULES_DIR, 'commands');
const index = indexSpecDir(dir);
const sorted = Object.fromEntries(Object.entries(index).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(join(dir, 'index.json'), JSON.stringify(sorted, null, 1) + '\n');
console.log(`rules/commands/index.json: ${Object.keys(sorted).length} programs`);
