/**
 * Load command knowledge (rules/programs/<program>.json, one file per program) and check it at the
 * boundary: a bad file fails with a message naming the file, the program and the field, never
 * later with a stack trace.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ShellgateError } from '../errors.js';
import type { ArgRole, CommandClass, CommandSpec, ExtraOp, OptionSpec } from './spec-types.js';

const ROLES: ReadonlySet<ArgRole> = new Set(['read', 'write', 'append', 'delete', 'list', 'exec', 'url', 'host', 'text', 'mode', 'command']);
const CLASSES: ReadonlySet<CommandClass> = new Set(['read-only', 'mutating', 'unknown']);
const EXTRA_OPS: ReadonlySet<ExtraOp> = new Set(['Network', 'Privilege', 'Env', 'Process', 'System', 'Exec']);

/** rules/ beside dist/ or src/ (both are one level below the package root). */
export const RULES_DIR = fileURLToPath(new URL('../../rules/', import.meta.url));

/** The folder of the built-in specs. */
export const PROGRAMS_DIR = join(RULES_DIR, 'programs');

/** Command specs by program name. */
export interface SpecTable {
  get(program: string): CommandSpec | undefined;
  has(program: string): boolean;
  /** Every program name the table knows. */
  programs(): string[];
  /** The file the program's spec is read from (`rules/programs/cat.json` for built-ins), for explain. */
  fileOf?(program: string): string | undefined;
}

const PACKAGE_ROOT = join(RULES_DIR, '..');

/** Built-in files relative to the package (`rules/programs/x.json`), user files as given. */
function shownFile(file: string): string {
  return file.startsWith(PACKAGE_ROOT + sep) ? relative(PACKAGE_ROOT, file).split(sep).join('/') : file;
}

/**
 * The file name of a program's spec: the name itself where a file name can hold it, other bytes
 * as %XX (`[` → `%5B.json`, `:` → `%3A.json`), and a leading dot too, so `.` and `..` never reach
 * the file system as such.
 */
export function specFileName(program: string): string {
  return program.replace(/[^A-Za-z0-9._+-]|^\./g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')) + '.json';
}

/** The program a spec file describes (the inverse of specFileName), or null for another file. */
export function programOfFile(file: string): string | null {
  if (!file.endsWith('.json')) return null;
  try {
    return decodeURIComponent(file.slice(0, -'.json'.length));
  } catch {
    return null;
  }
}

/** Program → file name of every spec file in a folder: the file name is the index. */
function indexDir(dir: string): Map<string, string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw new ShellgateError('config', `${dir}: cannot read the spec folder (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const index = new Map<string, string>();
  for (const f of names.sort()) {
    const program = programOfFile(f);
    if (program !== null) index.set(program, f);
  }
  return index;
}

let defaultTable: SpecTable | null = null;

/**
 * The built-in specs. They are about 3 MB of JSON: parsing them all would be most of the start-up
 * time, so a program's file is read when the program is first met, and each spec is checked when
 * first used (tests check them all).
 */
export function defaultSpecs(): SpecTable {
  defaultTable ??= lazySpecDir(PROGRAMS_DIR);
  return defaultTable;
}

class LazySpecTable implements SpecTable {
  private readonly checked = new Map<string, CommandSpec>();

  constructor(
    private readonly dir: string,
    private readonly index: Map<string, string>,
  ) {}

  has(program: string): boolean {
    return this.index.has(program);
  }

  programs(): string[] {
    return [...this.index.keys()];
  }

  fileOf(program: string): string | undefined {
    const name = this.index.get(program);
    return name === undefined ? undefined : shownFile(join(this.dir, name));
  }

  get(program: string): CommandSpec | undefined {
    const hit = this.checked.get(program);
    if (hit) return hit;
    const name = this.index.get(program);
    if (name === undefined) return undefined;
    const file = join(this.dir, name);
    const value = readProgramFile(file);
    let spec: CommandSpec;
    if (typeof value.alias === 'string') {
      const target = this.index.has(value.alias) ? readProgramFile(join(this.dir, this.index.get(value.alias)!)) : undefined;
      if (target === undefined || typeof target.alias === 'string') {
        throw new ShellgateError('config', `${file}: program "${program}": alias "${value.alias}" names no program`);
      }
      spec = this.get(value.alias)!;
    } else spec = checkSpec(value, `${file}: program "${program}"`);
    this.checked.set(program, spec);
    return spec;
  }
}

/** A folder of one file per program, each read and checked when its program is first met. */
export function lazySpecDir(dir: string): SpecTable {
  return new LazySpecTable(dir, indexDir(dir));
}

/** Specs from `over` first, then `base` (user folders over the built-in ones). */
export function layerSpecs(base: SpecTable, over: SpecTable): SpecTable {
  return {
    get: (p) => over.get(p) ?? base.get(p),
    has: (p) => over.has(p) || base.has(p),
    programs: () => [...new Set([...over.programs(), ...base.programs()])],
    fileOf: (p) => (over.has(p) ? over.fileOf?.(p) : base.fileOf?.(p)),
  };
}

function readJsonObject(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ShellgateError('config', `${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ShellgateError('config', `${file}: not valid JSON (${(e as Error).message})`);
  }
  if (!isObject(data)) throw new ShellgateError('config', `${file}: expected an object`);
  return data;
}

/** One program's file: its spec (or `{ "alias": NAME }`), without the editor's `$schema`. */
function readProgramFile(file: string): Record<string, unknown> {
  const { $schema: _schema, ...value } = readJsonObject(file);
  return value;
}

/**
 * A file of a user's spec folder: one program's spec, named by the file (the built-in format), or
 * an object of program → spec (several programs in one file, as earlier versions read).
 */
function specsOfUserFile(dir: string, f: string): [string, unknown][] {
  const file = join(dir, f);
  const data = readProgramFile(file);
  const program = programOfFile(f);
  if (program !== null && (typeof data.summary === 'string' || typeof data.alias === 'string' || typeof data.class === 'string')) return [[program, data]];
  return Object.entries(data);
}

/** Every program of a folder's spec files, each file read once, failing on a name defined twice. */
function readSpecDir(dir: string): Map<string, { file: string; value: unknown }> {
  const raw = new Map<string, { file: string; value: unknown }>();
  for (const f of [...indexDir(dir).values()]) {
    const file = join(dir, f);
    for (const [program, value] of specsOfUserFile(dir, f)) {
      const before = raw.get(program);
      if (before !== undefined) throw new ShellgateError('config', `${file}: program "${program}" is also defined in ${before.file}`);
      raw.set(program, { file, value });
    }
  }
  return raw;
}

/** Every spec of a folder, read and checked now (user folders: errors surface at start-up). */
export function loadSpecDir(dir: string): Map<string, CommandSpec> & SpecTable {
  const raw = readSpecDir(dir);
  const table = new Map<string, CommandSpec>() as Map<string, CommandSpec> & SpecTable;
  table.programs = () => [...table.keys()];
  table.fileOf = (p) => (table.has(p) ? shownFile(raw.get(p)!.file) : undefined);
  for (const [name, { file, value }] of raw) {
    if (isObject(value) && typeof value.alias === 'string') continue;
    table.set(name, checkSpec(value, `${file}: program "${name}"`));
  }
  for (const [name, { file, value }] of raw) {
    if (!isObject(value) || typeof value.alias !== 'string') continue;
    const target = table.get(value.alias);
    if (!target) throw new ShellgateError('config', `${file}: program "${name}": alias "${value.alias}" names no program`);
    table.set(name, target);
  }
  return table;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(where: string, field: string, what: string): never {
  throw new ShellgateError('config', `${where}: field "${field}" ${what}`);
}

function checkSpec(v: unknown, where: string, parentOptions?: Record<string, OptionSpec>): CommandSpec {
  if (!isObject(v)) fail(where, '(spec)', 'must be an object');
  if (typeof v.summary !== 'string') fail(where, 'summary', 'must be a string');
  if (!CLASSES.has(v.class as CommandClass)) fail(where, 'class', `must be one of ${[...CLASSES].join(', ')}`);
  if (v.operands !== undefined) {
    if (!Array.isArray(v.operands) || v.operands.some((r) => !ROLES.has(r as ArgRole))) fail(where, 'operands', 'must be a list of roles');
  }
  if (v.lastOperand !== undefined && !ROLES.has(v.lastOperand as ArgRole)) fail(where, 'lastOperand', 'must be a role');
  if (v.ops !== undefined && (!Array.isArray(v.ops) || v.ops.some((o) => !EXTRA_OPS.has(o as ExtraOp)))) {
    fail(where, 'ops', `must be a list of ${[...EXTRA_OPS].join(', ')}`);
  }
  if (v.options !== undefined) {
    if (!isObject(v.options)) fail(where, 'options', 'must be an object');
    for (const [opt, o] of Object.entries(v.options)) checkOption(o, `${where} option "${opt}"`, opt);
  }
  if (v.complete !== undefined && (typeof v.complete !== 'string' || !/\S/.test(v.complete))) fail(where, 'complete', 'must name the documentation and version the options were checked against');
  if (v.optionSyntax !== undefined && !['getopt', 'echo', 'none'].includes(v.optionSyntax as string)) fail(where, 'optionSyntax', 'must be getopt, echo or none');
  if (v.reads !== undefined) checkReads(v.reads, where);
  if (v.examples !== undefined) {
    if (!Array.isArray(v.examples)) fail(where, 'examples', 'must be a list');
    v.examples.forEach((e, k) => {
      const at = `${where} example ${k + 1}`;
      if (!isObject(e) || typeof e.command !== 'string') fail(at, 'command', 'must be a string');
      if (!['allow', 'ask', 'deny'].includes(e.level as string)) fail(at, 'level', 'must be allow, ask or deny');
      for (const f of ['ops', 'rules'] as const) {
        if (e[f] !== undefined && (!Array.isArray(e[f]) || (e[f] as unknown[]).some((x) => typeof x !== 'string'))) fail(at, f, 'must be a list of strings');
      }
    });
  }
  if (v.inheritOptions !== undefined) {
    if (v.inheritOptions !== true) fail(where, 'inheritOptions', 'must be true when given');
    if (parentOptions === undefined) fail(where, 'inheritOptions', 'only applies to a subcommand');
    v.options = { ...parentOptions, ...((v.options as Record<string, OptionSpec> | undefined) ?? {}) };
    delete v.inheritOptions;
  }
  if (v.subcommands !== undefined) {
    if (!isObject(v.subcommands)) fail(where, 'subcommands', 'must be an object');
    const subs: Record<string, CommandSpec> = {};
    for (const [sub, s] of Object.entries(v.subcommands)) {
      if (isObject(s) && typeof s.alias === 'string') continue;
      subs[sub] = checkSpec(s, `${where} subcommand "${sub}"`, (v.options as Record<string, OptionSpec> | undefined) ?? {});
    }
    for (const [sub, s] of Object.entries(v.subcommands)) {
      if (isObject(s) && typeof s.alias === 'string') {
        if (!subs[s.alias]) fail(`${where} subcommand "${sub}"`, 'alias', `names no subcommand "${s.alias}"`);
        subs[sub] = subs[s.alias];
      }
    }
    v.subcommands = subs;
  }
  return v as unknown as CommandSpec;
}

function checkReads(reads: unknown, where: string): void {
  if (!Array.isArray(reads) || reads.some((p) => typeof p !== 'string' || !(p.startsWith('/') || p.startsWith('~/')))) {
    fail(where, 'reads', 'must be a list of absolute or ~/ paths');
  }
}

function checkOption(o: unknown, where: string, name: string): asserts o is OptionSpec {
  if (!name.startsWith('-') && !name.startsWith('+')) fail(where, '(name)', 'must start with "-"');
  if (name === '--') fail(where, '(name)', '"--" ends options; it is not one');
  if (!isObject(o)) fail(where, '(spec)', 'must be an object');
  if (o.value !== undefined && typeof o.value !== 'boolean' && o.value !== 'optional') fail(where, 'value', 'must be true, false or "optional"');
  if (o.role !== undefined && !ROLES.has(o.role as ArgRole)) fail(where, 'role', 'must be a role');
  if (o.values !== undefined && (!Array.isArray(o.values) || o.values.length < 2 || o.values.some((r) => !ROLES.has(r as ArgRole)))) fail(where, 'values', 'must be a list of two or more roles');
  if (o.reads !== undefined) checkReads(o.reads, where);
  if (o.class !== undefined && !CLASSES.has(o.class as CommandClass)) fail(where, 'class', 'must be a class');
  if (o.operands !== undefined && !ROLES.has(o.operands as ArgRole)) fail(where, 'operands', 'must be a role');
  if (o.ops !== undefined && (!Array.isArray(o.ops) || o.ops.some((x) => !EXTRA_OPS.has(x as ExtraOp)))) fail(where, 'ops', 'must be a list of operation kinds');
}
