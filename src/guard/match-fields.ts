/**
 * The guard rules' match language, one entry per matcher field: what it means (`doc`, which the
 * docs and the JSON schema show), what its value looks like (`schema`), where compile.ts runs its
 * check among a matcher's (`cost`: 0 a lookup on the command … 5 a predicate that scans), how it
 * compiles, the cheap necessary conditions the prefilter may skip a command for (`need`), and the
 * programs it restricts a rule to (`programs`, for the rule index of load-rules.ts).
 *
 * compile.ts, prefilter.ts and load-rules.ts only walk this table; scripts/gen-guard-schema.mjs
 * turns it into rules/schemas/guard-rules.schema.json and the field list of docs/guard-rules.md.
 * Adding a field to `Matcher` (rule-types.ts) without an entry here fails to compile. The fields
 * inside `context` and `op` are tables of their own (nested-fields.ts).
 *
 * Soundness of `need` and `programs`: each may only say what must hold whenever the field holds
 * (`not` says nothing; relations to other commands say nothing about this one's program).
 */
import { own } from '../own.js';
import type { JsonSchema, Matcher, SharedDefinitions } from './rule-types.js';
import type { Subject } from './subject.js';
import { PREDICATES } from './predicates/index.js';
import type { Predicate } from './predicates/programs.js';
import { bit, startOf, type Feature } from './features.js';
import { regexPrefix } from './regex-prefix.js';
import { areasOfPatterns, clause, disjunction, namesOf, predicateClauses, tidy, type Clause } from './clauses.js';
import { bool, fail, globs, hasAnyFlag, names, pipelineExtent, regex, stdinExec, type Compiled, type CompileEnv } from './compile-parts.js';
import { compileContext, compileOp, CONTEXT_FIELDS, opClauses } from './nested-fields.js';

export { CONTEXT_FIELDS, OP_FIELDS } from './nested-fields.js';

/** What a field's compiler gets besides its value. */
export interface FieldCompile {
  env: CompileEnv;
  /** The field's place in the rule, for error messages (`match.all[0].program`). */
  path: string;
  /** A nested matcher, compiled at `name` below the matcher holding the field (`pipedFrom`, `all[0]`). */
  sub(m: Matcher, name: string): Compiled;
  /** A matcher compiled in another environment (a macro: errors name it). */
  matcher(m: Matcher, env: CompileEnv, path: string): Compiled;
}

/** What a field's `need` gets besides its value. */
export interface FieldNeed {
  defs: SharedDefinitions;
  /** The clauses a nested matcher implies (as a conjunction, not yet tidied). */
  clausesOf(m: Matcher): Clause[];
}

/** What a field's `programs` gets besides its value. */
export interface FieldPrograms {
  defs: SharedDefinitions;
  /** The programs a nested matcher can match, or null for any. */
  programsOf(m: Matcher): ReadonlySet<string> | null;
}

export interface MatchField<V> {
  /** One line: what the field matches. */
  doc: string;
  /** Its value, as a JSON schema fragment. */
  schema: JsonSchema;
  /** Where its check runs among a matcher's, cheapest first (a number, or read from the value). */
  cost: number | ((value: V) => number);
  /** Check the value (failing with the field named) and build the check. */
  compile(value: V, cx: FieldCompile): Compiled;
  /** Clauses every command it holds for meets (absent: none known). */
  need?(value: V, cx: FieldNeed): Clause[];
  /** Program sets the command's program must be in (each restricts; absent or none: any program). */
  programs?(value: V, cx: FieldPrograms): ReadonlySet<string>[];
}

export type MatchFields = { readonly [K in keyof Matcher]-?: MatchField<NonNullable<Matcher[K]>> };

const NAMES: JsonSchema = { $ref: '#/definitions/names' };
const MATCHER: JsonSchema = { $ref: '#/definitions/matcher' };
const REGEX: JsonSchema = { type: 'string' };

/** A clause on one feature. */
const has = (f: Feature): Clause[] => [clause(bit(f))];

const lookupPredicate = (name: unknown): Predicate | undefined => (typeof name === 'string' ? own(PREDICATES, name) : undefined);
const lookupMacro = (name: unknown, defs: SharedDefinitions): Matcher | undefined => (typeof name === 'string' ? own(defs.macros, name) : undefined);

/** Some argument passes `test`. */
const someArg =
  (test: (value: string) => boolean): Compiled =>
  (s) => {
    for (const a of s.cmd.args) if (test(a.value)) return true;
    return false;
  };

/** Arguments present, and (for a regular expression) one starting with its fixed text. */
function argNeed(src: unknown): Clause[] {
  const start = typeof src === 'string' ? startOf(regexPrefix(src)) : 0;
  return start === 0 ? has('args') : [...has('args'), clause(0, 0, null, null, start)];
}

/** Macros recur across rules: their clauses are worked out once. */
const macroClauses = new WeakMap<Matcher, Clause[]>();

export const MATCH_FIELDS: MatchFields = {
  program: {
    doc: 'The normalised program name (`/bin/rm`, `\\rm`, `"rm"` are `rm`) is one of these.',
    schema: NAMES,
    cost: 0,
    compile(v, cx) {
      const set = new Set(names(v, cx.env, cx.path));
      return (s) => s.cmd.program !== null && set.has(s.cmd.program);
    },
    need: (v, cx) => [clause(0, 0, new Set(namesOf(v, cx.defs)))],
    programs: (v, cx) => [new Set(namesOf(v, cx.defs))],
  },
  subcommand: {
    doc: 'The first subcommand (`git push`: `push`; several levels: `remote add`) is one of these; without a spec that knows them, the first operand.',
    schema: NAMES,
    cost: 2,
    compile(v, cx) {
      const set = new Set(names(v, cx.env, cx.path));
      return (s) => {
        const subs = s.parsed.subcommands;
        if (subs.length === 0) {
          // No spec knows the subcommands: the first operand stands for it.
          const first = s.parsed.operands[0];
          return first !== undefined && set.has(first.value);
        }
        return set.has(subs[0]) || set.has(subs.join(' '));
      };
    },
  },
  flags: {
    doc: 'Every group is present; a group is the spellings of one option (`[["-r", "-R", "--recursive"]]` matches `-rf`, `-fr`, `-r -f`).',
    schema: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
    cost: 2,
    compile(v, cx) {
      if (!Array.isArray(v) || v.some((g) => !Array.isArray(g) || g.some((x) => typeof x !== 'string'))) {
        fail(cx.env, cx.path, 'must be a list of lists of spellings');
      }
      return (s) => {
        for (const g of v) if (!hasAnyFlag(s, g)) return false;
        return true;
      };
    },
  },
  anyFlag: {
    doc: 'At least one of these option spellings is present.',
    schema: NAMES,
    cost: 2,
    compile(v, cx) {
      const fl = names(v, cx.env, cx.path);
      return (s) => hasAnyFlag(s, fl);
    },
  },
  noFlag: {
    doc: 'None of these option spellings is present.',
    schema: NAMES,
    cost: 2,
    compile(v, cx) {
      const fl = names(v, cx.env, cx.path);
      return (s) => !hasAnyFlag(s, fl);
    },
  },
  arg: {
    doc: 'Some argument (after expansion) matches one of these globs.',
    schema: NAMES,
    cost: 2,
    compile: (v, cx) => someArg(globs(names(v, cx.env, cx.path), cx.env, cx.path)),
    need: () => has('args'),
  },
  argRegex: {
    doc: 'Some argument matches this regular expression (a leading `(?i)` ignores case).',
    schema: REGEX,
    cost: 2,
    compile(v, cx) {
      const r = regex(v, cx.env, cx.path);
      return someArg((a) => r.test(a));
    },
    need: (v) => argNeed(v),
  },
  argsAll: {
    doc: 'Every argument matches this regular expression, and there is at least one.',
    schema: REGEX,
    cost: 2,
    compile(v, cx) {
      const r = regex(v, cx.env, cx.path);
      return (s) => {
        for (const a of s.cmd.args) if (!r.test(a.value)) return false;
        return s.cmd.args.length > 0;
      };
    },
    need: (v) => argNeed(v),
  },
  argCount: {
    doc: 'The number of arguments is within `min` … `max` (both optional).',
    schema: {
      type: 'object',
      properties: { min: { type: 'integer', minimum: 0 }, max: { type: 'integer', minimum: 0 } },
      additionalProperties: false,
    },
    cost: 0,
    compile(v, cx) {
      const { min = 0, max = Infinity } = v;
      if (typeof min !== 'number' || typeof max !== 'number') fail(cx.env, cx.path, 'needs numbers min / max');
      return (s) => s.cmd.args.length >= min && s.cmd.args.length <= max;
    },
    need: (v) => ((v.min ?? 0) > 0 ? has('args') : []),
  },
  op: {
    doc: 'Some operation of the command (what it reads, writes, deletes, runs, fetches…) matches; see the operation fields.',
    schema: { $ref: '#/definitions/op' },
    cost: 1,
    compile: (v, cx) => compileOp(v, cx.env, cx.path),
    need: (v, cx) => opClauses(v, cx.defs),
  },
  redirect: {
    doc: 'Some file redirect of the command goes to a path matching the globs `path`, with an operator among `op` (`>`, `>>`…).',
    schema: { type: 'object', properties: { path: NAMES, op: NAMES }, additionalProperties: false },
    cost: 1,
    compile(v, cx) {
      const g = globs(names(v.path, cx.env, `${cx.path}.path`), cx.env, `${cx.path}.path`);
      const ops = names(v.op, cx.env, `${cx.path}.op`);
      return (s) => {
        for (const x of s.cmd.redirects) if (x.path !== null && g(x.path.value) && (ops.length === 0 || ops.includes(x.op))) return true;
        return false;
      };
    },
    need(v, cx) {
      // The redirect's word is matched as text: its area says where it can point.
      const a = v.path === undefined ? null : areasOfPatterns(namesOf(v.path, cx.defs));
      return a === null ? has('redirect') : [...has('redirect'), clause(0, a)];
    },
  },
  code: {
    doc: "The inline program text of an interpreter (`python -c`, `perl -e`, awk's program) matches every one of these regular expressions.",
    schema: { type: 'array', items: REGEX },
    cost: 3,
    compile(v, cx) {
      if (!Array.isArray(v)) fail(cx.env, cx.path, 'must be a list of regular expressions');
      const rs = v.map((c, i) => regex(c, cx.env, `${cx.path}[${i}]`));
      return (s) => {
        const code = s.code;
        if (code === null) return false;
        for (const r of rs) if (!r.test(code)) return false;
        return true;
      };
    },
    need: () => has('code'),
  },
  execsStdin: {
    doc: 'The command runs the program it reads from stdin (`sh`, `bash -s`, `python -`), or (false) does not.',
    schema: { type: 'boolean' },
    cost: 1,
    compile(v, cx) {
      const want = bool(v, cx.env, cx.path);
      return (s) => stdinExec(s) === want;
    },
    need: (v) => (v === true ? has('execs-stdin') : []),
  },
  context: {
    doc: 'Where the command runs: each given context field has this value; see the context fields.',
    schema: { $ref: '#/definitions/context' },
    cost: 0,
    compile: (v, cx) => compileContext(v, cx.env, cx.path),
    need(v) {
      const out: Clause[] = [];
      for (const [k, f] of Object.entries(CONTEXT_FIELDS)) if (v[k as keyof typeof v] === true) out.push(...has(f.feature));
      return out;
    },
  },
  pipedFrom: {
    doc: 'An earlier stage of the same pipeline matches this matcher (`curl … | sh`: `sh` is piped from `curl`).',
    schema: MATCHER,
    cost: 3,
    compile(v, cx) {
      const extent = pipelineExtent(cx.sub(v, 'pipedFrom'));
      return (s) => {
        const p = s.cmd.context.pipeline;
        const e = p ? extent(s).get(p.id) : undefined;
        return p !== null && e !== undefined && e.min < p.index;
      };
    },
    need: () => has('pipeline'),
  },
  pipedTo: {
    doc: 'A later stage of the same pipeline matches this matcher.',
    schema: MATCHER,
    cost: 3,
    compile(v, cx) {
      const extent = pipelineExtent(cx.sub(v, 'pipedTo'));
      return (s) => {
        const p = s.cmd.context.pipeline;
        const e = p ? extent(s).get(p.id) : undefined;
        return p !== null && e !== undefined && e.max > p.index;
      };
    },
    need: () => has('pipeline'),
  },
  fedBy: {
    doc: "A command in a substitution among this command's words (`$(…)`, `<(…)`) matches this matcher.",
    schema: MATCHER,
    cost: 3,
    compile(v, cx) {
      const f = cx.sub(v, 'fedBy');
      return (s) => {
        for (const x of s.feeders()) if (f(x)) return true;
        return false;
      };
    },
    need: () => has('feeders'),
  },
  inside: {
    doc: 'A wrapper around this command (`sudo`, `bash -c`, `ssh`, `xargs`…) matches this matcher.',
    schema: MATCHER,
    cost: 3,
    compile(v, cx) {
      const f = cx.sub(v, 'inside');
      return (s) => {
        for (const x of s.ancestors()) if (f(x)) return true;
        return false;
      };
    },
    need: () => has('parent'),
  },
  after: {
    doc: "An earlier command on the line matches `match`; with `samePath`, one of its paths is one of this command's (download, then run the same file).",
    schema: { type: 'object', properties: { match: MATCHER, samePath: { type: 'boolean' } }, required: ['match'], additionalProperties: false },
    cost: 4,
    compile(v, cx) {
      if (typeof v !== 'object' || v === null || !v.match) fail(cx.env, cx.path, 'needs { "match": … }');
      return afterCheck(cx.sub(v.match, 'after.match'), v.samePath === true);
    },
  },
  predicate: {
    doc: "A named predicate (src/guard/predicates/) holds: for what data cannot say, such as a fork bomb's recursion. Runs last unless the predicate is declared cheap.",
    schema: { type: 'string', enum: Object.keys(PREDICATES).sort() },
    cost: (v) => lookupPredicate(v)?.cost ?? 5,
    compile(v, cx) {
      const p = lookupPredicate(v);
      if (!p) fail(cx.env, cx.path, `names no predicate (known: ${Object.keys(PREDICATES).join(', ')})`);
      return p.bind && cx.env.settings ? p.bind(cx.env.settings) : p;
    },
    need(v) {
      const p = lookupPredicate(v);
      return p ? predicateClauses(p) : [];
    },
    programs(v) {
      const p = lookupPredicate(v);
      return p?.programs ? [p.programs] : [];
    },
  },
  macro: {
    doc: 'A matcher defined once under `macros` in rules/builtin/_lists.json (`fetch`, `decode`…) matches.',
    schema: { type: 'string' },
    cost: 4,
    compile(v, cx) {
      const macro = lookupMacro(v, cx.env.defs);
      if (!macro) fail(cx.env, cx.path, `names no macro "${String(v)}"`);
      return cx.matcher(macro, { ...cx.env, where: `${cx.env.where} (macro ${v})` }, 'macro');
    },
    need(v, cx) {
      const macro = lookupMacro(v, cx.defs);
      if (!macro) return [];
      let cs = macroClauses.get(macro);
      if (cs === undefined) {
        cs = cx.clausesOf(macro);
        macroClauses.set(macro, cs);
      }
      return cs;
    },
    programs(v, cx) {
      const macro = lookupMacro(v, cx.defs);
      const p = macro ? cx.programsOf(macro) : null;
      return p === null ? [] : [p];
    },
  },
  all: {
    doc: 'Every one of these matchers matches.',
    schema: { type: 'array', items: MATCHER },
    cost: 4,
    compile(v, cx) {
      if (!Array.isArray(v)) fail(cx.env, cx.path, 'must be a list of matchers');
      const fs = v.map((x, i) => cx.sub(x, `all[${i}]`));
      return (s) => {
        for (const f of fs) if (!f(s)) return false;
        return true;
      };
    },
    need: (v, cx) => (Array.isArray(v) ? v.flatMap((x) => cx.clausesOf(x)) : []),
    programs(v, cx) {
      if (!Array.isArray(v)) return [];
      const out: ReadonlySet<string>[] = [];
      for (const x of v) {
        const p = cx.programsOf(x);
        if (p !== null) out.push(p);
      }
      return out;
    },
  },
  any: {
    doc: 'At least one of these matchers matches.',
    schema: { type: 'array', items: MATCHER, minItems: 1 },
    cost: 4,
    compile(v, cx) {
      if (!Array.isArray(v) || v.length === 0) fail(cx.env, cx.path, 'must be a non-empty list of matchers');
      const fs = v.map((x, i) => cx.sub(x, `any[${i}]`));
      return (s) => {
        for (const f of fs) if (f(s)) return true;
        return false;
      };
    },
    // What every branch has in common, clause by clause.
    need: (v, cx) => (Array.isArray(v) && v.length > 0 ? disjunction(v.map((b) => tidy(cx.clausesOf(b)))) : []),
    programs: (v, cx) => (Array.isArray(v) && v.length > 0 ? anyPrograms(v, cx) : []),
  },
  not: {
    doc: 'This matcher does not match.',
    schema: MATCHER,
    cost: 4,
    compile(v, cx) {
      const f = cx.sub(v, 'not');
      return (s) => !f(s);
    },
  },
};

/** The programs of a union of branches, when every branch is restricted; else none. */
function anyPrograms(branches: Matcher[], cx: FieldPrograms): ReadonlySet<string>[] {
  const union = new Set<string>();
  for (const b of branches) {
    const p = cx.programsOf(b);
    if (p === null) return [];
    for (const x of p) union.add(x);
  }
  return [union];
}

/** `after`: the subjects that match, computed once per verdict (keyed by its subject list). */
function afterCheck(f: Compiled, samePath: boolean): Compiled {
  const matchesOf = new WeakMap<Subject[], Subject[]>();
  return (s) => {
    let hits = matchesOf.get(s.all);
    if (!hits) {
      hits = s.all.filter(f);
      matchesOf.set(s.all, hits);
    }
    return hits.some((o) => {
      if (o.cmd.id >= s.cmd.id) return false;
      if (!samePath) return true;
      const mine = s.paths();
      return [...o.paths()].some((p) => mine.has(p));
    });
  };
}
