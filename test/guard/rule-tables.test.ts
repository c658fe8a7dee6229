/**
 * The docs' rule tables are made from the rule files (scripts/gen-rule-tables.mjs): README's summary
 * per category and docs/rules.md's table of every rule must be what the rules say now, and README's
 * hand-written category table must name exactly the built-in categories.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUARD_CATEGORIES } from '../../src/guard/rule-types.js';
// @ts-expect-error: a script library without types
import { builtinRules, ruleTable, summaryTable, SUMMARY, TABLE, withSection } from '../../scripts/lib/rule-tables.mjs';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const files = builtinRules(root);
const REGENERATE = 'stale: run node scripts/gen-rule-tables.mjs';

describe('rule tables in the docs', () => {
  it('README summary and docs/rules.md list every built-in rule as the rule files say', () => {
    expect(withSection(readme, SUMMARY, summaryTable(files), 'README.md'), REGENERATE).toBe(readme);
    const doc = readFileSync(join(root, 'docs', 'rules.md'), 'utf8');
    expect(withSection(doc, TABLE, ruleTable(files), 'docs/rules.md'), REGENERATE).toBe(doc);
    for (const f of files) for (const r of f.rules) expect(doc).toContain(`\`${r.id}\``);
  });

  it("README's category table names exactly the built-in categories, each with rules", () => {
    const table = readme.slice(readme.indexOf('<!-- category-table -->'), readme.indexOf('<!-- /category-table -->'));
    const named = [...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(named.sort()).toEqual([...GUARD_CATEGORIES].sort());
    for (const c of GUARD_CATEGORIES) expect(files.find((f: { category: string }) => f.category === c)?.rules.length, c).toBeGreaterThan(0);
  });
});
