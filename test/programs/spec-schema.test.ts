/**
 * The spec files against their JSON schema (rules/schemas/program.schema.json, what editors use
 * through `$schema`), checked with a real validator (ajv), and the schema against the run-time
 * checker (src/programs/check-spec.ts): the same fields, the same bad specs rejected by both.
 * Also: every file is in the canonical form scripts/specs/normalise.mjs writes, and docs/specs.md
 * describes every field of the schema.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { CLASSES, COMPACT_OPTIONS, EXAMPLE_FIELDS, EXTRA_OPS, OPTION_FIELDS, ROLES, SPEC_FIELDS } from '../../src/programs/check-spec.js';
import { loadSpecDir, PROGRAMS_DIR, RULES_DIR } from '../../src/programs/load-specs.js';
// @ts-expect-error a plain script, no types
import { canonicalText } from '../../scripts/specs/normalise.mjs';

const ROOT = join(RULES_DIR, '..');
const schema = JSON.parse(readFileSync(join(RULES_DIR, 'schemas/program.schema.json'), 'utf8'));
// strict: a keyword ajv does not know, or one in the wrong place, is an error in the schema.
const validate = new Ajv({ strict: true, allErrors: true }).compile(schema);
const defs = schema.definitions;

function loaderRejects(spec: unknown): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'sg-schema-'));
  writeFileSync(join(dir, 'tool.json'), JSON.stringify(spec));
  try {
    loadSpecDir(dir).get('tool');
    return false;
  } catch {
    return true;
  }
}

const base = { $schema: '../schemas/program.schema.json', summary: 'A tool', class: 'read-only' };

/** Malformed specs, each wrong in one way: the schema and the loader must both reject every one. */
const BAD: [string, object][] = [
  ['no summary', { class: 'read-only' }],
  ['no class', { summary: 'x' }],
  ['a class that is not one', { ...base, class: 'readonly' }],
  ['an unknown field', { ...base, operand: ['read'] }],
  ['a role that is not one', { ...base, operands: ['reed'] }],
  ['lastOperand not a role', { ...base, lastOperand: 'file' }],
  ['an operation that is not one', { ...base, ops: ['Net'] }],
  ['complete naming the documentation (the earlier form)', { ...base, complete: 'GNU tool 1.0 (tool --help)' }],
  ['complete without source', { ...base, complete: true }],
  ['an empty source', { ...base, source: ' ' }],
  ['tags not words', { ...base, tags: ['Shell'] }],
  ['optionSyntax not one', { ...base, optionSyntax: 'posix' }],
  ['optionsFirst not a boolean', { ...base, optionsFirst: 'yes' }],
  ['a relative path in reads', { ...base, reads: ['etc/passwd'] }],
  ['inheritOptions at the top', { ...base, inheritOptions: true }],
  ['inheritOptions false', { ...base, subcommands: { run: { summary: 'r', class: 'read-only', inheritOptions: false } } }],
  ['an option name without a dash', { ...base, options: { o: 'flag' } }],
  ['"--" as an option', { ...base, options: { '--': 'flag' } }],
  ['an option word that is not one', { ...base, options: { '-o': 'values' } }],
  ['an option that is a list', { ...base, options: { '-o': ['value'] } }],
  ['an unknown option field', { ...base, options: { '-o': { valu: true } } }],
  ['value maybe', { ...base, options: { '-o': { value: 'maybe' } } }],
  ['values with one role', { ...base, options: { '-o': { values: ['text'] } } }],
  ['an option role that is not one', { ...base, options: { '-o': { value: true, role: 'file' } } }],
  ['an empty named', { ...base, options: { '-o': { named: '' } } }],
  ['an example without level', { ...base, examples: [{ command: 'tool x' }] }],
  ['an example level that is not one', { ...base, examples: [{ command: 'tool x', level: 'block' }] }],
  ['an example with an unknown field', { ...base, examples: [{ command: 'tool x', level: 'allow', op: ['Read x'] }] }],
  ['examples not a list', { ...base, examples: { command: 'tool x', level: 'allow' } }],
  ['a bad subcommand', { ...base, subcommands: { run: { summary: 'r', class: 'sometimes' } } }],
  ['a subcommand with $schema', { ...base, subcommands: { run: { $schema: 'x', summary: 'r', class: 'read-only' } } }],
  ['an alias with another field', { $schema: base.$schema, alias: 'cat', class: 'read-only' }],
  ['a subcommand alias with another field', { ...base, subcommands: { run: base, r: { alias: 'run', summary: 'r' } } }],
];

describe('the spec schema', () => {
  it('accepts every built-in spec file', () => {
    const rejected: string[] = [];
    for (const f of readdirSync(PROGRAMS_DIR).filter((x) => x.endsWith('.json'))) {
      if (!validate(JSON.parse(readFileSync(join(PROGRAMS_DIR, f), 'utf8')))) rejected.push(`${f}: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    }
    expect(rejected).toEqual([]);
  });

  it('accepts the compact and full forms of an option, aliases and subcommands', () => {
    const good = {
      ...base,
      source: 'tool 1.0 (tool --help)',
      complete: true,
      tags: ['shell', 'network-fetcher'],
      options: { '-a': 'flag', '-I': 'value', '--color': 'value?', '-o': { value: true, role: 'write', class: 'mutating' }, '+x': {} },
      examples: [{ command: 'tool -a', level: 'allow', ops: [], rules: [] }],
      subcommands: { run: { summary: 'r', class: 'unknown', inheritOptions: true, ops: ['Exec'] }, r: { alias: 'run' } },
    };
    expect(validate(good), JSON.stringify(validate.errors)).toBe(true);
    expect(loaderRejects(good)).toBe(false);
    expect(validate({ $schema: base.$schema, alias: 'grep' })).toBe(true);
  });

  it.each(BAD)('rejects %s, and so does the loader', (_what, spec) => {
    expect(validate(spec)).toBe(false);
    expect(loaderRejects(spec)).toBe(true);
  });

  it('knows the same fields, words and roles as the run-time checker', () => {
    expect(Object.keys(defs.spec.properties)).toEqual(['$schema', ...SPEC_FIELDS]);
    expect(Object.keys(defs.optionObject.properties).sort()).toEqual([...OPTION_FIELDS].sort());
    expect(Object.keys(defs.example.properties)).toEqual([...EXAMPLE_FIELDS]);
    expect(defs.option.anyOf[0].enum).toEqual(Object.keys(COMPACT_OPTIONS));
    expect(defs.role.enum).toEqual([...ROLES]);
    expect(defs.class.enum).toEqual([...CLASSES]);
    expect(defs.extraOp.enum).toEqual([...EXTRA_OPS]);
  });
});

describe('spec files in canonical form', () => {
  it('every file is as scripts/specs/normalise.mjs writes it (run it to fix a hand edit)', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/specs/normalise.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('the normaliser writes compact options, the fields in schema order, and changes nothing the second time', () => {
    const messy = JSON.stringify({
      class: 'read-only',
      options: { '-a': {}, '-I': { value: true }, '--color': { value: 'optional' }, '-o': { role: 'write', value: true } },
      complete: 'tool 1.0 (tool --help)',
      summary: 'A tool',
      subcommands: { run: { class: 'read-only', summary: 'r' } },
    });
    const once = canonicalText(messy);
    expect(once).toBe(
      [
        '{',
        '  "$schema": "../schemas/program.schema.json",',
        '  "summary": "A tool",',
        '  "source": "tool 1.0 (tool --help)",',
        '  "complete": true,',
        '  "class": "read-only",',
        '  "options": {',
        '    "-a": "flag",',
        '    "-I": "value",',
        '    "--color": "value?",',
        '    "-o": {"value": true, "role": "write"}',
        '  },',
        '  "subcommands": {',
        '    "run": {"summary": "r", "class": "read-only"}',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    expect(canonicalText(once)).toBe(once);
    expect(() => canonicalText(JSON.stringify({ ...base, operand: [] }))).toThrow(/unknown field\(s\) operand/);
  });
});

describe('docs/specs.md', () => {
  it('describes every field of a spec, an option and an example', () => {
    const doc = readFileSync(join(ROOT, 'docs/specs.md'), 'utf8');
    // Field tables: rows that start with | `name` |.
    const documented = new Set([...doc.matchAll(/^\| `([$\w]+)` \|/gm)].map((m) => m[1]));
    const fields = [
      ...Object.keys(defs.spec.properties),
      ...Object.keys(defs.optionObject.properties),
      ...Object.keys(defs.example.properties),
      ...Object.keys(defs.walk.properties),
    ];
    expect(fields.filter((f) => !documented.has(f))).toEqual([]);
    expect([...documented].filter((f) => !fields.includes(f) && f !== 'alias')).toEqual([]);
  });
});
