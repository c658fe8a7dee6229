/**
 * The run-time check of one program's spec, and its normalisation to the form the analyser reads
 * (compact options become objects, inherited options are merged, subcommand aliases resolved).
 *
 * Why hand-written and not the JSON schema (rules/schemas/program.schema.json): it runs with no
 * dependency (ajv is a devDependency), costs nothing at start-up, and names the file, program,
 * subcommand, option and field in one sentence. test/programs/spec-schema.test.ts keeps the two
 * from drifting: the same field names, and the same bad specs rejected by both.
 */
import { ShellgateError } from '../errors.js';
import type { ArgRole, CommandClass, CommandSpec, CompactOption, ExtraOp, OptionSpec, ProgramTag } from './spec-types.js';

export const ROLES: ReadonlySet<ArgRole> = new Set([
  'read',
  'write',
  'append',
  'delete',
  'list',
  'exec',
  'url',
  'host',
  'text',
  'mode',
  'command',
  'shell-string',
  'code',
  'chdir',
]);
/** What a program can be (src/programs/registry.ts `tagged`). */
export const PROGRAM_TAGS: ReadonlySet<ProgramTag> = new Set([
  'wrapper',
  'shell',
  'posix-shell',
  'same-shell',
  'interpreter',
  'privilege',
  'runs-as-root',
  'network-fetcher',
  'decoder',
  'file-edit',
]);
export const CLASSES: ReadonlySet<CommandClass> = new Set(['read-only', 'mutating', 'unknown']);
export const EXTRA_OPS: ReadonlySet<ExtraOp> = new Set(['Network', 'Privilege', 'Env', 'Process', 'System', 'Exec']);

/** The fields a spec may have (the schema's `spec` properties, `$schema` aside). */
export const SPEC_FIELDS: readonly string[] = [
  'summary',
  'source',
  'complete',
  'class',
  'tags',
  'operands',
  'lastOperand',
  'language',
  'ops',
  'reads',
  'walk',
  'writes',
  'optionSyntax',
  'optionsFirst',
  'help',
  'subcommandHelp',
  'inheritOptions',
  'options',
  'examples',
  'subcommands',
];

/** The fields an option object may have (the schema's `option` properties). */
export const OPTION_FIELDS: readonly string[] = ['value', 'values', 'role', 'language', 'operands', 'class', 'ops', 'reads', 'named'];

/** The fields of an example (the schema's `example` properties). */
export const EXAMPLE_FIELDS: readonly string[] = ['command', 'level', 'ops', 'rules'];

/** What each one-word option stands for. A fresh object each time: specs are mutated while checked. */
export const COMPACT_OPTIONS: Readonly<Record<CompactOption, () => OptionSpec>> = {
  flag: () => ({}),
  value: () => ({ value: true }),
  'value?': () => ({ value: 'optional' }),
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `{ "alias": NAME }`: another name for a program or subcommand. */
export function isAlias(v: unknown): v is { alias: string } {
  return isObject(v) && typeof v.alias === 'string';
}

/** `{ "alias": NAME }` and nothing else (whether NAME exists is the caller's to check). */
export function checkAlias(v: { alias: string }, where: string): void {
  checkKnownFields(v, ['alias', 'tags'], where, 'an alias');
  checkTags((v as Record<string, unknown>).tags, where);
}

/** A file that only says what a program is (`"tagsOnly": true`): the program has no spec. */
export function isTagsOnly(v: unknown): v is { summary: string; tagsOnly: true; tags: string[] } {
  return isObject(v) && v.tagsOnly === true;
}

/** `{ "summary", "tagsOnly": true, "tags" }` and nothing else. */
export function checkTagsOnly(v: Record<string, unknown>, where: string): void {
  checkKnownFields(v, ['summary', 'tagsOnly', 'tags'], where, 'a tagsOnly file (it has no spec)');
  if (typeof v.summary !== 'string') fail(where, 'summary', 'must be a string');
  checkTags(v.tags, where);
}

function checkTags(tags: unknown, where: string): void {
  if (tags === undefined) return;
  if (!Array.isArray(tags) || tags.some((t) => !PROGRAM_TAGS.has(t as ProgramTag))) fail(where, 'tags', `must be a list of ${[...PROGRAM_TAGS].join(', ')}`);
}

function fail(where: string, field: string, what: string): never {
  throw new ShellgateError('config', `${where}: field "${field}" ${what}`);
}

function checkKnownFields(v: Record<string, unknown>, known: readonly string[], where: string, what: string): void {
  for (const k of Object.keys(v)) if (!known.includes(k)) fail(where, k, `is not a field of ${what} (known: ${known.join(', ')})`);
}

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/**
 * Check a spec (a program's, or a subcommand's with its parent's options) and return it in the
 * analyser's form. `where` starts every message: `rules/programs/ls.json: program "ls"`.
 */
export function checkSpec(v: unknown, where: string, parentOptions?: Record<string, OptionSpec>): CommandSpec {
  if (!isObject(v)) fail(where, '(spec)', 'must be an object');
  checkKnownFields(v, SPEC_FIELDS, where, 'a spec');
  checkScalars(v, where);
  if (v.options !== undefined) {
    if (!isObject(v.options)) fail(where, 'options', 'must be an object');
    for (const [opt, o] of Object.entries(v.options)) v.options[opt] = checkOption(o, `${where} option "${opt}"`, opt);
  }
  if (v.examples !== undefined) checkExamples(v.examples, where);
  if (v.inheritOptions !== undefined) {
    if (v.inheritOptions !== true) fail(where, 'inheritOptions', 'must be true when given');
    if (parentOptions === undefined) fail(where, 'inheritOptions', 'only applies to a subcommand');
    v.options = { ...parentOptions, ...((v.options as Record<string, OptionSpec> | undefined) ?? {}) };
    delete v.inheritOptions;
  }
  if (v.subcommands !== undefined) v.subcommands = checkSubcommands(v.subcommands, where, (v.options as Record<string, OptionSpec> | undefined) ?? {});
  return v as unknown as CommandSpec;
}

/** The fields that hold one value or a list of words. */
function checkScalars(v: Record<string, unknown>, where: string): void {
  if (typeof v.summary !== 'string') fail(where, 'summary', 'must be a string');
  if (!CLASSES.has(v.class as CommandClass)) fail(where, 'class', `must be one of ${[...CLASSES].join(', ')}`);
  if (v.source !== undefined && (typeof v.source !== 'string' || !/\S/.test(v.source)))
    fail(where, 'source', 'must name the documentation and version the options came from');
  if (v.complete !== undefined && typeof v.complete !== 'boolean') fail(where, 'complete', 'must be true or false (the documentation goes in "source")');
  if (v.complete === true && v.source === undefined) fail(where, 'complete', 'needs a "source": the documentation the table was checked against');
  checkTags(v.tags, where);
  if (v.operands !== undefined) {
    if (!Array.isArray(v.operands) || v.operands.some((r) => !ROLES.has(r as ArgRole))) fail(where, 'operands', 'must be a list of roles');
  }
  if (v.lastOperand !== undefined && !ROLES.has(v.lastOperand as ArgRole)) fail(where, 'lastOperand', 'must be a role');
  checkLanguage(v.language, where);
  if (v.ops !== undefined && (!Array.isArray(v.ops) || v.ops.some((o) => !EXTRA_OPS.has(o as ExtraOp)))) {
    fail(where, 'ops', `must be a list of ${[...EXTRA_OPS].join(', ')}`);
  }
  if (v.optionSyntax !== undefined && !['getopt', 'echo', 'none'].includes(v.optionSyntax as string))
    fail(where, 'optionSyntax', 'must be getopt, echo or none');
  if (v.optionsFirst !== undefined && typeof v.optionsFirst !== 'boolean') fail(where, 'optionsFirst', 'must be true or false');
  if (v.reads !== undefined) checkReads(v.reads, where);
  if (v.walk !== undefined) checkWalk(v.walk, where);
  if (v.writes !== undefined) checkReads(v.writes, where, 'writes');
  for (const f of ['help', 'subcommandHelp'] as const) {
    const list = v[f];
    if (list !== undefined && (!isStringList(list) || list.some((h) => !/^[-+]./.test(h))))
      fail(where, f, 'must be a list of option spellings (`--help`, `-h`, `--version`)');
  }
}

function checkExamples(examples: unknown, where: string): void {
  if (!Array.isArray(examples)) fail(where, 'examples', 'must be a list');
  examples.forEach((e, k) => {
    const at = `${where} example ${k + 1}`;
    if (!isObject(e) || typeof e.command !== 'string') fail(at, 'command', 'must be a string');
    checkKnownFields(e, EXAMPLE_FIELDS, at, 'an example');
    if (!['allow', 'ask', 'deny'].includes(e.level as string)) fail(at, 'level', 'must be allow, ask or deny');
    for (const f of ['ops', 'rules'] as const) {
      if (e[f] !== undefined && !isStringList(e[f])) fail(at, f, 'must be a list of strings');
    }
  });
}

/** Each subcommand checked with its parent's options; then `{ "alias": "other" }` entries share it. */
function checkSubcommands(subcommands: unknown, where: string, parentOptions: Record<string, OptionSpec>): Record<string, CommandSpec> {
  if (!isObject(subcommands)) fail(where, 'subcommands', 'must be an object');
  const subs: Record<string, CommandSpec> = {};
  for (const [sub, s] of Object.entries(subcommands)) {
    if (isAlias(s)) continue;
    subs[sub] = checkSpec(s, `${where} subcommand "${sub}"`, parentOptions);
  }
  for (const [sub, s] of Object.entries(subcommands)) {
    if (!isAlias(s)) continue;
    checkAlias(s, `${where} subcommand "${sub}"`);
    if (!subs[s.alias]) fail(`${where} subcommand "${sub}"`, 'alias', `names no subcommand "${s.alias}"`);
    subs[sub] = subs[s.alias];
  }
  return subs;
}

function checkReads(reads: unknown, where: string, field: 'reads' | 'writes' = 'reads'): void {
  if (!Array.isArray(reads) || reads.some((p) => typeof p !== 'string' || !(p.startsWith('/') || p.startsWith('~/')))) {
    fail(where, field, 'must be a list of absolute or ~/ paths');
  }
}

/**
 * A walk declaration (spec-types.ts WalkSpec): every option it names is in the spec's own table,
 * so a misspelt one cannot silently leave a walk undeclared.
 */
function checkWalk(walk: unknown, where: string): void {
  if (!isObject(walk) || typeof walk.followsLinks !== 'boolean' || typeof walk.recursive !== 'boolean')
    return fail(where, 'walk', 'must be an object with recursive and followsLinks');
  const known = (v: unknown) => typeof v === 'string' && /^[-+]./.test(v);
  if (walk.hidden !== undefined && (!Array.isArray(walk.hidden) || !walk.hidden.every(known))) fail(where, 'walk.hidden', 'must be a list of options');
  for (const k of ['recursion', 'links'] as const) {
    const map = walk[k];
    if (map !== undefined && (!isObject(map) || !Object.entries(map).every(([o, v]) => known(o) && typeof v === 'boolean')))
      fail(where, `walk.${k}`, 'must map options to true or false');
  }
}

/** One option, in the full form: a compact word becomes its object. */
/** A `code` role's language, when given: a non-empty name (`python`, `javascript`…). */
function checkLanguage(language: unknown, where: string): void {
  if (language !== undefined && (typeof language !== 'string' || !/\S/.test(language))) fail(where, 'language', 'must name the language of the code');
}

/** What an option may be written as, for the message when it is neither. */
const COMPACT_WORDS = `must be an object or one of ${Object.keys(COMPACT_OPTIONS)
  .map((w) => `"${w}"`)
  .join(', ')}`;

function checkOption(o: unknown, where: string, name: string): OptionSpec {
  if (!name.startsWith('-') && !name.startsWith('+')) fail(where, '(name)', 'must start with "-"');
  if (name === '--') fail(where, '(name)', '"--" ends options; it is not one');
  if (typeof o === 'string') {
    if (!Object.hasOwn(COMPACT_OPTIONS, o)) fail(where, '(spec)', COMPACT_WORDS);
    return COMPACT_OPTIONS[o as CompactOption]();
  }
  if (!isObject(o)) fail(where, '(spec)', COMPACT_WORDS);
  checkKnownFields(o, OPTION_FIELDS, where, 'an option');
  if (o.value !== undefined && typeof o.value !== 'boolean' && o.value !== 'optional') fail(where, 'value', 'must be true, false or "optional"');
  if (o.role !== undefined && !ROLES.has(o.role as ArgRole)) fail(where, 'role', 'must be a role');
  checkLanguage(o.language, where);
  if (o.values !== undefined && (!Array.isArray(o.values) || o.values.length < 2 || o.values.some((r) => !ROLES.has(r as ArgRole))))
    fail(where, 'values', 'must be a list of two or more roles');
  if (o.reads !== undefined) checkReads(o.reads, where);
  if (o.class !== undefined && !CLASSES.has(o.class as CommandClass)) fail(where, 'class', 'must be a class');
  if (o.operands !== undefined && !ROLES.has(o.operands as ArgRole)) fail(where, 'operands', 'must be a role');
  if (o.ops !== undefined && (!Array.isArray(o.ops) || o.ops.some((x) => !EXTRA_OPS.has(x as ExtraOp))))
    fail(where, 'ops', 'must be a list of operation kinds');
  if (o.named !== undefined && (typeof o.named !== 'string' || !/\S/.test(o.named))) fail(where, 'named', 'must say why the option must be named');
  return o as OptionSpec;
}
