/**
 * The JSON schema of guard rule files (rules/schemas/guard-rules.schema.json) is generated from the
 * match language's field table: it must be the one the table gives now (a field added without
 * regenerating fails here), it must accept every built-in rule file, and it must reject malformed
 * rules, or editors would check nothing. The field reference of docs/guard-rules.md likewise.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import * as matchFields from '../../src/guard/match-fields.js';
import * as ruleFields from '../../src/guard/rule-fields.js';
import { loadDefinitions, loadRuleFile } from '../../src/guard/load-rules.js';
// @ts-expect-error: a script library without types
import { fieldReference, guardRulesSchema, referenceOf } from '../../scripts/lib/guard-schema.mjs';

const root = join(import.meta.dirname, '..', '..');
const builtin = join(root, 'rules', 'builtin');
const tables = { ...matchFields, ...ruleFields };
const committed = JSON.parse(readFileSync(join(root, 'rules', 'schemas', 'guard-rules.schema.json'), 'utf8'));
const REGENERATE = 'run: npx tsc -p tsconfig.json && node scripts/gen-guard-schema.mjs';

// Draft-07 (ajv's default), strict: a keyword ajv does not know is an error, not ignored.
const ajv = new Ajv({ allErrors: true, strict: true });
const validate = ajv.compile(committed);
const errorsOf = (data: unknown): string[] => (validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));

const good = {
  id: 'team/no-terraform-destroy',
  level: 'deny',
  message: 'terraform destroy tears down infrastructure',
  rationale: 'Our agents never destroy infrastructure.',
  match: { program: 'terraform', subcommand: 'destroy' },
  examples: { match: ['terraform destroy'], noMatch: ['terraform plan'] },
};
const fileWith = (rule: object) => ({ $schema: '../schemas/guard-rules.schema.json', category: 'team', rules: [rule] });
const withMatch = (match: object) => fileWith({ ...good, match });

describe('the guard rule schema', () => {
  it('is the one the field table generates', () => {
    expect(committed, REGENERATE).toEqual(guardRulesSchema(tables));
  });

  it('has every matcher, operation and context field, each with its doc line', () => {
    const defs = committed.definitions;
    for (const [table, def] of [
      [matchFields.MATCH_FIELDS, defs.matcher],
      [matchFields.OP_FIELDS, defs.op],
      [matchFields.CONTEXT_FIELDS, defs.context],
    ] as const) {
      expect(Object.keys(def.properties)).toEqual(Object.keys(table));
      for (const [name, f] of Object.entries(table)) {
        expect(f.doc.length, name).toBeGreaterThan(10);
        expect(def.properties[name].description).toBe(f.doc);
      }
    }
  });

  it('accepts every built-in rule file and _lists.json, each of which names it', () => {
    const files = readdirSync(builtin).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const data = JSON.parse(readFileSync(join(builtin, f), 'utf8'));
      expect(data.$schema, f).toBe('../schemas/guard-rules.schema.json');
      expect(errorsOf(data), f).toEqual([]);
    }
  });

  it('accepts a well-formed user rule file', () => {
    expect(errorsOf(fileWith(good))).toEqual([]);
    expect(errorsOf(withMatch({ any: [{ op: { kind: ['Write', 'Delete'], class: 'system' } }, { context: { privileged: true } }] }))).toEqual([]);
  });

  it('rejects malformed rules: unknown fields, wrong types, unknown names', () => {
    const bad: [string, unknown][] = [
      ['an unknown matcher field', withMatch({ program: 'x', colour: 'red' })],
      ['an unknown rule field', fileWith({ ...good, severity: 'high' })],
      ['an unknown file field', { ...fileWith(good), version: 2 }],
      ['a program that is a number', withMatch({ program: 42 })],
      ['flags that are not lists of lists', withMatch({ flags: ['-r'] })],
      ['execsStdin that is not a boolean', withMatch({ execsStdin: 'yes' })],
      ['a level that is neither deny nor ask', fileWith({ ...good, level: 'block' })],
      ['a rule without examples', fileWith({ ...good, examples: undefined })],
      ['a message on two lines', fileWith({ ...good, message: 'one\ntwo' })],
      ['an id without its category', fileWith({ ...good, id: 'no-terraform-destroy' })],
      ['an empty matcher', withMatch({})],
      ['an empty any', withMatch({ any: [] })],
      ['an unknown field in a nested matcher', withMatch({ not: { program: 'x', progam: 'y' } })],
      ['an unknown operation kind', withMatch({ op: { kind: 'Frobnicate' } })],
      ['an unknown operation field', withMatch({ op: { kind: 'Read', file: '/etc' } })],
      ['an unknown context field', withMatch({ context: { sudo: true } })],
      ['after without match', withMatch({ after: { samePath: true } })],
      ['an unknown predicate', withMatch({ predicate: 'no-such-predicate' })],
      ['lists that are not lists of strings', { lists: { shells: 'sh' }, macros: {} }],
    ];
    const accepted = bad.filter(([, data]) => errorsOf(JSON.parse(JSON.stringify(data))).length === 0).map(([what]) => what);
    expect(accepted).toEqual([]);
  });

  it('agrees with the loader on what it rejects, and the loader ignores $schema', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-schema-'));
    const defs = loadDefinitions(join(builtin, '_lists.json'));
    const load = (data: unknown) => {
      const file = join(dir, 'team.json');
      writeFileSync(file, JSON.stringify(data));
      return () => loadRuleFile(file, defs, () => '/home/u', false);
    };
    expect(load(fileWith(good))()).toHaveLength(1);
    for (const data of [
      withMatch({ program: 'x', colour: 'red' }),
      withMatch({ program: 42 }),
      withMatch({ execsStdin: 'yes' }),
      withMatch({}),
      withMatch({ context: { sudo: true } }),
    ]) {
      expect(errorsOf(data)).not.toEqual([]);
      expect(load(data)).toThrow(/field "match/);
    }
  });
});

describe('docs/guard-rules.md', () => {
  // Spacing and table rulers are a formatter's to choose: compare the text of each line.
  const normalise = (md: string) =>
    md
      .split('\n')
      .map((l) =>
        l
          .trim()
          .replace(/\s*\|\s*/g, '|')
          .replace(/-{3,}/g, '---')
          .replace(/\s+/g, ' '),
      )
      .filter((l) => l !== '')
      .join('\n');

  it('documents every field as the table says (the generated field reference is current)', () => {
    const doc = readFileSync(join(root, 'docs', 'guard-rules.md'), 'utf8');
    expect(normalise(referenceOf(doc)), REGENERATE).toBe(normalise(fieldReference(tables)));
    for (const name of Object.keys(matchFields.MATCH_FIELDS)) expect(doc).toContain(`| \`${name}\` |`);
  });
});
