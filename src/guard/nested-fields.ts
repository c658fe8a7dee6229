/**
 * The nested tables of the match language: the fields of `context` (where a command runs) and of
 * `op` (an operation of the command), each with its doc line, its value's schema, how it compiles,
 * and what the prefilter may assume of it. match-fields.ts `context` and `op` compile through these.
 */
import { own } from '../own.js';
import type { Operation } from '../ops/types.js';
import type { PathClass } from '../paths/classify.js';
import type { CommandContext } from '../walk/types.js';
import type { JsonSchema, Matcher, OpMatcher, SharedDefinitions } from './rule-types.js';
import { ANY_OP, bit, OP_KINDS, type Feature } from './features.js';
import { areasOfPatterns, clause, namesOf, type Clause } from './clauses.js';
import { fail, globs, names, type CompileEnv, type Compiled } from './compile-parts.js';

const NAMES: JsonSchema = { $ref: '#/definitions/names' };

// ---------------------------------------------------------------------------------------------
// Context fields

export interface ContextField {
  doc: string;
  /** The prefilter feature a command has when the field is true of it. */
  feature: Feature;
  /** The field's value for a command. */
  of(x: CommandContext): boolean;
}

type ContextFields = { readonly [K in keyof NonNullable<Matcher['context']>]-?: ContextField };

export const CONTEXT_FIELDS: ContextFields = {
  privileged: { doc: 'Runs with raised privileges (under sudo, doas, su, pkexec…).', feature: 'privileged', of: (x) => x.privileged },
  remote: { doc: 'Runs on another host (`ssh host CMD`).', feature: 'remote', of: (x) => x.remote !== null },
  substitution: { doc: 'Runs inside `$(…)`, backquotes, `<(…)` or `>(…)`.', feature: 'substitution', of: (x) => x.substitution !== null },
  background: { doc: 'Runs in the background (`&`).', feature: 'background', of: (x) => x.background },
  loop: { doc: 'Runs inside a loop.', feature: 'loop', of: (x) => x.loop },
  inFunction: { doc: 'Runs inside a function body.', feature: 'in-function', of: (x) => x.functionName !== null },
};

export function compileContext(c: NonNullable<Matcher['context']>, env: CompileEnv, path: string): Compiled {
  for (const k of Object.keys(c)) if (!own(CONTEXT_FIELDS, k)) fail(env, `${path}.${k}`, 'is not a context field');
  const wanted = Object.entries(CONTEXT_FIELDS).flatMap(([k, f]) => {
    const want: unknown = c[k as keyof typeof c];
    return want === undefined ? [] : [{ of: f.of, want }];
  });
  return (s) => {
    const x = s.cmd.context;
    for (const w of wanted) if (w.want !== w.of(x)) return false;
    return true;
  };
}

// ---------------------------------------------------------------------------------------------
// Operation fields

/** Every path class (paths/classify.ts); the type check below keeps the list complete. */
const PATH_CLASSES = [
  'workspace',
  'temp',
  'outside',
  'root',
  'home',
  'system',
  'device',
  'special-device',
  'sensitive',
  'exec-config',
] as const satisfies readonly PathClass[];
const allClassesListed: Exclude<PathClass, (typeof PATH_CLASSES)[number]> extends never ? true : never = true;
void allClassesListed;

const OP_SOURCES = ['operand', 'option', 'redirect', 'program', 'stdin'] as const satisfies readonly NonNullable<OpMatcher['source']>[];

export interface OpField<V> {
  doc: string;
  schema: JsonSchema;
  /** A test on one operation. */
  compile(value: V, env: CompileEnv, path: string): (op: Operation) => boolean;
  /** The areas (features.ts) the operation's path must lie in, or null for any. */
  areas?(value: V, defs: SharedDefinitions): number | null;
}

type OpFields = { readonly [K in keyof OpMatcher]-?: OpField<NonNullable<OpMatcher[K]>> };

const oneOrMany = (items: JsonSchema): JsonSchema => ({ anyOf: [items, { type: 'array', items }] });

export const OP_FIELDS: OpFields = {
  kind: {
    doc: 'The operation kind is one of these.',
    schema: oneOrMany({ enum: [...OP_KINDS] }),
    compile(v) {
      const kinds = new Set<string>(Array.isArray(v) ? v : [v]);
      return (op) => kinds.has(op.kind);
    },
  },
  class: {
    doc: 'The path has one of these classes (`root`, `home`, `system`, `device`, `sensitive`, `outside`, `workspace`…).',
    schema: oneOrMany({ enum: [...PATH_CLASSES] }),
    compile(v) {
      const classes: readonly string[] = Array.isArray(v) ? v : [v];
      return (op) => op.classes !== undefined && op.classes.some((c) => classes.includes(c));
    },
  },
  path: {
    doc: 'The absolute path matches one of these globs (`~` is the home directory).',
    schema: NAMES,
    compile(v, env, path) {
      const g = globs(names(v, env, `${path}.path`), env, `${path}.path`);
      return (op) => op.path !== undefined && g(op.path);
    },
    areas: (v, defs) => areasOfPatterns(namesOf(v, defs)),
  },
  pathIs: {
    doc: 'The path is one of these, compared as text (`~` is the home directory): `/*` is the glob a command was given, not every path below the root.',
    schema: NAMES,
    compile(v, env, path) {
      const isExact = exactPaths(names(v, env, `${path}.pathIs`), env.home);
      return (op) => op.path !== undefined && isExact(op.path);
    },
    areas: (v, defs) => areasOfPatterns(namesOf(v, defs)),
  },
  host: {
    doc: 'The host matches one of these globs.',
    schema: NAMES,
    compile(v, env, path) {
      const g = globs(names(v, env, `${path}.host`), env, `${path}.host`);
      return (op) => op.host !== undefined && g(op.host);
    },
  },
  dynamic: {
    doc: 'The path or target is (true) or is not (false) known only at run time.',
    schema: { type: 'boolean' },
    compile: (v) => (op) => op.dynamic === v,
  },
  source: {
    doc: 'Where the operation comes from: an operand, an option, a redirect, the program itself or its stdin.',
    schema: { enum: [...OP_SOURCES] },
    compile: (v) => (op) => op.source === v,
  },
};

/** Exact paths, `~` spelt out for the current home (the set rebuilt when the home changes). */
function exactPaths(exact: string[], home: () => string): (p: string) => boolean {
  let cache: { home: string; set: Set<string> } | null = null;
  const setFor = (h: string): Set<string> => new Set(exact.map((p) => (p === '~' || p.startsWith('~/') ? h + p.slice(1) : p)));
  return (p) => {
    const h = home();
    if (cache === null || cache.home !== h) cache = { home: h, set: setFor(h) };
    return cache.set.has(p);
  };
}

export function compileOp(o: OpMatcher, env: CompileEnv, path: string): Compiled {
  if (typeof o !== 'object' || o === null) fail(env, path, 'must be an object');
  for (const k of Object.keys(o)) if (!own(OP_FIELDS, k)) fail(env, `${path}.${k}`, 'is not an operation field');
  const tests: ((op: Operation) => boolean)[] = [];
  for (const [k, f] of Object.entries(OP_FIELDS) as [keyof OpMatcher, OpField<unknown>][]) {
    if (o[k] !== undefined) tests.push(f.compile(o[k], env, path));
  }
  const wanted = (op: Operation): boolean => {
    for (const t of tests) if (!t(op)) return false;
    return true;
  };
  return (s) => {
    for (const op of s.ops) if (wanted(op)) return true;
    return false;
  };
}

/** Some operation (of these kinds); its path in the areas its path or pathIs allow. */
export function opClauses(o: OpMatcher, defs: SharedDefinitions): Clause[] {
  const out = [clause(o.kind === undefined ? ANY_OP : kindBits(o.kind))];
  for (const [k, f] of Object.entries(OP_FIELDS) as [keyof OpMatcher, OpField<unknown>][]) {
    const a = o[k] === undefined || !f.areas ? null : f.areas(o[k], defs);
    if (a !== null) out.push(clause(0, a));
  }
  return out;
}

/** The bits of these operation kinds (a name that is none: any operation). */
function kindBits(kind: NonNullable<OpMatcher['kind']>): number {
  let bits = 0;
  for (const k of Array.isArray(kind) ? kind : [kind]) bits |= bit(k) || ANY_OP;
  return bits;
}
