/**
 * What a predicate may declare about itself so rules that use it run less often or sooner:
 * the only programs it can hold for (the rule loader then indexes those rules by program, see
 * load-rules.ts `programsOf`, instead of testing them against every command), what else it
 * cannot hold without (the prefilter then skips its rules for commands that lack it, see
 * prefilter.ts), and that it is cheap (compile.ts then runs it before scans of arguments and
 * operations).
 */
import type { Subject } from '../subject.js';
import type { NeedSpec } from '../features.js';
import type { GuardSettings } from '../installer-urls.js';

/** A named predicate; `programs`, when present, holds every program it can be true for. */
export interface Predicate {
  (s: Subject): boolean;
  readonly programs?: ReadonlySet<string>;
  /** Where compile.ts orders it among a matcher's checks (0 a program lookup … 5 the default). */
  readonly cost?: number;
  /** Conditions that hold whenever the predicate does, each a disjunction (see `requires`). */
  readonly needs?: readonly NeedSpec[];
  /** For a predicate that reads the analyser's settings: the test a rule compiled for those settings runs. */
  readonly bind?: (settings: GuardSettings) => (s: Subject) => boolean;
}

export interface ProgramPredicate extends Predicate {
  readonly programs: ReadonlySet<string>;
  /** The predicate without the program gate, for the soundness test. */
  readonly unguarded: (s: Subject) => boolean;
}

/**
 * Declare that `fn` can be true only when the command's program is one of `names`. Declare this
 * only when the code itself says so for every path that returns true (a name tested with a regex
 * such as /^python[0-9.]*$/ cannot be listed): a wrong declaration silently drops a detection.
 *
 * The returned predicate tests the program first, so it is cheap wherever it is used (inside
 * `any`, `fedBy`…) and says exactly what the index assumes. test/unit/guard-predicate-programs
 * checks on real commands that `fn` alone never holds outside the set.
 */
export function forPrograms(names: Iterable<string>, fn: (s: Subject) => boolean): ProgramPredicate {
  const programs: ReadonlySet<string> = new Set(names);
  const gated = (s: Subject): boolean => s.cmd.program !== null && programs.has(s.cmd.program) && fn(s);
  return Object.assign(gated, { programs, unguarded: fn });
}

/**
 * Declare that `fn` only reads the command word and context with a few comparisons, so a
 * matcher runs it before its argument or operation scans (which it usually spares).
 */
export function cheap(fn: (s: Subject) => boolean): Predicate {
  return Object.assign((s: Subject) => fn(s), { cost: 1 });
}

/**
 * Declare what `p` cannot hold without: each entry is a condition (one of its features, or a
 * program among its programs or accepted by its test) that is true of every command `p` holds
 * for. As with `forPrograms`, declare only what the code says on every path that returns true:
 * test/unit/guard-prefilter checks each declaration on real commands.
 */
export function requires(needs: readonly NeedSpec[], p: Predicate): Predicate {
  const fn = (s: Subject): boolean => p(s);
  return Object.assign(fn, {
    ...(p.programs ? { programs: p.programs } : {}),
    ...(p.cost !== undefined ? { cost: p.cost } : {}),
    ...('unguarded' in p ? { unguarded: (p as ProgramPredicate).unguarded } : {}),
    ...(p.bind ? { bind: p.bind } : {}),
    needs: [...(p.needs ?? []), ...needs],
  });
}

/** netcat and its builds under other names: programs whose stdin and stdout are a network connection. */
export const NETCATS: readonly string[] = [
  'nc',
  'ncat',
  'netcat',
  'nc.traditional',
  'nc.openbsd',
  'netcat.traditional',
  'netcat.openbsd',
  'pwncat',
  'cryptcat',
];
