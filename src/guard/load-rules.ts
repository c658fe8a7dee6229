/**
 * Load guard rules: the built-in files in rules/builtin/ (one per category, plus _lists.json for
 * shared lists and macros) and any user rule files in the same format. Every field is checked;
 * an invalid rule fails with a message naming the file, the rule and the field.
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ShellgateError } from '../errors.js';
import { own } from '../own.js';
import { RULES_DIR } from '../programs/load-specs.js';
import { needOf } from './prefilter.js';
import type { Need } from './clauses.js';
import { compileMatcher, type Compiled } from './compile.js';
import { MATCH_FIELDS, type FieldPrograms, type MatchField } from './match-fields.js';
import { ATTACK_ID, CATEGORY_NAME, RULE_FIELDS, RULE_ID } from './rule-fields.js';
import { GUARD_CATEGORIES, type GuardRule, type Matcher, type SharedDefinitions } from './rule-types.js';
import { registry, type ProgramTag } from '../programs/registry.js';
import { PROGRAM_TAGS } from '../programs/load-specs.js';
import { readConfigText } from '../config-file.js';
import { DEFAULT_GUARD_SETTINGS, type GuardSettings } from './installer-urls.js';

export interface LoadedRule extends GuardRule {
  test: Compiled;
  /** Features a subject must have for `test` to have a chance (see prefilter.ts). */
  readonly need: Need;
}

export interface RuleSet {
  rules: LoadedRule[];
  byId: Map<string, LoadedRule>;
  defs: SharedDefinitions;
  /** Rules that can only match these programs (their top-level `program`), by program. */
  byProgram: Map<string, LoadedRule[]>;
  /** Rules that may match any command. */
  anyProgram: LoadedRule[];
  /** Each rule's place in `rules`: findings are reported in this order. */
  position: Map<LoadedRule, number>;
  /** The analysis's home directory (what `~` in a rule stands for). */
  home: () => string;
}

/**
 * Programs a matcher can match at all, or null when any program may match. Every condition of a
 * matcher must hold, so any one that restricts the program restricts the whole (they intersect):
 * a `program`, a predicate that declares its programs (predicates/programs.ts), a macro, an `all`
 * entry, or an `any` whose every branch is restricted (match-fields.ts says which field does).
 * `not` never restricts (`not: { program: "ls" }` holds for every other program), and conditions
 * on other commands (`pipedFrom`, `fedBy`, `inside`…) say nothing about this one's program.
 */
export function programsOf(m: Matcher, defs: SharedDefinitions, depth = 0): Set<string> | null {
  if (depth > 20 || typeof m !== 'object' || m === null) return null;
  const cx: FieldPrograms = { defs, programsOf: (x) => programsOf(x, defs, depth + 1) };
  const found: ReadonlySet<string>[] = [];
  // Only the fields that can restrict the program are read (a rule has a few of twenty-odd).
  for (const key of Object.keys(m) as (keyof Matcher)[]) {
    const field = own(MATCH_FIELDS, key) as MatchField<unknown> | undefined;
    const value = m[key];
    if (field?.programs !== undefined && value !== undefined) found.push(...field.programs(value, cx));
  }
  if (found.length === 0) return null;
  if (found.length === 1) return new Set(found[0]);
  const out = new Set<string>();
  for (const p of found[0]) if (found.every((f) => f.has(p))) out.add(p);
  return out;
}

const RULE_KEYS = new Set(Object.keys(RULE_FIELDS));

function readJson(file: string): unknown {
  const text = readConfigText(file);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ShellgateError('config', `${file}: not valid JSON (${(e as Error).message})`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `"@tag:shell"` in a list stands for every program with that tag (src/programs/registry.ts). */
function withTags(list: string[], where: string): string[] {
  if (!list.some((x) => x.startsWith('@tag:'))) return list;
  return list.flatMap((x) => {
    if (!x.startsWith('@tag:')) return [x];
    const tag = x.slice('@tag:'.length) as ProgramTag;
    if (!PROGRAM_TAGS.has(tag)) throw new ShellgateError('config', `${where}: "${x}" names no tag (${[...PROGRAM_TAGS].join(', ')})`);
    return [...registry.tagged(tag)].sort();
  });
}

export function loadDefinitions(file: string): SharedDefinitions {
  const data = readJson(file);
  if (!isObject(data) || !isObject(data.lists) || !isObject(data.macros)) {
    throw new ShellgateError('config', `${file}: expected { "lists": {…}, "macros": {…} }`);
  }
  const lists: Record<string, string[]> = {};
  for (const [name, l] of Object.entries(data.lists)) {
    if (!Array.isArray(l) || l.some((x) => typeof x !== 'string')) throw new ShellgateError('config', `${file}: list "${name}" must be a list of strings`);
    lists[name] = withTags(l as string[], `${file}: list "${name}"`);
  }
  return { lists, macros: data.macros as Record<string, Matcher> };
}

export function loadRuleFile(
  file: string,
  defs: SharedDefinitions,
  home: () => string,
  builtin: boolean,
  settings: GuardSettings = DEFAULT_GUARD_SETTINGS,
): LoadedRule[] {
  const data = readJson(file);
  if (!isObject(data)) throw new ShellgateError('config', `${file}: expected { "category": …, "rules": [ … ] }`);
  const category = data.category;
  if (typeof category !== 'string' || !CATEGORY_NAME.test(category)) throw new ShellgateError('config', `${file}: field "category" must be a lowercase name`);
  if (builtin && !(GUARD_CATEGORIES as readonly string[]).includes(category)) {
    throw new ShellgateError('config', `${file}: category "${category}" is not one of ${GUARD_CATEGORIES.join(', ')}`);
  }
  if (!Array.isArray(data.rules)) throw new ShellgateError('config', `${file}: field "rules" must be a list`);
  return data.rules.map((r: unknown, i: number) => {
    const where = `${file}: rule ${isObject(r) && typeof r.id === 'string' ? `"${r.id}"` : `#${i + 1}`}`;
    const bad: (field: string, what: string) => never = (field, what) => {
      throw new ShellgateError('config', `${where}: field "${field}" ${what}`);
    };
    if (!isObject(r)) bad('(rule)', 'must be an object');
    for (const k of Object.keys(r)) if (!RULE_KEYS.has(k)) bad(k, `is not a rule field (known: ${[...RULE_KEYS].join(', ')})`);
    if (typeof r.id !== 'string' || !RULE_ID.test(r.id)) bad('id', 'must look like "category/rule-name"');
    const id = r.id as string;
    if (!id.startsWith(category + '/')) bad('id', `must start with the file's category "${category}/"`);
    if (r.level !== 'deny' && r.level !== 'ask') bad('level', 'must be "deny" or "ask"');
    if (typeof r.message !== 'string' || r.message.length === 0 || r.message.includes('\n')) bad('message', 'must be one line of text');
    if (typeof r.rationale !== 'string' || r.rationale.length === 0) bad('rationale', 'must be text');
    if (r.attack !== undefined || builtin) {
      const ids = r.attack;
      if (!Array.isArray(ids) || ids.length === 0 || ids.some((x) => typeof x !== 'string' || !ATTACK_ID.test(x))) {
        bad('attack', 'must be a non-empty list of MITRE ATT&CK technique ids like "T1053.003"');
      }
    }
    if (r.safer !== undefined && (typeof r.safer !== 'string' || r.safer.length === 0 || r.safer.includes('\n'))) bad('safer', 'must be one line of text');
    const ex = r.examples;
    if (!isObject(ex) || !Array.isArray(ex.match) || !Array.isArray(ex.noMatch)) bad('examples', 'must be { "match": [ … ], "noMatch": [ … ] }');
    const examples = ex as { match: unknown[]; noMatch: unknown[] };
    if ([...examples.match, ...examples.noMatch].some((e) => typeof e !== 'string')) bad('examples', 'must hold command strings');
    // A user's rule is compiled now, so a mistake fails at load naming the rule. A built-in rule
    // (every one compiled by test/guard-rules.test.ts) is compiled when a command first needs it:
    // a hook decides one command, which the prefilter matches against a handful of rules.
    let compiled: LoadedRule['test'] | null = builtin ? null : compileMatcher(r.match as Matcher, { defs, home, where, settings }, 'match');
    let need: Need | undefined;
    const test: LoadedRule['test'] = (subject) => (compiled ??= compileMatcher(r.match as Matcher, { defs, home, where, settings }, 'match'))(subject);
    return {
      id,
      category,
      level: r.level as 'deny' | 'ask',
      message: r.message as string,
      rationale: r.rationale as string,
      ...(typeof r.safer === 'string' ? { safer: r.safer } : {}),
      ...(Array.isArray(r.attack) ? { attack: r.attack as string[] } : {}),
      match: r.match as Matcher,
      examples: examples as { match: string[]; noMatch: string[] },
      file,
      builtin,
      test,
      // Worked out when a command first meets the rule (most never meet most rules).
      get need(): Need {
        return (need ??= needOf(r.match as Matcher, defs));
      },
    };
  });
}

/** Built-in rules plus user rule files (paths to JSON files in the same format); `settings` are what predicates read. */
export function loadRules(userFiles: string[], home: () => string, settings: GuardSettings = DEFAULT_GUARD_SETTINGS): RuleSet {
  const dir = join(RULES_DIR, 'builtin');
  const defs = loadDefinitions(join(dir, '_lists.json'));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== '_lists.json')
    .sort();
  const rules: LoadedRule[] = [];
  for (const f of files) rules.push(...loadRuleFile(join(dir, f), defs, home, true, settings));
  for (const f of userFiles) rules.push(...loadRuleFile(f, defs, home, false, settings));
  const set = indexRules(rules, defs, home);
  for (const r of rules) {
    const prev = set.byId.get(r.id);
    if (prev !== r) throw new ShellgateError('config', `${r.file}: rule "${r.id}" is already defined in ${basename(prev!.file)}`);
  }
  return set;
}

/** The lookups over loaded rules: by id, by the programs they can match, and their order. */
export function indexRules(rules: LoadedRule[], defs: SharedDefinitions, home: () => string): RuleSet {
  const byId = new Map<string, LoadedRule>();
  for (const r of rules) if (!byId.has(r.id)) byId.set(r.id, r);
  const byProgram = new Map<string, LoadedRule[]>();
  const anyProgram: LoadedRule[] = [];
  for (const r of rules) {
    const programs = programsOf(r.match, defs);
    if (programs === null) anyProgram.push(r);
    else
      for (const p of programs) {
        const list = byProgram.get(p);
        if (list) list.push(r);
        else byProgram.set(p, [r]);
      }
  }
  return { rules, byId, defs, byProgram, anyProgram, position: new Map(rules.map((r, i) => [r, i])), home };
}
