/**
 * Cheap necessary conditions for a rule, derived from its matcher at load time. A subject's
 * features (which operation kinds it has, under which top directories its paths lie, whether it
 * runs inline code, sits in a pipeline…: features.ts) are two bitmasks computed once; a rule is a
 * conjunction of clauses (clauses.ts), each a disjunction of features and program names, and a
 * rule whose clauses the subject cannot meet is skipped without running its matcher. Each matcher
 * field says what it needs (match-fields.ts): an `any` contributes what all its branches have in
 * common (clause by clause), and a predicate what it declares it needs (predicates/programs.ts),
 * so rules built from `any` and predicates are indexed as well.
 *
 * Soundness: a clause is only ever derived from a condition that must hold for the matcher to
 * match (`not` contributes nothing, a predicate only its declaration, which a test checks on real
 * commands), so skipping never changes a verdict. test/unit/guard-prefilter.test.ts compares
 * prefiltered and unfiltered results over the corpora.
 */
import type { OpKind } from '../ops/types.js';
import { own } from '../own.js';
import type { Matcher, SharedDefinitions } from './rule-types.js';
import type { Subject } from './subject.js';
import { FETCH_PROGRAMS } from './predicates/download-exec.js';
import { areaOf, argStarts, bit, HOME, OP_KINDS, PATTERN_SYNTAX, type Features } from './features.js';
import { meets, tidy, type Clause, type Need } from './clauses.js';
import { MATCH_FIELDS, type FieldNeed, type MatchField } from './match-fields.js';

/**
 * The features of each subject of a verdict. `home` is the analysis's home directory: `path:~`
 * is only meaningful when it is a plain absolute path (no glob syntax), else every subject has it.
 */
export function verdictFeatures(subjects: readonly Subject[], home: string): Features[] {
  const plainHome = home.length > 1 && home.startsWith('/') && !PATTERN_SYNTAX.test(home);
  const homeSlash = home.endsWith('/') ? home : home + '/';
  const out: Features[] = [];
  let fetches = false;
  for (const s of subjects) {
    const f = subjectFeatures(s, plainHome ? home : null, homeSlash);
    if (!fetches && ((f.bits & KIND_BITS.Network) !== 0 || (s.cmd.program !== null && FETCH_PROGRAMS.has(s.cmd.program)))) fetches = true;
    out.push(f);
  }
  if (fetches) for (const f of out) f.bits |= F_LINE_FETCHES;
  return out;
}

/** The flag bits subjectFeatures sets, looked up once. */
const F_ARGS = bit('args');
const F_BACKGROUND = bit('background');
const F_CALLS_FUNCTION = bit('calls-function');
const F_CODE = bit('code');
const F_EXECS_STDIN = bit('execs-stdin');
const F_FEEDERS = bit('feeders');
const F_IN_FUNCTION = bit('in-function');
const F_INFINITE_LOOP = bit('infinite-loop');
const F_LOOP = bit('loop');
const F_ODD_NAME = bit('odd-name');
const F_PARENT = bit('parent');
const F_PIPELINE = bit('pipeline');
const F_PRIVILEGED = bit('privileged');
const F_REDIRECT = bit('redirect');
const F_REMOTE = bit('remote');
const F_SUBSTITUTION = bit('substitution');
const F_LINE_FETCHES = bit('line-fetches');
const KIND_BITS: Readonly<Record<OpKind, number>> = Object.fromEntries(OP_KINDS.map((k) => [k, bit(k)])) as Record<OpKind, number>;

/** Features of one subject (without the line's: see verdictFeatures). `home` null: unknown, `path:~` always set. */
export function subjectFeatures(s: Subject, home: string | null, homeSlash = home === null ? '' : home + '/'): Features {
  const starts = argStarts(s.cmd.args);
  let f = 0;
  let a = home === null ? HOME : 0;
  for (const o of s.ops) {
    f |= KIND_BITS[o.kind];
    if (o.kind === 'Exec' && o.source === 'stdin') f |= F_EXECS_STDIN;
    const p = o.path;
    if (p !== undefined) {
      a |= areaOf(p);
      if (home !== null && (p === home || p.startsWith(homeSlash))) a |= HOME;
    }
  }
  const c = s.cmd;
  for (const r of c.redirects) {
    if (r.path === null) continue;
    const p = r.path.value;
    a |= areaOf(p);
    if (home !== null && (p === home || p.startsWith(homeSlash))) a |= HOME;
  }
  if (c.execsStdin) f |= F_EXECS_STDIN;
  if (s.code !== null) f |= F_CODE;
  if (c.redirects.length > 0) f |= F_REDIRECT;
  if (c.args.length > 0) f |= F_ARGS;
  if (c.parent !== null) f |= F_PARENT;
  if (s.feeders().length > 0) f |= F_FEEDERS;
  if (c.program === null || ODD_NAME.test(c.programRaw)) f |= F_ODD_NAME;
  if (c.calls !== null && c.calls.kind === 'function') f |= F_CALLS_FUNCTION;
  const x = c.context;
  if (x.pipeline !== null) f |= F_PIPELINE;
  if (x.privileged) f |= F_PRIVILEGED;
  if (x.remote !== null) f |= F_REMOTE;
  if (x.substitution !== null) f |= F_SUBSTITUTION;
  if (x.background) f |= F_BACKGROUND;
  if (x.loop) f |= F_LOOP;
  if (x.infiniteLoop) f |= F_INFINITE_LOOP;
  if (x.functionName !== null) f |= F_IN_FUNCTION;
  return { bits: f, areas: a, starts };
}

/** Characters that hide what a program word names (quotes, escapes, expansions, glob characters). */
const ODD_NAME = /['"\\$`?*[]/;

/**
 * A list of rules with their needs laid out flat, for the loop every command runs: the first
 * (most selective) clause of each rule is tested from typed arrays, the rest only when it holds.
 */
export class NeedIndex<R extends { need: Need }> {
  private readonly bits: Int32Array;
  private readonly areas: Int32Array;
  private readonly starts: Int32Array;
  private readonly programs: (ReadonlySet<string> | null)[];
  private readonly tests: (((p: string) => boolean) | null)[];

  constructor(readonly rules: readonly R[]) {
    const n = rules.length;
    this.bits = new Int32Array(n);
    this.areas = new Int32Array(n);
    this.starts = new Int32Array(n);
    this.programs = [];
    this.tests = [];
    rules.forEach((r, i) => {
      const c = r.need[0];
      // No clause: nothing known, the rule is always tested.
      this.bits[i] = c === undefined ? -1 : c.bits;
      this.areas[i] = c === undefined ? 0 : c.areas;
      this.starts[i] = c === undefined ? 0 : c.starts;
      this.programs.push(c === undefined ? null : c.programs);
      this.tests.push(c === undefined ? null : c.test);
    });
  }

  /** Rules whose needs `f` and `program` meet, added to `out`. */
  select(f: Features, program: string | null, out: R[]): void {
    const { bits, areas, starts, programs, tests, rules } = this;
    const fb = f.bits;
    const fa = f.areas;
    const fs = f.starts;
    for (let i = 0; i < rules.length; i++) {
      if ((fb & bits[i]) === 0 && (fa & areas[i]) === 0 && (fs & starts[i]) === 0) {
        if (program === null) continue;
        const ps = programs[i];
        const t = tests[i];
        if ((ps === null || !ps.has(program)) && (t === null || !t(program))) continue;
      }
      const r = rules[i];
      if (r.need.length > 1 && !meets(f, program, r.need, 1)) continue;
      out.push(r);
    }
  }
}

/** The clauses a matcher implies (empty: none known). Call after the matcher compiled cleanly. */
export function needOf(m: Matcher, defs: SharedDefinitions): Clause[] {
  return tidy(clausesOf(m, defs, 0));
}

function clausesOf(m: Matcher, defs: SharedDefinitions, depth: number): Clause[] {
  if (depth > 20 || typeof m !== 'object' || m === null) return [];
  const cx: FieldNeed = { defs, clausesOf: (x) => clausesOf(x, defs, depth + 1) };
  const out: Clause[] = [];
  // Only the fields a matcher has (two or three of the twenty-odd), read once each.
  for (const key of Object.keys(m) as (keyof Matcher)[]) {
    const field = own(MATCH_FIELDS, key) as MatchField<unknown> | undefined;
    const value = m[key];
    if (field?.need !== undefined && value !== undefined) out.push(...field.need(value, cx));
  }
  return out;
}
