/**
 * Guard rules as data (rules/builtin/*.json and user rule files). A rule matches the walker's
 * normalised commands and their virtual operations, never the raw string. Lists (`@shells`) and
 * macros (`{ "macro": "fetch" }`) are defined once in rules/builtin/_lists.json and reused.
 */
import type { OpKind } from '../ops/types.js';
import type { PathClass } from '../paths/classify.js';

/**
 * The built-in categories; names are part of the contract (findings carry them). The first ten
 * are the original contract; `persistence`, `defense-evasion` and `credential-access` hold what
 * none of the ten describes (README's category table says what belongs where).
 */
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
  'persistence',
  'defense-evasion',
  'credential-access',
] as const;
export type GuardCategory = (typeof GUARD_CATEGORIES)[number];

/** A JSON schema fragment (draft-07) of a field's value; `#/definitions/…` are laid out by scripts/lib/guard-schema.mjs. */
export type JsonSchema = { readonly [key: string]: unknown };

/** A string, or a list of strings; `@name` stands for a shared list. */
export type Names = string | string[];

/**
 * An operation matcher (`op`); what each field means is its entry in match-fields.ts `OP_FIELDS`
 * (one place for the docs, the schema and the compiler).
 */
export interface OpMatcher {
  kind?: OpKind | OpKind[];
  class?: PathClass | PathClass[];
  path?: Names;
  pathIs?: Names;
  host?: Names;
  dynamic?: boolean;
  source?: 'operand' | 'option' | 'redirect' | 'program' | 'stdin';
}

/**
 * A matcher: every field given must hold. What each field means, costs and compiles to is its
 * entry in match-fields.ts `MATCH_FIELDS` (docs/guard-rules.md lists them); a field added here
 * without an entry there fails to compile.
 */
export interface Matcher {
  program?: Names;
  subcommand?: Names;
  flags?: string[][];
  anyFlag?: Names;
  noFlag?: Names;
  arg?: Names;
  argRegex?: string;
  argsAll?: string;
  argCount?: { min?: number; max?: number };
  op?: OpMatcher;
  redirect?: { path?: Names; op?: Names };
  code?: string[];
  execsStdin?: boolean;
  context?: {
    privileged?: boolean;
    remote?: boolean;
    substitution?: boolean;
    background?: boolean;
    loop?: boolean;
    inFunction?: boolean;
  };
  pipedFrom?: Matcher;
  pipedTo?: Matcher;
  fedBy?: Matcher;
  inside?: Matcher;
  after?: { match: Matcher; samePath?: boolean };
  predicate?: string;
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
  /** MITRE ATT&CK technique ids the rule detects (`T1053.003`); every built-in rule has one or more. */
  attack?: string[];
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
