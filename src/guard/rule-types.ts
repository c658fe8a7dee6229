/**
 * Guard rules as data (rules/builtin/*.json and user rule files). A rule matches the walker's
 * normalised commands and their virtual operations, never the raw string. Lists (`@shells`) and
 * macros (`{ "macro": "fetch" }`) are defined once in rules/builtin/_lists.json and reused.
 */
import type { OpKind } from '../ops/types.js';
import type { PathClass } from '../paths/classify.js';

/** The ten built-in categories; names are part of the contract (findings carry them). */
export const GUARD_CATEGORIES = [
  'destructive-delete',
  'disk-write',
  'download-exec',
  'obfuscation',
  'reverse-shell',
  'privilege-escalation',
  'exfiltration',
  'remote-exec',
  'resource-abuse',
  'shutdown',
] as const;
export type GuardCategory = (typeof GUARD_CATEGORIES)[number];

/** A string, or a list of strings; `@name` stands for a shared list. */
export type Names = string | string[];

export interface OpMatcher {
  kind?: OpKind | OpKind[];
  /** The operation's path has at least one of these classes. */
  class?: PathClass | PathClass[];
  /** Glob(s) on the operation's absolute path (`~` is the home directory). */
  path?: Names;
  /**
   * Exact path(s), compared as text (`~` is the home directory): `/*` here is the glob a command
   * was given (`rm -rf /*`), not every path one level below the root.
   */
  pathIs?: Names;
  /** Glob(s) on the host. */
  host?: Names;
  dynamic?: boolean;
  source?: 'operand' | 'option' | 'redirect' | 'program' | 'stdin';
}

export interface Matcher {
  /** Normalised program name(s). */
  program?: Names;
  /** The first subcommand(s) (`git push`: "push"; several levels: "remote add"). */
  subcommand?: Names;
  /** Every group must be present; a group is the spellings of one flag (`["-r", "-R", "--recursive"]`). */
  flags?: string[][];
  /** At least one of these spellings. */
  anyFlag?: string[];
  /** None of these spellings. */
  noFlag?: string[];
  /** Some argument (after expansion) matches one of these globs. */
  arg?: Names;
  /** Some argument matches this regular expression. */
  argRegex?: string;
  /** Every argument matches this regular expression (with at least one argument). */
  argsAll?: string;
  /** Number of arguments within [min, max]. */
  argCount?: { min?: number; max?: number };
  /** Some operation of the command matches. */
  op?: OpMatcher;
  /** Some file redirect of the command goes to a path matching these globs. */
  redirect?: { path?: Names; op?: Names };
  /** Inline program text of an interpreter (`python -c`, `perl -e`, awk's program): every regex must match. */
  code?: string[];
  /** The command reads the program it runs from stdin (`sh`, `bash -s`, `python -`). */
  execsStdin?: boolean;
  context?: {
    privileged?: boolean;
    remote?: boolean;
    substitution?: boolean;
    background?: boolean;
    loop?: boolean;
    inFunction?: boolean;
  };
  /** An earlier stage of the same pipeline matches. */
  pipedFrom?: Matcher;
  /** A later stage of the same pipeline matches. */
  pipedTo?: Matcher;
  /** A command in a substitution (`$(…)`, `<(…)`) among this command's words matches. */
  fedBy?: Matcher;
  /** A wrapper around this command (sudo, bash -c, ssh…) matches. */
  inside?: Matcher;
  /** An earlier command on the line matches; with `samePath`, one of its paths is one of ours. */
  after?: { match: Matcher; samePath?: boolean };
  /** A named predicate in src/guard/predicates.ts, for what data cannot say. */
  predicate?: string;
  /** A macro from _lists.json. */
  macro?: string;
  all?: Matcher[];
  any?: Matcher[];
  not?: Matcher;
}

export interface RuleExamples {
  match: string[];
  noMatch: string[];
}

export interface GuardRule {
  /** `category/name`, stable. */
  id: string;
  category: string;
  level: 'deny' | 'ask';
  /** One line that teaches: what is dangerous here. */
  message: string;
  /** Why the rule exists, for `shellgate rules ID`. */
  rationale: string;
  match: Matcher;
  examples: RuleExamples;
  /** A safer way to get the same work done, told to the agent with the decision (optional). */
  safer?: string;
  /** File the rule was read from. */
  file: string;
  /** False for rules users add through config. */
  builtin: boolean;
}

export interface RuleFile {
  category: string;
  rules: Omit<GuardRule, 'category' | 'file' | 'builtin'>[];
}

export interface SharedDefinitions {
  lists: Record<string, string[]>;
  macros: Record<string, Matcher>;
}
