/**
 * Cheap necessary conditions for a rule, derived from its matcher at load time. A subject's
 * features (which operation kinds it has, under which top directories its paths lie, whether it
 * runs inline code, sits in a pipeline…) are two bitmasks computed once; a rule is a conjunction
 * of clauses, each a disjunction of features and program names, and a rule whose clauses the
 * subject cannot meet is skipped without running its matcher. An `any` contributes what all its
 * branches have in common (clause by clause), and a predicate what it declares it needs
 * (predicates/programs.ts), so rules built from `any` and predicates are indexed as well.
 *
 * Soundness: a clause is only ever derived from a condition that must hold for the matcher to
 * match (`not` contributes nothing, a predicate only its declaration, which a test checks on real
 * commands), so skipping never changes a verdict. test/unit/guard-prefilter.test.ts compares
 * prefiltered and unfiltered results over the corpora.
 */
import type { OpKind } from '../ops/types.js';
import { own } from '../own.js';
import type { Matcher, Names, OpMatcher, SharedDefinitions } from './rule-types.js';
import type { Subject } from './subject.js';
import { PREDICATES } from './predicates/index.js';
import { FETCH_PROGRAMS } from './predicates/download-exec.js';
import type { Predicate } from './predicates/programs.js';

const OP_KINDS: readonly OpKind[] = ['Read', 'Write', 'Delete', 'List', 'Exec', 'Network', 'Privilege', 'Env', 'Process', 'System', 'Unknown'];

/** What a command has, apart from the top directories of its paths. */
const FLAGS = [
  'code',
  'redirect',
  'pipeline',
  'privileged',
  'remote',
  'substitution',
  'background',
  'loop',
  'in-function',
  'execs-stdin',
  'args',
  'feeders',
  'parent',
  /** The program word is dynamic or holds quotes, escapes, expansions or glob characters. */
  'odd-name',
  'infinite-loop',
  /** It calls a function defined on the line. */
  'calls-function',
  /** Some command of the line fetches from the network (a fetch tool, or a Network operation). */
  'line-fetches',
] as const;

/**
 * Top directories of the paths a command touches (its operations' paths and its redirects'
 * words): `path:/etc` for `/etc` and everything below it. `path:~` is the analysis's home and
 * below (besides its own top directory), `path:/dev (special)` the harmless devices (/dev/null,
 * /dev/stdout, /dev/fd/N…), `path:relative` a word that is not absolute, `path:other` any
 * other top directory.
 */
const AREAS = [
  'path:/etc',
  'path:/var',
  'path:/usr',
  'path:/lib',
  'path:/sys',
  'path:/proc',
  'path:/dev',
  'path:/dev (special)',
  'path:/boot',
  'path:/bin',
  'path:/root',
  'path:/home',
  'path:/tmp',
  'path:/opt',
  'path:/run',
  'path:/macos',
  'path:~',
  'path:relative',
  'path:other',
] as const;

export type Feature = OpKind | (typeof FLAGS)[number] | (typeof AREAS)[number];

const BIT = new Map<string, number>([...OP_KINDS, ...FLAGS].map((k, i) => [k, 1 << i]));
const AREA_BIT = new Map<string, number>(AREAS.map((k, i) => [k, 1 << i]));
const bit = (f: string): number => BIT.get(f) ?? 0;
const area = (f: string): number => AREA_BIT.get(f) ?? 0;
const ANY_OP = OP_KINDS.reduce((a, k) => a | bit(k), 0);
const ALL_AREAS = (1 << AREAS.length) - 1;

/** Top directory name → area. */
const TOP = new Map<string, number>([
  ['etc', area('path:/etc')],
  ['var', area('path:/var')],
  ['usr', area('path:/usr')],
  ['lib', area('path:/lib')],
  ['lib32', area('path:/lib')],
  ['lib64', area('path:/lib')],
  ['libx32', area('path:/lib')],
  ['sys', area('path:/sys')],
  ['proc', area('path:/proc')],
  ['dev', area('path:/dev')],
  ['boot', area('path:/boot')],
  ['bin', area('path:/bin')],
  ['sbin', area('path:/bin')],
  ['root', area('path:/root')],
  ['home', area('path:/home')],
  ['Users', area('path:/home')],
  ['tmp', area('path:/tmp')],
  ['opt', area('path:/opt')],
  ['srv', area('path:/opt')],
  ['snap', area('path:/opt')],
  ['run', area('path:/run')],
  ['Library', area('path:/macos')],
  ['System', area('path:/macos')],
  ['Applications', area('path:/macos')],
  ['private', area('path:/macos')],
]);
const DEV = area('path:/dev');
const DEV_SPECIAL = area('path:/dev (special)');
const HOME = area('path:~');
const RELATIVE = area('path:relative');
const OTHER = area('path:other');
/** The harmless devices (as paths/classify.ts reads them), and the names under /dev they start with. */
const SPECIAL_DEVICE = /^\/dev\/(null|zero|u?random|full|stdin|stdout|stderr|tty|fd\/\d+|pts\/\d+)$/;
const SPECIAL_DEVICE_NAMES = new Set(['null', 'zero', 'random', 'urandom', 'full', 'stdin', 'stdout', 'stderr', 'tty', 'fd', 'pts']);
/** Characters that make a pattern component something else than its text (picomatch's syntax). */
const PATTERN_SYNTAX = /[*?[\]{}()!+@\\|]/;

/** The area of an absolute path (or any word: `path:relative` when it is not absolute). */
export function areaOf(path: string): number {
  if (path.charCodeAt(0) !== 47) return RELATIVE;
  const end = path.indexOf('/', 1);
  const top = TOP.get(end < 0 ? path.slice(1) : path.slice(1, end)) ?? OTHER;
  return top === DEV && SPECIAL_DEVICE.test(path) ? DEV_SPECIAL : top;
}

/**
 * The areas a path must have for the glob `pattern` to match it (picomatch's syntax, `~` the
 * analysis's home): a literal first component names its one area; anything else may match anywhere.
 */
export function patternAreas(pattern: string): number {
  if (process.platform === 'win32') return ALL_AREAS;
  if (pattern === '~' || pattern.startsWith('~/')) return HOME;
  if (!pattern.startsWith('/')) return ALL_AREAS;
  const end = pattern.indexOf('/', 1);
  const first = end < 0 ? pattern.slice(1) : pattern.slice(1, end);
  if (first === '' || PATTERN_SYNTAX.test(first)) return ALL_AREAS;
  const top = TOP.get(first) ?? OTHER;
  if (top !== DEV || end < 0) return top;
  // Under /dev: a literal pattern is one path; else the harmless devices are out of reach only
  // when the name after /dev/ is literal and none of theirs.
  const rest = pattern.slice(end + 1);
  if (!PATTERN_SYNTAX.test(rest)) return SPECIAL_DEVICE.test(pattern) ? DEV_SPECIAL : DEV;
  const next = rest.indexOf('/');
  const second = next < 0 ? rest : rest.slice(0, next);
  return second !== '' && !PATTERN_SYNTAX.test(second) && !SPECIAL_DEVICE_NAMES.has(second) ? DEV : DEV | DEV_SPECIAL;
}

/**
 * A subject's features: flags and operation kinds, the areas of its paths, and the starts of its
 * arguments (a 32-bit Bloom filter of each argument's first two and first three characters, ASCII
 * letters folded to lower case: `argStart`).
 */
export interface Features {
  bits: number;
  areas: number;
  starts: number;
}

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

/** How a predicate states what it needs (predicates/programs.ts `requires`). */
export interface NeedSpec {
  features?: readonly Feature[];
  programs?: Iterable<string>;
  /** For programs matched by a pattern (`python3.11`): true for every program the predicate may hold for. */
  program?: (name: string) => boolean;
}

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

const fold = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/** The Bloom bit of a start of two or three characters (`c` is -1 for two). */
function startBit(a: number, b: number, c: number): number {
  return 1 << (Math.imul((a << 16) ^ (b << 8) ^ (c + 1) ^ (c < 0 ? 0x9e37 : 0), 0x9e3779b1) >>> 27);
}

/** The Bloom bits of every argument's first two and three characters. */
export function argStarts(values: readonly { value: string }[]): number {
  let m = 0;
  for (const { value } of values) {
    if (value.length < 2) continue;
    const a = fold(value.charCodeAt(0));
    const b = fold(value.charCodeAt(1));
    m |= startBit(a, b, -1);
    if (value.length > 2) m |= startBit(a, b, fold(value.charCodeAt(2)));
  }
  return m;
}

/** The Bloom bit an argument starting with `prefix` (two characters or more) has; 0 for a shorter one. */
export function startOf(prefix: string): number {
  if (prefix.length < 2) return 0;
  const a = fold(prefix.charCodeAt(0));
  const b = fold(prefix.charCodeAt(1));
  return prefix.length === 2 ? startBit(a, b, -1) : startBit(a, b, fold(prefix.charCodeAt(2)));
}

/**
 * Text every match of the regular expression `source` (as compile.ts builds it: a leading `(?i)`
 * ignores case) starts the input with, or '' when none is known: `^--donate-level(=|$)` gives
 * `--donate-level`, `^(stratum\+tcp|stratum)://` gives `stratum`. Read conservatively: anything
 * not plainly literal ends the prefix. Only ASCII is kept (case folding beyond it is not ours to guess).
 */
export function regexPrefix(source: string): string {
  const src = source.startsWith('(?i)') ? source.slice(4) : source;
  const alternatives = splitTop(src);
  if (alternatives === null) return '';
  let common: string | null = null;
  for (const alt of alternatives) {
    if (!alt.startsWith('^')) return '';
    const p = literalStart(alt.slice(1));
    common = common === null ? p : commonPrefix(common, p);
    if (common === '') return '';
  }
  return common ?? '';
}

const REGEX_SPECIAL = new Set([...'\\^$.|?*+()[]{}']);
const QUANTIFIER = new Set(['?', '*', '{']);

/** The literal text `src` must start with (no `^`, no top-level `|`). */
function literalStart(src: string): string {
  let out = '';
  for (let i = 0; i < src.length; ) {
    let ch: string | null = null;
    let next = i + 1;
    const c = src[i];
    if (c === '\\') {
      const e = src[i + 1];
      if (e === undefined || /[A-Za-z0-9]/.test(e)) return out; // \d, \b, \1…: not a literal
      ch = e;
      next = i + 2;
    } else if (c === '(') {
      if (src.startsWith('(?', i) && !src.startsWith('(?:', i)) return out; // lookaround, named group
      const close = groupEnd(src, i);
      if (close < 0) return out;
      const body = src.slice(src.startsWith('(?:', i) ? i + 3 : i + 1, close);
      const alts = splitTop(body);
      if (alts === null) return out;
      const after = src[close + 1];
      if (after !== undefined && QUANTIFIER.has(after)) return out;
      let common: string | null = null;
      for (const a of alts) common = common === null ? literalStart(a) : commonPrefix(common, literalStart(a));
      return out + (common ?? '');
    } else if (!REGEX_SPECIAL.has(c)) ch = c;
    if (ch === null || ch.charCodeAt(0) > 127) return out;
    const after = src[next];
    if (after !== undefined && QUANTIFIER.has(after)) return out;
    out += ch;
    if (after === '+') return out;
    i = next;
  }
  return out;
}

/** `src` split at its top-level `|`; null when its brackets do not balance. */
function splitTop(src: string): string[] | null {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const end = classEnd(src, i);
      if (end < 0) return null;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')') {
      if (--depth < 0) return null;
    } else if (c === '|' && depth === 0) {
      out.push(src.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return null;
  out.push(src.slice(start));
  return out;
}

/** Index of the `)` closing the group opened at `open`, or -1. */
function groupEnd(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const end = classEnd(src, i);
      if (end < 0) return -1;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Index of the `]` closing the character class opened at `open`, or -1. */
function classEnd(src: string, open: number): number {
  let i = open + 1;
  if (src[i] === '^') i++;
  if (src[i] === ']') i++; // a literal `]` first
  for (; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === ']') return i;
  }
  return -1;
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

/** Features of one subject (without the line's: see verdictFeatures). `home` null: unknown, `path:~` always set. */
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

export function meets(f: Features, program: string | null, need: Need, from = 0): boolean {
  for (let i = from; i < need.length; i++) {
    const c = need[i];
    if ((f.bits & c.bits) !== 0 || (f.areas & c.areas) !== 0 || (f.starts & c.starts) !== 0) continue;
    if (program !== null && ((c.programs !== null && c.programs.has(program)) || (c.test !== null && c.test(program)))) continue;
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Deriving a matcher's clauses

const clause = (bits: number, areas = 0, programs: ReadonlySet<string> | null = null, test: ((p: string) => boolean) | null = null, starts = 0): Clause => ({ bits, areas, starts, programs, test });

function namesOf(v: Names | undefined, defs: SharedDefinitions): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).flatMap((n) => (typeof n === 'string' && n.startsWith('@') ? own(defs.lists, n.slice(1)) ?? [] : [n]));
}

/** The areas a list of patterns allows, or null when they allow any. */
function areasOfPatterns(patterns: string[]): number | null {
  let a = 0;
  for (const p of patterns) a |= typeof p === 'string' ? patternAreas(p) : ALL_AREAS;
  return a === ALL_AREAS || patterns.length === 0 ? null : a;
}

function opClauses(o: OpMatcher, defs: SharedDefinitions): Clause[] {
  const out: Clause[] = [];
  const kinds = o.kind === undefined ? null : Array.isArray(o.kind) ? o.kind : [o.kind];
  out.push(clause(kinds === null ? ANY_OP : kinds.reduce((a, k) => a | (BIT.get(k) ?? ANY_OP), 0)));
  // A path (glob or exact) is matched against the operation's path as text.
  if (o.path !== undefined) {
    const a = areasOfPatterns(namesOf(o.path, defs));
    if (a !== null) out.push(clause(0, a));
  }
  if (o.pathIs !== undefined) {
    const a = areasOfPatterns(namesOf(o.pathIs, defs));
    if (a !== null) out.push(clause(0, a));
  }
  return out;
}

const specClauses = new WeakMap<Predicate, Clause[]>();
const macroClauses = new WeakMap<Matcher, Clause[]>();

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
function predicateClauses(p: Predicate): Clause[] {
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
    if (bits !== 0 || areas !== 0 || programs !== null || spec.program !== undefined) out.push(clause(bits, areas, programs, spec.program === undefined ? null : remembered(spec.program)));
  }
  specClauses.set(p, out);
  return out;
}

/** The clauses a matcher implies (empty: none known). Call after the matcher compiled cleanly. */
export function needOf(m: Matcher, defs: SharedDefinitions): Clause[] {
  return tidy(clausesOf(m, defs, 0));
}

function clausesOf(m: Matcher, defs: SharedDefinitions, depth: number): Clause[] {
  if (depth > 20 || typeof m !== 'object' || m === null) return [];
  const out: Clause[] = [];
  // Only the fields a matcher has (two or three of the twenty-odd), read once each.
  for (const key of Object.keys(m) as (keyof Matcher)[]) {
    switch (key) {
      case 'program':
        out.push(clause(0, 0, new Set(namesOf(m.program, defs))));
        break;
      case 'op':
        if (m.op !== undefined) out.push(...opClauses(m.op, defs));
        break;
      case 'code':
        out.push(clause(bit('code')));
        break;
      case 'redirect':
        out.push(clause(bit('redirect')));
        // The redirect's word is matched as text: its area says where it can point.
        if (m.redirect?.path !== undefined) {
          const a = areasOfPatterns(namesOf(m.redirect.path, defs));
          if (a !== null) out.push(clause(0, a));
        }
        break;
      case 'pipedFrom':
      case 'pipedTo':
        out.push(clause(bit('pipeline')));
        break;
      case 'execsStdin':
        if (m.execsStdin === true) out.push(clause(bit('execs-stdin')));
        break;
      case 'arg':
      case 'argRegex':
      case 'argsAll': {
        out.push(clause(bit('args')));
        // Some argument (argRegex), or the first (argsAll), starts with the expression's fixed text.
        const r = m[key];
        const start = key !== 'arg' && typeof r === 'string' ? startOf(regexPrefix(r)) : 0;
        if (start !== 0) out.push(clause(0, 0, null, null, start));
        break;
      }
      case 'argCount':
        if ((m.argCount?.min ?? 0) > 0) out.push(clause(bit('args')));
        break;
      case 'fedBy':
        out.push(clause(bit('feeders')));
        break;
      case 'inside':
        out.push(clause(bit('parent')));
        break;
      case 'context': {
        const c = m.context ?? {};
        if (c.privileged === true) out.push(clause(bit('privileged')));
        if (c.remote === true) out.push(clause(bit('remote')));
        if (c.substitution === true) out.push(clause(bit('substitution')));
        if (c.background === true) out.push(clause(bit('background')));
        if (c.loop === true) out.push(clause(bit('loop')));
        if (c.inFunction === true) out.push(clause(bit('in-function')));
        break;
      }
      case 'predicate': {
        const predicate = typeof m.predicate === 'string' ? own(PREDICATES, m.predicate) : undefined;
        if (predicate) out.push(...predicateClauses(predicate));
        break;
      }
      case 'macro': {
        const macro = typeof m.macro === 'string' ? own(defs.macros, m.macro) : undefined;
        if (macro) {
          // Macros recur across rules: their clauses are worked out once.
          let cs = macroClauses.get(macro);
          if (cs === undefined) {
            cs = clausesOf(macro, defs, depth + 1);
            macroClauses.set(macro, cs);
          }
          out.push(...cs);
        }
        break;
      }
      case 'all':
        if (Array.isArray(m.all)) for (const x of m.all) out.push(...clausesOf(x, defs, depth + 1));
        break;
      case 'any':
        if (Array.isArray(m.any) && m.any.length > 0) out.push(...disjunction(m.any.map((b) => tidy(clausesOf(b, defs, depth + 1)))));
        break;
      default:
        break;
    }
  }
  return out;
}

/** Most clauses a disjunction is spelt out into (each is one pick of a clause per branch). */
const MAX_PRODUCT = 16;

/**
 * (A1 ∧ A2) ∨ (B1 ∧ B2) = (A1 ∨ B1) ∧ (A1 ∨ B2) ∧ (A2 ∨ B1) ∧ (A2 ∨ B2). Where that is too many
 * clauses, the branches with the most keep only their most selective one (still necessary).
 */
function disjunction(branches: Clause[][]): Clause[] {
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
  const programs = x.programs === null || x.programs === y.programs ? y.programs : y.programs === null ? x.programs : union(x.programs, y.programs);
  const tx = x.test;
  const ty = y.test;
  const test = tx === null ? ty : ty === null ? tx : (p: string) => tx(p) || ty(p);
  return clause(x.bits | y.bits, x.areas | y.areas, programs, test, x.starts | y.starts);
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
const BIT_WEIGHT = [...OP_KINDS, ...FLAGS].map((k) => COMMON.get(k) ?? 0.02);
const AREA_WEIGHT = AREAS.map((k) => COMMON.get(k) ?? 0.02);

/** Without duplicates (the same features and the same program set), most selective first. */
function tidy(cs: Clause[]): Clause[] {
  const out: Clause[] = [];
  for (const c of cs) {
    const same = (d: Clause) => d.bits === c.bits && d.areas === c.areas && d.starts === c.starts && d.programs === c.programs && d.test === c.test;
    if (!out.some(same)) out.push(c);
  }
  if (out.length < 2) return out;
  const w = new Map(out.map((c) => [c, weight(c)]));
  return out.sort((a, b) => w.get(a)! - w.get(b)!);
}
