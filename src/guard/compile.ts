/**
 * Compile a declarative Matcher into a predicate over a Subject, once, at load time: lists are
 * resolved, globs and regular expressions compiled, and every field checked, so a bad rule fails
 * with its file, rule and field named, not when a command happens to reach it.
 */
import { ShellgateError } from '../errors.js';
import type { Matcher, Names, OpMatcher, SharedDefinitions } from './rule-types.js';
import type { Subject } from './subject.js';
import type { Operation } from '../ops/types.js';
import { PREDICATES } from './predicates/index.js';
import { own } from '../own.js';
import { globMatcher } from './glob.js';

export type Compiled = (s: Subject) => boolean;

const MATCHER_KEYS = new Set([
  'program', 'subcommand', 'flags', 'anyFlag', 'noFlag', 'arg', 'argRegex', 'argsAll', 'argCount', 'op', 'redirect', 'code',
  'execsStdin', 'context', 'pipedFrom', 'pipedTo', 'fedBy', 'inside', 'after', 'predicate', 'macro', 'all', 'any', 'not',
]);
const OP_KEYS = new Set(['kind', 'class', 'path', 'pathIs', 'host', 'dynamic', 'source']);
const CONTEXT_KEYS = new Set(['privileged', 'remote', 'substitution', 'background', 'loop', 'inFunction']);

export interface CompileEnv {
  defs: SharedDefinitions;
  home: () => string;
  /** Where we are, for error messages: `file: rule "id"`. */
  where: string;
}

function fail(env: CompileEnv, field: string, what: string): never {
  throw new ShellgateError('config', `${env.where}: field "${field}" ${what}`);
}

function names(v: Names | undefined, env: CompileEnv, field: string): string[] {
  if (v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  for (const n of list) {
    if (typeof n !== 'string') fail(env, field, 'must be a string or a list of strings');
    if (n.startsWith('@')) {
      const l = own(env.defs.lists, n.slice(1));
      if (!l) fail(env, field, `names the unknown list ${n}`);
      out.push(...l);
    } else out.push(n);
  }
  return out;
}

function regex(src: unknown, env: CompileEnv, field: string): RegExp {
  if (typeof src !== 'string') fail(env, field, 'must be a regular expression string');
  try {
    // A leading `(?i)` makes the expression ignore case (SQL keywords, Windows-style flags).
    return src.startsWith('(?i)') ? new RegExp(src.slice(4), 'si') : new RegExp(src, 's');
  } catch (e) {
    fail(env, field, `is not a valid regular expression (${(e as Error).message})`);
  }
}

function globs(patterns: string[], env: CompileEnv, field: string): (s: string) => boolean {
  if (patterns.length === 0) return () => true;
  try {
    // `~` in a pattern is the home directory of the analysis.
    const cache = new Map<string, (s: string) => boolean>();
    // Without `~`, the patterns are the same for every home: one matcher.
    const fixed = patterns.some((p) => p.startsWith('~')) ? null : globMatcher(patterns);
    if (fixed !== null) return fixed;
    let lastHome: string | null = null;
    let last: (s: string) => boolean = () => false;
    return (s: string) => {
      const home = env.home();
      if (home !== lastHome) {
        let m = cache.get(home);
        if (!m) {
          m = globMatcher(patterns.map((p) => (p.startsWith('~') ? home + p.slice(1) : p)));
          cache.set(home, m);
        }
        lastHome = home;
        last = m;
      }
      return last(s);
    };
  } catch (e) {
    fail(env, field, `has a bad glob (${(e as Error).message})`);
  }
}

function bool(v: unknown, env: CompileEnv, field: string): boolean {
  if (typeof v !== 'boolean') fail(env, field, 'must be true or false');
  return v;
}

export function compileMatcher(m: Matcher, env: CompileEnv, path = 'match'): Compiled {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) fail(env, path, 'must be an object');
  for (const k of Object.keys(m)) if (!MATCHER_KEYS.has(k)) fail(env, `${path}.${k}`, `is not a matcher field (known: ${[...MATCHER_KEYS].join(', ')})`);
  // Checks run cheapest first (a program name before a predicate); each is pure, so order is free.
  const staged: { cost: number; check: Compiled }[] = [];
  const add = (cost: number, check: Compiled) => staged.push({ cost, check });
  const sub = (x: Matcher, name: string) => compileMatcher(x, env, `${path}.${name}`);

  if (m.program !== undefined) {
    const set = new Set(names(m.program, env, `${path}.program`));
    add(0, (s) => s.cmd.program !== null && set.has(s.cmd.program));
  }
  if (m.subcommand !== undefined) {
    const set = new Set(names(m.subcommand, env, `${path}.subcommand`));
    add(2, (s) => {
      const subs = s.parsed.subcommands;
      if (subs.length === 0) {
        // No spec knows the subcommands: the first operand stands for it.
        const first = s.parsed.operands[0];
        return first !== undefined && set.has(first.value);
      }
      return set.has(subs[0]) || set.has(subs.join(' '));
    });
  }
  if (m.flags !== undefined) {
    if (!Array.isArray(m.flags) || m.flags.some((g) => !Array.isArray(g) || g.some((x) => typeof x !== 'string'))) {
      fail(env, `${path}.flags`, 'must be a list of lists of spellings');
    }
    const groups = m.flags;
    add(2, (s) => {
      for (const g of groups) if (!hasAnyFlag(s, g)) return false;
      return true;
    });
  }
  if (m.anyFlag !== undefined) {
    const fl = names(m.anyFlag, env, `${path}.anyFlag`);
    add(2, (s) => hasAnyFlag(s, fl));
  }
  if (m.noFlag !== undefined) {
    const fl = names(m.noFlag, env, `${path}.noFlag`);
    add(2, (s) => !hasAnyFlag(s, fl));
  }
  if (m.arg !== undefined) {
    const g = globs(names(m.arg, env, `${path}.arg`), env, `${path}.arg`);
    add(2, (s) => {
      for (const a of s.cmd.args) if (g(a.value)) return true;
      return false;
    });
  }
  if (m.argRegex !== undefined) {
    const r = regex(m.argRegex, env, `${path}.argRegex`);
    add(2, (s) => {
      for (const a of s.cmd.args) if (r.test(a.value)) return true;
      return false;
    });
  }
  if (m.argsAll !== undefined) {
    const r = regex(m.argsAll, env, `${path}.argsAll`);
    add(2, (s) => {
      for (const a of s.cmd.args) if (!r.test(a.value)) return false;
      return s.cmd.args.length > 0;
    });
  }
  if (m.argCount !== undefined) {
    const { min = 0, max = Infinity } = m.argCount;
    if (typeof min !== 'number' || typeof max !== 'number') fail(env, `${path}.argCount`, 'needs numbers min / max');
    add(0, (s) => s.cmd.args.length >= min && s.cmd.args.length <= max);
  }
  if (m.op !== undefined) add(1, compileOp(m.op, env, `${path}.op`));
  if (m.redirect !== undefined) {
    const r = m.redirect;
    const g = globs(names(r.path, env, `${path}.redirect.path`), env, `${path}.redirect.path`);
    const ops = names(r.op, env, `${path}.redirect.op`);
    add(1, (s) => {
      for (const x of s.cmd.redirects) if (x.path !== null && g(x.path.value) && (ops.length === 0 || ops.includes(x.op))) return true;
      return false;
    });
  }
  if (m.code !== undefined) {
    if (!Array.isArray(m.code)) fail(env, `${path}.code`, 'must be a list of regular expressions');
    const rs = m.code.map((c, i) => regex(c, env, `${path}.code[${i}]`));
    add(3, (s) => {
      const code = s.code;
      if (code === null) return false;
      for (const r of rs) if (!r.test(code)) return false;
      return true;
    });
  }
  if (m.execsStdin !== undefined) {
    const want = bool(m.execsStdin, env, `${path}.execsStdin`);
    add(1, (s) => stdinExec(s) === want);
  }
  if (m.context !== undefined) {
    for (const k of Object.keys(m.context)) if (!CONTEXT_KEYS.has(k)) fail(env, `${path}.context.${k}`, 'is not a context field');
    const c = m.context;
    add(0, (s) => {
      const x = s.cmd.context;
      return (
        (c.privileged === undefined || c.privileged === x.privileged) &&
        (c.remote === undefined || c.remote === (x.remote !== null)) &&
        (c.substitution === undefined || c.substitution === (x.substitution !== null)) &&
        (c.background === undefined || c.background === x.background) &&
        (c.loop === undefined || c.loop === x.loop) &&
        (c.inFunction === undefined || c.inFunction === (x.functionName !== null))
      );
    });
  }
  if (m.pipedFrom !== undefined) {
    const extent = pipelineExtent(sub(m.pipedFrom, 'pipedFrom'));
    add(3, (s) => {
      const p = s.cmd.context.pipeline;
      const e = p ? extent(s).get(p.id) : undefined;
      return p !== null && e !== undefined && e.min < p.index;
    });
  }
  if (m.pipedTo !== undefined) {
    const extent = pipelineExtent(sub(m.pipedTo, 'pipedTo'));
    add(3, (s) => {
      const p = s.cmd.context.pipeline;
      const e = p ? extent(s).get(p.id) : undefined;
      return p !== null && e !== undefined && e.max > p.index;
    });
  }
  if (m.fedBy !== undefined) {
    const f = sub(m.fedBy, 'fedBy');
    add(3, (s) => {
      for (const x of s.feeders()) if (f(x)) return true;
      return false;
    });
  }
  if (m.inside !== undefined) {
    const f = sub(m.inside, 'inside');
    add(3, (s) => {
      for (const x of s.ancestors()) if (f(x)) return true;
      return false;
    });
  }
  if (m.after !== undefined) {
    if (typeof m.after !== 'object' || m.after === null || !m.after.match) fail(env, `${path}.after`, 'needs { "match": … }');
    const f = sub(m.after.match, 'after.match');
    const samePath = m.after.samePath === true;
    // The subjects that match, computed once per verdict (keyed by its subject list).
    const matchesOf = new WeakMap<Subject[], Subject[]>();
    add(4, (s) => {
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
    });
  }
  if (m.predicate !== undefined) {
    const p = typeof m.predicate === 'string' ? own(PREDICATES, m.predicate) : undefined;
    if (!p) fail(env, `${path}.predicate`, `names no predicate (known: ${Object.keys(PREDICATES).join(', ')})`);
    add(p.cost ?? 5, p);
  }
  if (m.macro !== undefined) {
    const macro = typeof m.macro === 'string' ? own(env.defs.macros, m.macro) : undefined;
    if (!macro) fail(env, `${path}.macro`, `names no macro "${String(m.macro)}"`);
    add(4, compileMatcher(macro, { ...env, where: `${env.where} (macro ${m.macro})` }, 'macro'));
  }
  if (m.all !== undefined) {
    if (!Array.isArray(m.all)) fail(env, `${path}.all`, 'must be a list of matchers');
    const fs = m.all.map((x, i) => sub(x, `all[${i}]`));
    add(4, (s) => {
      for (const f of fs) if (!f(s)) return false;
      return true;
    });
  }
  if (m.any !== undefined) {
    if (!Array.isArray(m.any) || m.any.length === 0) fail(env, `${path}.any`, 'must be a non-empty list of matchers');
    const fs = m.any.map((x, i) => sub(x, `any[${i}]`));
    add(4, (s) => {
      for (const f of fs) if (f(s)) return true;
      return false;
    });
  }
  if (m.not !== undefined) {
    const f = sub(m.not, 'not');
    add(4, (s) => !f(s));
  }
  if (staged.length === 0) fail(env, path, 'matches everything: give at least one condition');
  const checks = staged.sort((a, b) => a.cost - b.cost).map((x) => x.check);
  if (checks.length === 1) return checks[0];
  return (s) => {
    for (const c of checks) if (!c(s)) return false;
    return true;
  };
}

/**
 * For each pipeline of a verdict, the first and last stage a matcher accepts, computed once per
 * verdict: `pipedFrom`/`pipedTo` then cost one lookup per command, not one scan per pair.
 */
function pipelineExtent(f: Compiled): (s: Subject) => Map<number, { min: number; max: number }> {
  const cache = new WeakMap<Subject[], Map<number, { min: number; max: number }>>();
  return (s) => {
    let m = cache.get(s.all);
    if (!m) {
      m = new Map();
      for (const o of s.all) {
        const p = o.cmd.context.pipeline;
        if (!p || !f(o)) continue;
        const e = m.get(p.id);
        if (!e) m.set(p.id, { min: p.index, max: p.index });
        else {
          e.min = Math.min(e.min, p.index);
          e.max = Math.max(e.max, p.index);
        }
      }
      cache.set(s.all, m);
    }
    return m;
  };
}

function stdinExec(s: Subject): boolean {
  if (s.cmd.execsStdin) return true;
  for (const o of s.ops) if (o.kind === 'Exec' && o.source === 'stdin') return true;
  return false;
}

/** Some of these option spellings is present. */
function hasAnyFlag(s: Subject, spellings: readonly string[]): boolean {
  for (const f of spellings) if (s.hasFlag(f)) return true;
  return false;
}

function compileOp(o: OpMatcher, env: CompileEnv, path: string): Compiled {
  if (typeof o !== 'object' || o === null) fail(env, path, 'must be an object');
  for (const k of Object.keys(o)) if (!OP_KEYS.has(k)) fail(env, `${path}.${k}`, 'is not an operation field');
  const kinds = o.kind === undefined ? null : new Set(Array.isArray(o.kind) ? o.kind : [o.kind]);
  const classes = o.class === undefined ? null : Array.isArray(o.class) ? o.class : [o.class];
  const pathMatch = o.path === undefined ? null : globs(names(o.path, env, `${path}.path`), env, `${path}.path`);
  const hostMatch = o.host === undefined ? null : globs(names(o.host, env, `${path}.host`), env, `${path}.host`);
  const exact = o.pathIs === undefined ? null : names(o.pathIs, env, `${path}.pathIs`);
  const exactSet = (): Set<string> => {
    const home = env.home();
    return new Set(exact!.map((p) => (p === '~' ? home : p.startsWith('~/') ? home + p.slice(1) : p)));
  };
  let exactCache: { home: string; set: Set<string> } | null = null;
  const isExact = (p: string): boolean => {
    if (exactCache === null || exactCache.home !== env.home()) exactCache = { home: env.home(), set: exactSet() };
    return exactCache.set.has(p);
  };
  const wanted = (op: Operation): boolean =>
    (kinds === null || kinds.has(op.kind)) &&
    (classes === null || (op.classes !== undefined && op.classes.some((c) => classes.includes(c)))) &&
    (pathMatch === null || (op.path !== undefined && pathMatch(op.path))) &&
    (hostMatch === null || (op.host !== undefined && hostMatch(op.host))) &&
    (exact === null || (op.path !== undefined && isExact(op.path))) &&
    (o.dynamic === undefined || op.dynamic === o.dynamic) &&
    (o.source === undefined || op.source === o.source);
  return (s) => {
    for (const op of s.ops) if (wanted(op)) return true;
    return false;
  };
}
