#!/usr/bin/env node
// Writes rules/program-tags.json: program → tags, gathered from the `tags` of every file in
// rules/programs/. The analyser reads this small index at start-up instead of 700 spec files
// (src/programs/registry.ts); the program's own file stays the place a tag is written.
//
//   node scripts/specs/tag-index.mjs           rewrite the index after adding or changing tags
//   node scripts/specs/tag-index.mjs --check   exit 1 when the index is stale (test/programs/registry.test.ts)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PROGRAMS = `${ROOT}rules/programs/`;
export const INDEX_FILE = `${ROOT}rules/program-tags.json`;

/** The program a spec file names (`%5B.json` → `[`), as src/programs/load-specs.ts reads it. */
function programOf(file) {
  return decodeURIComponent(file.slice(0, -'.json'.length));
}

/** The index's text, from the spec files as they are now. */
export function tagIndexText() {
  const index = {};
  for (const f of readdirSync(PROGRAMS)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const { tags } = JSON.parse(readFileSync(PROGRAMS + f, 'utf8'));
    if (Array.isArray(tags) && tags.length > 0) index[programOf(f)] = [...tags].sort();
  }
  const sorted = Object.fromEntries(Object.entries(index).sort(([a], [b]) => (a < b ? -1 : 1)));
  const lines = Object.entries(sorted).map(([p, t]) => `  ${JSON.stringify(p)}: ${JSON.stringify(t).replace(/,/g, ', ')}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = tagIndexText();
  if (process.argv.includes('--check')) {
    let now = '';
    try {
      now = readFileSync(INDEX_FILE, 'utf8');
    } catch {
      // No index yet: it is stale.
    }
    if (now !== text) {
      console.error('rules/program-tags.json is stale: run node scripts/specs/tag-index.mjs');
      process.exit(1);
    }
  } else writeFileSync(INDEX_FILE, text);
}
