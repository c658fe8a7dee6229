#!/usr/bin/env node
/**
 * Regenerate the rule tables of the docs from rules/builtin/ after a rule was added, moved or
 * changed level:
 *
 *   node scripts/gen-rule-tables.mjs           # write README.md's summary and docs/rules.md's table
 *   node scripts/gen-rule-tables.mjs --check   # exit 1 when either is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinRules, ruleTable, summaryTable, SUMMARY, TABLE, withSection } from './lib/rule-tables.mjs';

const root = join(import.meta.dirname, '..');
const files = builtinRules(root);
const outputs = [
  [join(root, 'README.md'), SUMMARY, summaryTable(files)],
  [join(root, 'docs', 'rules.md'), TABLE, ruleTable(files)],
];
let stale = 0;
for (const [file, markers, body] of outputs) {
  const old = readFileSync(file, 'utf8');
  const now = withSection(old, markers, body, file);
  if (now === old) continue;
  stale++;
  if (process.argv.includes('--check')) console.error(`${file} is stale: run node scripts/gen-rule-tables.mjs`);
  else {
    writeFileSync(file, now);
    console.log(`wrote ${file}`);
  }
}
process.exit(process.argv.includes('--check') && stale > 0 ? 1 : 0);
