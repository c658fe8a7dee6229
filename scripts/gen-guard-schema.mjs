#!/usr/bin/env node
/**
 * Regenerate the guard rules' JSON schema and the field reference of their documentation from the
 * field tables, after a field of the match language was added or changed:
 *
 *   npx tsc -p tsconfig.json && node scripts/gen-guard-schema.mjs          # write both
 *   node scripts/gen-guard-schema.mjs --check                              # exit 1 when either is stale
 *
 * Reads the built tables from dist/ (dist/guard/match-fields.js, dist/guard/rule-fields.js: build
 * first), and writes
 *   - rules/schemas/guard-rules.schema.json (draft-07), which every rules/builtin/*.json names in
 *     its `$schema` so editors complete and check fields;
 *   - the section of docs/guard-rules.md between its field-reference markers.
 * test/guard/rule-schema.test.ts fails when either differs from what the source tables give, and
 * validates every built-in rule file against the schema (with ajv).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fieldReference, guardRulesSchema, withReference } from './lib/guard-schema.mjs';

const root = join(import.meta.dirname, '..');
const check = process.argv.includes('--check');
const tables = {
  ...(await import(join(root, 'dist', 'guard', 'match-fields.js'))),
  ...(await import(join(root, 'dist', 'guard', 'rule-fields.js'))),
};

const outputs = [
  [join(root, 'rules', 'schemas', 'guard-rules.schema.json'), () => JSON.stringify(guardRulesSchema(tables), null, 2) + '\n'],
  [join(root, 'docs', 'guard-rules.md'), (old) => withReference(old, fieldReference(tables))],
];

let stale = 0;
for (const [file, make] of outputs) {
  let old = '';
  try {
    old = readFileSync(file, 'utf8');
  } catch {
    // A first run writes the schema.
  }
  const text = make(old);
  if (text === old) continue;
  stale++;
  if (check) console.error(`${file}: stale (run node scripts/gen-guard-schema.mjs)`);
  else {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}
if (check && stale > 0) process.exit(1);
