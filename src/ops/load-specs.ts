/**
 * Load command knowledge (rules/commands/*.json) and check it at the boundary: a bad file fails
 * with a message naming the file, the program and the field, never later with a stack trace.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ShellgateError } from '../errors.js';
import type { ArgRole, CommandClass, CommandSpec, ExtraOp, OptionSpec } from './spec-types.js';

const ROLES: ReadonlySet<ArgRole> = new Set(['read', 'write', 'append', 'delete', 'list', 'exec', 'url', 'host', 'text', 'mode', 'command']);
const CLASSES: ReadonlySet<CommandClass> = new Set(['read-only', 'mutating', 'unknown']);
const EXTRA_OPS: ReadonlySet<ExtraOp> = new Set(['Network', 'Privilege', 'Env', 'Process', 'System', 'Exec']);

/** rules/ beside dist/ or src/ (both are one level below the package root). */
export const RULES_DIR = fileURLToPath(new URL('../../rules/', import.meta.url));

export type SpecTable = ReadonlyMap<string, CommandSpec>;

let defaultTable: SpecTable | null = null;

export function defaultSpecs(): SpecTable {
  defaultTable ??= loadSpecDir(join(RULES_DIR, 'commands'));
  return defaultTable;
}

export function loadSpecDir(dir: string): SpecTable {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const raw = new Map<string, { file: string; value: unknown }>();
  for (const f of files) {
    const file = join(dir, f);
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new ShellgateError('config', `${file}: not valid JSON (${(e as Error).message})`);
    }
    if (!isObject(data)) throw new ShellgateError('config', `${file}: expected an object of program → spec`);
    for (const [name, value] of Object.entries(data)) {
      if (raw.has(name)) throw new ShellgateError('config', `${file}: program "${name}" is also defined in ${raw.get(name)!.file}`);
      raw.set(name, { file, value });
    }
  }
  const table = new Map<string, CommandSpec>();
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

function checkSpec(v: unknown, where: string): CommandSpec {
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
  if (v.subcommands !== undefined) {
    if (!isObject(v.subcommands)) fail(where, 'subcommands', 'must be an object');
    const subs: Record<string, CommandSpec> = {};
    for (const [sub, s] of Object.entries(v.subcommands)) {
      if (isObject(s) && typeof s.alias === 'string') continue;
      subs[sub] = checkSpec(s, `${where} subcommand "${sub}"`);
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

function checkOption(o: unknown, where: string, name: string): asserts o is OptionSpec {
  if (!name.startsWith('-') && !name.startsWith('+')) fail(where, '(name)', 'must start with "-"');
  if (!isObject(o)) fail(where, '(spec)', 'must be an object');
  if (o.value !== undefined && typeof o.value !== 'boolean') fail(where, 'value', 'must be true or false');
  if (o.role !== undefined && !ROLES.has(o.role as ArgRole)) fail(where, 'role', 'must be a role');
  if (o.class !== undefined && !CLASSES.has(o.class as CommandClass)) fail(where, 'class', 'must be a class');
  if (o.operands !== undefined && !ROLES.has(o.operands as ArgRole)) fail(where, 'operands', 'must be a role');
  if (o.ops !== undefined && (!Array.isArray(o.ops) || o.ops.some((x) => !EXTRA_OPS.has(x as ExtraOp)))) fail(where, 'ops', 'must be a list of operation kinds');
}
