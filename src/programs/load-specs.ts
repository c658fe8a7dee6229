/**
 * Load command knowledge (rules/programs/<program>.json, one file per program) and check it at the
 * boundary: a bad file fails with a message naming the file, the program and the field, never
 * later with a stack trace.
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ShellgateError } from '../errors.js';
import { checkAlias, checkSpec, checkTagsOnly, isAlias, isTagsOnly } from './check-spec.js';

export { PROGRAM_TAGS } from './check-spec.js';
import type { CommandSpec } from './spec-types.js';
import { readConfigText } from '../config-file.js';

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
  /** Specs read so far; null for a file that only carries tags (the program has no spec). */
  private readonly checked = new Map<string, CommandSpec | null>();

  constructor(
    private readonly dir: string,
    private readonly index: Map<string, string>,
  ) {}

  has(program: string): boolean {
    return this.index.has(program) && this.get(program) !== undefined;
  }

  programs(): string[] {
    return [...this.index.keys()].filter((p) => this.has(p));
  }

  fileOf(program: string): string | undefined {
    if (!this.has(program)) return undefined;
    const name = this.index.get(program);
    return name === undefined ? undefined : shownFile(join(this.dir, name));
  }

  get(program: string): CommandSpec | undefined {
    const hit = this.checked.get(program);
    if (hit !== undefined) return hit ?? undefined;
    const name = this.index.get(program);
    if (name === undefined) return undefined;
    const file = join(this.dir, name);
    const value = readProgramFile(file);
    if (isTagsOnly(value)) {
      checkTagsOnly(value, `${file}: program "${program}"`);
      this.checked.set(program, null);
      return undefined;
    }
    let spec: CommandSpec;
    if (isAlias(value)) {
      checkAlias(value, `${file}: program "${program}"`);
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
  const text = readConfigText(file);
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
    if (isAlias(value)) continue;
    if (isTagsOnly(value)) {
      checkTagsOnly(value, `${file}: program "${name}"`);
      continue;
    }
    table.set(name, checkSpec(value, `${file}: program "${name}"`));
  }
  for (const [name, { file, value }] of raw) {
    if (!isAlias(value)) continue;
    checkAlias(value, `${file}: program "${name}"`);
    const target = table.get(value.alias);
    if (!target) throw new ShellgateError('config', `${file}: program "${name}": alias "${value.alias}" names no program`);
    table.set(name, target);
  }
  return table;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
