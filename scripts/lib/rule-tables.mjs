// The rule tables of the docs, made from the built-in rule files: README's summary per category
// (how many rules, at which level, which MITRE ATT&CK techniques) and docs/rules.md's table of every
// rule. scripts/gen-rule-tables.mjs writes them; test/guard/rule-tables.test.ts fails when either is
// stale. Read straight from rules/builtin/ (no build needed).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SUMMARY = ['<!-- rule-summary -->', '<!-- /rule-summary -->'];
export const TABLE = ['<!-- rule-table -->', '<!-- /rule-table -->'];

/** Built-in rules by category file, in file order. */
export function builtinRules(root) {
  const dir = join(root, 'rules', 'builtin');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== '_lists.json')
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
}

const techniques = (rules) => [...new Set(rules.flatMap((r) => r.attack ?? []))].sort();
const cell = (s) => s.replace(/\|/g, '\\|');

export function summaryTable(files) {
  const rows = files.map((f) => {
    const deny = f.rules.filter((r) => r.level === 'deny').length;
    return `| \`${f.category}\` | ${f.rules.length} | ${deny} | ${f.rules.length - deny} | ${techniques(f.rules).join(', ')} |`;
  });
  const all = files.flatMap((f) => f.rules);
  const deny = all.filter((r) => r.level === 'deny').length;
  return [
    '| category | rules | deny | ask | MITRE ATT&CK techniques |',
    '|---|---|---|---|---|',
    ...rows,
    `| all | ${all.length} | ${deny} | ${all.length - deny} | ${techniques(all).length} techniques |`,
  ].join('\n');
}

export function ruleTable(files) {
  return files
    .map((f) =>
      [
        `### ${f.category}`,
        '',
        '| rule | level | ATT&CK | what it catches |',
        '|---|---|---|---|',
        ...f.rules.map((r) => `| \`${r.id}\` | ${r.level} | ${(r.attack ?? []).join(', ')} | ${cell(r.message)} |`),
      ].join('\n'),
    )
    .join('\n\n');
}

/** `doc` with the text between `markers` replaced (throws when the markers are missing). */
export function withSection(doc, markers, body, name) {
  const [open, close] = markers;
  const begin = doc.indexOf(open);
  const end = doc.indexOf(close);
  if (begin < 0 || end < begin) throw new Error(`${name}: the markers ${open} … ${close} are missing`);
  return `${doc.slice(0, begin + open.length)}\n${body}\n${doc.slice(end)}`;
}
