/**
 * Clauses: the cheap necessary conditions the prefilter derives from a rule's matcher. A rule's
 * need is a conjunction of clauses, each a disjunction of features, argument starts and program
 * names; a command that cannot meet one is never tested against the rule. The field table
 * (match-fields.ts) says which clauses each matcher field implies; this module builds, combines
 * and orders them.
 */
import { own } from '../own.js';
import { AREA_BITS, ALL_AREAS, area, bit, FEATURE_BITS, patternAreas, type Features } from './features.js';
import type { Names, SharedDefinitions } from './rule-types.js';
import type { Predicate } from './predicates/programs.js';

/** One clause: the subject has one of these features or argument starts, or its program is one of these. */
export interface Clause {
  readonly bits: number;
  readonly areas: number;
  readonly starts: number;
  readonly programs: ReadonlySet<string> | null;
  readonly test: ((program: string) => boolean) | null;
}

/** Every clause must hold (a conjunction of disjunctions); empty: nothing known. */
export type Need = readonly Clause[];

/** `f` (with `program`) meets every clause of `need` from the `from`th on. */
export function meets(f: Features, program: string | null, need: Need, from = 0): boolean {
  for (let i = from; i < need.length; i++) {
    const c = need[i];
    if ((f.bits & c.bits) !== 0 || (f.areas & c.areas) !== 0 || (f.starts & c.starts) !== 0) continue;
    if (program !== null && ((c.programs !== null && c.programs.has(program)) || (c.test !== null && c.test(program)))) continue;
    return false;
  }
  return true;
}

/** A clause; most name only features (`bits`) or areas. */
export const clause = (
  bits: number,
  areas = 0,
  programs: ReadonlySet<string> | null = null,
  test: ((p: string) => boolean) | null = null,
  starts = 0,
): Clause => ({ bits, areas, starts, programs, test });

/** The names a field gives, with `@list` references spelt out (unknown lists give nothing: compile.ts reports them). */
export function namesOf(v: Names | undefined, defs: SharedDefinitions): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).flatMap((n) => (typeof n === 'string' && n.startsWith('@') ? (own(defs.lists, n.slice(1)) ?? []) : [n]));
}

/** The areas a list of patterns allows, or null when they allow any. */
export function areasOfPatterns(patterns: string[]): number | null {
  let a = 0;
  for (const p of patterns) a |= typeof p === 'string' ? patternAreas(p) : ALL_AREAS;
  return a === ALL_AREAS || patterns.length === 0 ? null : a;
}

const specClauses = new WeakMap<Predicate, Clause[]>();

/** A program test that answers each name once (the tests are patterns run for every command). */
function remembered(test: (program: string) => boolean): (program: string) => boolean {
  const answers = new Map<string, boolean>();
  return (program) => {
    let answer = answers.get(program);
    if (answer === undefined) {
      answer = test(program);
      if (answers.size >= 4096) answers.clear();
      answers.set(program, answer);
    }
    return answer;
  };
}

/** What a predicate declares: the programs it can hold for, and what else it needs. */
export function predicateClauses(p: Predicate): Clause[] {
  let out = specClauses.get(p);
  if (out) return out;
  out = [];
  if (p.programs) out.push(clause(0, 0, p.programs));
  for (const spec of p.needs ?? []) {
    let bits = 0;
    let areas = 0;
    for (const f of spec.features ?? []) {
      bits |= bit(f);
      areas |= area(f);
    }
    const programs = spec.programs === undefined ? null : new Set(spec.programs);
    // A condition that names nothing would never hold: it says nothing, so it is left out.
    if (bits !== 0 || areas !== 0 || programs !== null || spec.program !== undefined)
      out.push(clause(bits, areas, programs, spec.program === undefined ? null : remembered(spec.program)));
  }
  specClauses.set(p, out);
  return out;
}

/** Most clauses a disjunction is spelt out into (each is one pick of a clause per branch). */
const MAX_PRODUCT = 16;

/**
 * (A1 ∧ A2) ∨ (B1 ∧ B2) = (A1 ∨ B1) ∧ (A1 ∨ B2) ∧ (A2 ∨ B1) ∧ (A2 ∨ B2). Where that is too many
 * clauses, the branches with the most keep only their most selective one (still necessary).
 */
export function disjunction(branches: Clause[][]): Clause[] {
  if (branches.some((b) => b.length === 0)) return [];
  const bs = branches.map((b) => [...b]);
  for (;;) {
    const size = bs.reduce((n, b) => n * b.length, 1);
    if (size <= MAX_PRODUCT) break;
    // Clauses come most selective first (tidy): the widest branch keeps its first.
    const widest = bs.reduce((w, b) => (b.length > w.length ? b : w));
    widest.length = 1;
  }
  let acc: Clause[] = bs[0];
  for (const b of bs.slice(1)) acc = acc.flatMap((x) => b.map((y) => or(x, y)));
  return acc;
}

function or(x: Clause, y: Clause): Clause {
  return clause(x.bits | y.bits, x.areas | y.areas, eitherPrograms(x.programs, y.programs), eitherTest(x.test, y.test), x.starts | y.starts);
}

/** The programs of either clause (sets are shared between clauses: the same one is kept). */
function eitherPrograms(a: ReadonlySet<string> | null, b: ReadonlySet<string> | null): ReadonlySet<string> | null {
  if (a === null || a === b) return b;
  if (b === null) return a;
  return union(a, b);
}

function eitherTest(a: ((p: string) => boolean) | null, b: ((p: string) => boolean) | null): ((p: string) => boolean) | null {
  if (a === null) return b;
  if (b === null) return a;
  return (p) => a(p) || b(p);
}

/**
 * A rough chance that a command meets a clause (the features of everyday commands are common,
 * most program names and areas rare): clauses are tested most selective first.
 */
function weight(c: Clause): number {
  let w = 0;
  for (let b = c.bits; b !== 0; b &= b - 1) w += BIT_WEIGHT[31 - Math.clz32(b & -b)] ?? 0;
  for (let b = c.areas; b !== 0; b &= b - 1) w += AREA_WEIGHT[31 - Math.clz32(b & -b)] ?? 0;
  for (let b = c.starts; b !== 0; b &= b - 1) w += 0.15;
  if (c.programs !== null) w += 0.003 * c.programs.size;
  if (c.test !== null) w += 0.02;
  return w;
}

function union(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> {
  const out = new Set(a);
  for (const x of b) out.add(x);
  return out;
}

const COMMON: ReadonlyMap<string, number> = new Map<string, number>([
  ['args', 0.9],
  ['path:other', 0.8],
  ['Read', 0.5],
  ['List', 0.3],
  ['Write', 0.3],
  ['redirect', 0.3],
  ['pipeline', 0.3],
  ['path:relative', 0.3],
  ['path:/dev (special)', 0.2],
  ['Exec', 0.2],
  ['Unknown', 0.1],
  ['Delete', 0.1],
  ['substitution', 0.1],
  ['parent', 0.1],
  ['feeders', 0.1],
  ['path:/tmp', 0.1],
  ['path:~', 0.1],
  ['path:/home', 0.1],
  ['loop', 0.05],
  ['Network', 0.05],
]);
const BIT_WEIGHT = FEATURE_BITS.map((k) => COMMON.get(k) ?? 0.02);
const AREA_WEIGHT = AREA_BITS.map((k) => COMMON.get(k) ?? 0.02);

/** Without duplicates (the same features and the same program set), most selective first. */
export function tidy(cs: Clause[]): Clause[] {
  const out: Clause[] = [];
  for (const c of cs) {
    const same = (d: Clause) => d.bits === c.bits && d.areas === c.areas && d.starts === c.starts && d.programs === c.programs && d.test === c.test;
    if (!out.some(same)) out.push(c);
  }
  if (out.length < 2) return out;
  const w = new Map(out.map((c) => [c, weight(c)]));
  return out.sort((a, b) => w.get(a)! - w.get(b)!);
}
