/**
 * What the field compilers of match-fields.ts share: reading a field's value (names with `@list`
 * references, regular expressions, globs, booleans), each failing with the file, rule and field
 * named, and the per-verdict caches and scans that relations and flags use.
 */
import { ShellgateError } from '../errors.js';
import { own } from '../own.js';
import type { Names, SharedDefinitions } from './rule-types.js';
import type { Subject } from './subject.js';
import { globMatcher } from './glob.js';
import type { GuardSettings } from './installer-urls.js';

/** A compiled matcher: does it hold for this command? */
export type Compiled = (s: Subject) => boolean;

export interface CompileEnv {
  defs: SharedDefinitions;
  home: () => string;
  /** Where we are, for error messages: `file: rule "id"`. */
  where: string;
  /** The analyser's settings that predicates read (`trustedInstallers`); the defaults when absent. */
  settings?: GuardSettings;
}

export function fail(env: CompileEnv, field: string, what: string): never {
  throw new ShellgateError('config', `${env.where}: field "${field}" ${what}`);
}

/** A string or a list of strings, with `@name` spelt out as the shared list it names. */
export function names(v: Names | undefined, env: CompileEnv, field: string): string[] {
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

export function regex(src: unknown, env: CompileEnv, field: string): RegExp {
  if (typeof src !== 'string') fail(env, field, 'must be a regular expression string');
  try {
    // A leading `(?i)` makes the expression ignore case (SQL keywords, Windows-style flags).
    return src.startsWith('(?i)') ? new RegExp(src.slice(4), 'si') : new RegExp(src, 's');
  } catch (e) {
    fail(env, field, `is not a valid regular expression (${(e as Error).message})`);
  }
}

/** A test for any of `patterns` (none: everything matches); `~` is the analysis's home. */
export function globs(patterns: string[], env: CompileEnv, field: string): (s: string) => boolean {
  if (patterns.length === 0) return () => true;
  try {
    // Without `~`, the patterns are the same for every home: one matcher.
    if (!patterns.some((p) => p.startsWith('~'))) return globMatcher(patterns);
    return homeGlobs(patterns, env.home);
  } catch (e) {
    fail(env, field, `has a bad glob (${(e as Error).message})`);
  }
}

/** Patterns with `~` compiled once per home (the last one kept at hand: it rarely changes). */
function homeGlobs(patterns: string[], home: () => string): (s: string) => boolean {
  const cache = new Map<string, (s: string) => boolean>();
  let lastHome: string | null = null;
  let last: (s: string) => boolean = () => false;
  return (s: string) => {
    const h = home();
    if (h !== lastHome) {
      let m = cache.get(h);
      if (!m) {
        m = globMatcher(patterns.map((p) => (p.startsWith('~') ? h + p.slice(1) : p)));
        cache.set(h, m);
      }
      lastHome = h;
      last = m;
    }
    return last(s);
  };
}

export function bool(v: unknown, env: CompileEnv, field: string): boolean {
  if (typeof v !== 'boolean') fail(env, field, 'must be true or false');
  return v;
}

/**
 * For each pipeline of a verdict, the first and last stage a matcher accepts, computed once per
 * verdict: `pipedFrom`/`pipedTo` then cost one lookup per command, not one scan per pair.
 */
export function pipelineExtent(f: Compiled): (s: Subject) => Map<number, { min: number; max: number }> {
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

/** The command runs what it reads on stdin (itself, or through an Exec operation from stdin). */
export function stdinExec(s: Subject): boolean {
  if (s.cmd.execsStdin) return true;
  for (const o of s.ops) if (o.kind === 'Exec' && o.source === 'stdin') return true;
  return false;
}

/** Some of these option spellings is present. */
export function hasAnyFlag(s: Subject, spellings: readonly string[]): boolean {
  for (const f of spellings) if (s.hasFlag(f)) return true;
  return false;
}
