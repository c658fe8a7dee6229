/**
 * Load command knowledge (rules/commands/*.json) and check it at the boundary: a bad file fails
 * with a message naming the file, the program and the field, never later with a stack trace.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ShellgateError } from '../errors.js';
import { own } from '../own.js';
import type { ArgRole, CommandClass, CommandSpec, ExtraOp, OptionSpec } from './spec-types.js';

const ROLES: ReadonlySet<ArgRole> = new Set(['read', 'write', 'append', 'delete', 'list', 'exec', 'url', 'host', 'text', 'mode', 'command']);
const CLASSES: ReadonlySet<CommandClass> = new Set(['read-only', 'mutating', 'unknown']);
const EXTRA_OPS: ReadonlySet<ExtraOp> = new Set(['Network', 'Privilege', 'Env', 'Process', 'System', 'Exec']);

/** rules/ beside dist/ or src/ (both are one level below the package root). */
export const RULES_DIR = fileURLToPath(new URL('../../rules/', import.meta.url));

/** Command specs by program name. */
export interface SpecTable {
  get(program: string): CommandSpec | undefined;
  has(program: string): boolean;
  /** Every program name the table knows. */
  programs(): string[];
  /** The file the program's spec is read from (`rules/commands/coreutils.json` for built-ins), for explain. */
  fileOf?(program: string): string | undefined;
}

const PACKAGE_ROOT = join(RULES_DIR, '..');

/** Built-in files relative to the package (`rules/commands/x.json`), user files as given. */
function shownFile(file: string): string {
  return file.startsWith(PACKAGE_ROOT + sep) ? relative(PACKAGE_ROOT, file).split(sep).join('/') : file;
}

/**
 * rules/commands/index.json maps each program to its file. The built-in specs are about 3 MB of
 * JSON: parsing them all would be most of the start-up time, so a file is read when a program in
 * it is first met, and each spec is checked when first used (tests check them all).
 */
const INDEX_FILE = 'index.json';

let defaultTable: SpecTable | null = null;

export function defaultSpecs(): SpecTable {
  defaultTable ??= lazySpecDir(join(RULES_DIR, 'commands'), splitDir(join(RULES_DIR, 'commands')));
  return defaultTable;
}

/**
 * dist/specs/: the built-in specs split one program per file at build time (scripts/bundle.mjs),
 * so `git status` parses git's spec, not all 400 KB of vcs.json. Used only while every source
 * file still has the size and time recorded when it was split; otherwise the sources are read.
 */
const SPLIT_DIR = fileURLToPath(new URL('../specs/', import.meta.url));

function splitDir(sources: string): string | null {
  try {
    const meta = JSON.parse(readFileSync(join(SPLIT_DIR, 'sources.json'), 'utf8')) as Record<string, { size: number; mtimeMs: number }>;
    const names = readdirSync(sources).filter((f) => f.endsWith('.json'));
    if (names.length !== Object.keys(meta).length) return null;
    for (const f of names) {
      const st = statSync(join(sources, f));
      if (meta[f]?.size !== st.size || meta[f]?.mtimeMs !== st.mtimeMs) return null;
    }
    return SPLIT_DIR;
  } catch {
    return null;
  }
}

/** The file name of one program's split spec (`.` and `/` never reach the file system as such). */
export function splitFileName(program: string): string {
  return encodeURIComponent(program).replace(/\./g, '%2E') + '.json';
}

class LazySpecTable implements SpecTable {
  private readonly files = new Map<string, Record<string, unknown>>();
  private readonly checked = new Map<string, CommandSpec>();
  private readonly shown = new Map<string, string>();

  constructor(
    private readonly dir: string,
    private readonly index: Record<string, string>,
    /** One file per program (dist/specs/), or null to read the source files. */
    private readonly split: string | null = null,
  ) {}

  /** The file read for `program`'s spec (its split file when there is one). */
  private readPathOf(program: string): string {
    return this.split ? join(this.split, splitFileName(program)) : join(this.dir, this.index[program]);
  }

  has(program: string): boolean {
    return own(this.index, program) !== undefined;
  }

  programs(): string[] {
    return Object.keys(this.index);
  }

  fileOf(program: string): string | undefined {
    const name = own(this.index, program);
    if (name === undefined) return undefined;
    // Every command with a spec asks (operations carry it): worked out once per file.
    let shown = this.shown.get(name);
    if (shown === undefined) {
      shown = shownFile(join(this.dir, name));
      this.shown.set(name, shown);
    }
    return shown;
  }

  get(program: string): CommandSpec | undefined {
    const hit = this.checked.get(program);
    if (hit) return hit;
    const name = own(this.index, program);
    if (name === undefined) return undefined;
    const file = this.readPathOf(program);
    const value = own(this.file(file), program);
    if (value === undefined) throw new ShellgateError('config', `${file}: program "${program}" is in ${INDEX_FILE} but not in the file (run npm run specs:index)`);
    let spec: CommandSpec;
    if (isObject(value) && typeof value.alias === 'string') {
      const target = own(this.index, value.alias) === undefined ? undefined : own(this.file(this.readPathOf(value.alias)), value.alias);
      if (target === undefined || (isObject(target) && typeof target.alias === 'string')) {
        throw new ShellgateError('config', `${file}: program "${program}": alias "${value.alias}" names no program`);
      }
      spec = this.get(value.alias)!;
    } else spec = checkSpec(value, `${file}: program "${program}"`);
    this.checked.set(program, spec);
    return spec;
  }

  private file(file: string): Record<string, unknown> {
    let data = this.files.get(file);
    if (!data) {
      data = readSpecFile(file);
      this.files.set(file, data);
    }
    return data;
  }
}

/** A folder with an index.json, read lazily (the built-in specs). */
export function lazySpecDir(dir: string, split: string | null = null): SpecTable {
  const indexFile = join(dir, INDEX_FILE);
  let index: unknown;
  try {
    index = JSON.parse(readFileSync(indexFile, 'utf8'));
  } catch (e) {
    throw new ShellgateError('config', `${indexFile}: cannot read the spec index (${(e as Error).message})`);
  }
  if (!isObject(index) || Object.values(index).some((f) => typeof f !== 'string')) throw new ShellgateError('config', `${indexFile}: expected an object of program → file`);
  return new LazySpecTable(dir, index as Record<string, string>, split);
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

function readSpecFile(file: string): Record<string, unknown> {
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
  if (!isObject(data)) throw new ShellgateError('config', `${file}: expected an object of program → spec`);
  return data;
}

/** Every program of a folder's spec files, each file read once, failing on a name defined twice. */
function readSpecDir(dir: string): Map<string, { file: string; name: string; value: unknown }> {
  const raw = new Map<string, { file: string; name: string; value: unknown }>();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== INDEX_FILE)
    .sort();
  for (const f of files) {
    const file = join(dir, f);
    for (const [program, value] of Object.entries(readSpecFile(file))) {
      const before = raw.get(program);
      if (before !== undefined) throw new ShellgateError('config', `${file}: program "${program}" is also defined in ${before.file}`);
      raw.set(program, { file, name: f, value });
    }
  }
  return raw;
}

/** Program → file for every spec file of a folder (what index.json holds). */
export function indexSpecDir(dir: string): Record<string, string> {
  const index: Record<string, string> = {};
  for (const [program, { name }] of readSpecDir(dir)) index[program] = name;
  return index;
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
