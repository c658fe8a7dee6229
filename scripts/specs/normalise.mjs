// Rewrite command spec files in their canonical form, or check that they are in it.
//
//   node scripts/specs/normalise.mjs [--check] [FILE|DIR…]     (default: rules/programs/)
//
// The canonical form (docs/specs.md): `$schema` first, then the fields in the order of the
// schema's properties (rules/schemas/program.schema.json, so a new field is placed by adding it
// there); an option that has nothing but a value is one word (`"flag"`, `"value"`, `"value?"`);
// a spec, its `options`, `subcommands` and `examples` one entry per line, everything else (an
// option object, an example, a list of words, a subcommand with none of those three) on one line; two spaces of indent; a final newline.
// The order of options and subcommands is kept: it is the reviewer's order. An earlier form,
// `"complete": "DOCS (cmd)"`, becomes `"source": "DOCS (cmd)", "complete": true`.
//
// Running it twice changes nothing. `--check` writes nothing, lists the files that are not
// canonical and exits 1 if there is one (test/programs/spec-files.test.ts runs it, so a hand
// edit that is not canonical fails the tests: run the script without --check to fix it).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCHEMA_FILE = join(ROOT, 'rules/schemas/program.schema.json');
export const SCHEMA_REF = '../schemas/program.schema.json';

const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));
/** Field orders, from the schema: one place for a new field. */
const ORDER = {
  spec: Object.keys(schema.definitions.spec.properties),
  alias: Object.keys(schema.definitions.alias.properties),
  tagsOnly: Object.keys(schema.definitions.tagsOnly.properties),
  option: Object.keys(schema.definitions.optionObject.properties),
  example: Object.keys(schema.definitions.example.properties),
};

/** The one-word options and the objects they stand for (check-spec.ts COMPACT_OPTIONS). */
const COMPACT = [
  ['flag', {}],
  ['value', { value: true }],
  ['value?', { value: 'optional' }],
];

function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The keys of `v` in `order`; a key the order does not know is an error (the file is wrong). */
function ordered(v, order, where) {
  const unknown = Object.keys(v).filter((k) => !order.includes(k));
  if (unknown.length > 0) throw new Error(`${where}: unknown field(s) ${unknown.join(', ')}`);
  return order.filter((k) => Object.hasOwn(v, k));
}

/** JSON on one line with a space after `:` and `,` (how option objects and examples are read). */
function inline(v) {
  if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`;
  if (isObject(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`)
      .join(', ')}}`;
  return JSON.stringify(v);
}

function canonicalOption(o, where) {
  if (typeof o === 'string') return o;
  if (!isObject(o)) throw new Error(`${where}: an option must be an object or a word`);
  const out = {};
  for (const k of ordered(o, ORDER.option, where)) out[k] = o[k];
  const word = COMPACT.find(([, full]) => inline(full) === inline(out));
  return word ? word[0] : out;
}

function canonicalSpec(v, where, top) {
  if (!isObject(v)) throw new Error(`${where}: a spec must be an object`);
  if (typeof v.alias === 'string' || v.tagsOnly === true) {
    const out = {};
    for (const k of ordered(v, v.tagsOnly === true ? ORDER.tagsOnly : ORDER.alias, where)) out[k] = v[k];
    return out;
  }
  const spec = { ...v };
  // The earlier form: `complete` named the documentation.
  if (typeof spec.complete === 'string') {
    spec.source ??= spec.complete;
    spec.complete = true;
  }
  if (top) spec.$schema = SCHEMA_REF;
  const out = {};
  for (const k of ordered(spec, ORDER.spec, where)) out[k] = spec[k];
  if (isObject(out.options)) {
    out.options = Object.fromEntries(Object.entries(out.options).map(([n, o]) => [n, canonicalOption(o, `${where} option ${n}`)]));
  }
  if (Array.isArray(out.examples)) {
    out.examples = out.examples.map((e, k) =>
      isObject(e) ? Object.fromEntries(ordered(e, ORDER.example, `${where} example ${k + 1}`).map((f) => [f, e[f]])) : e,
    );
  }
  if (isObject(out.subcommands)) {
    out.subcommands = Object.fromEntries(Object.entries(out.subcommands).map(([n, s]) => [n, canonicalSpec(s, `${where} ${n}`, false)]));
  }
  return out;
}

/** A subcommand with no table of its own (no options, subcommands or examples) reads best on one line. */
function isLeaf(spec) {
  return ['options', 'subcommands', 'examples'].every((k) => spec[k] === undefined || Object.keys(spec[k]).length === 0);
}

/** A spec written out: the maps and lists of entries one per line, their entries on one line. */
function render(spec, indent) {
  const pad = ' '.repeat(indent + 2);
  if (typeof spec.alias === 'string' || (indent > 0 && isLeaf(spec))) return inline(spec);
  const lines = Object.entries(spec).map(([k, v]) => {
    const key = JSON.stringify(k);
    if ((k === 'options' || k === 'subcommands') && isObject(v) && Object.keys(v).length > 0) {
      const inner = ' '.repeat(indent + 4);
      const entries = Object.entries(v).map(([n, x]) => `${inner}${JSON.stringify(n)}: ${k === 'subcommands' ? render(x, indent + 4) : inline(x)}`);
      return `${pad}${key}: {\n${entries.join(',\n')}\n${pad}}`;
    }
    if (k === 'examples' && Array.isArray(v) && v.length > 0) {
      const inner = ' '.repeat(indent + 4);
      return `${pad}${key}: [\n${v.map((e) => inner + inline(e)).join(',\n')}\n${pad}]`;
    }
    return `${pad}${key}: ${inline(v)}`;
  });
  return `{\n${lines.join(',\n')}\n${' '.repeat(indent)}}`;
}

/** The canonical text of a spec file. */
export function canonicalText(text, where = 'spec') {
  const spec = canonicalSpec(JSON.parse(text), where, true);
  if (typeof spec.alias === 'string') return inline({ $schema: SCHEMA_REF, ...spec }) + '\n';
  return render(spec, 0) + '\n';
}

function filesOf(paths) {
  return paths.flatMap((p) =>
    statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => join(p, f))
      : [p],
  );
}

function main(argv) {
  const check = argv.includes('--check');
  const paths = argv.filter((a) => a !== '--check');
  const files = filesOf(paths.length > 0 ? paths : [join(ROOT, 'rules/programs')]);
  const off = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    let canonical;
    try {
      canonical = canonicalText(text, file);
    } catch (e) {
      console.error(`${file}: ${e.message}`);
      return 2;
    }
    if (canonical === text) continue;
    off.push(file);
    if (!check) writeFileSync(file, canonical);
  }
  if (check) {
    for (const f of off) console.log(`not canonical: ${f}`);
    if (off.length > 0) console.log(`${off.length} file(s) not canonical: run node scripts/specs/normalise.mjs`);
    return off.length > 0 ? 1 : 0;
  }
  console.log(`${files.length} file(s) read, ${off.length} rewritten`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
