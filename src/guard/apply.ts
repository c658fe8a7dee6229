/** Run the guard rules over a verdict's commands: every rule that matches a command is a finding. */
import type { WalkedCommand } from '../walk/types.js';
import type { Operation } from '../ops/types.js';
import type { SpecTable } from '../programs/load-specs.js';
import type { Span } from '../syntax/ast.js';
import type { LoadedRule, RuleSet } from './load-rules.js';
import { NeedIndex, verdictFeatures } from './prefilter.js';
import { Subject, SubjectIndex } from './subject.js';

/** What the rules look at: each command with its operations and its neighbours, in walk order. */
export function buildSubjects(commands: WalkedCommand[], ops: Operation[], specs: SpecTable): Subject[] {
  // Operations by command (ids are indices in `commands`), and by redirect span when a command
  // inherits a redirect (rare: built only then).
  const byCommand: Operation[][] = [];
  for (const o of ops) {
    const list = byCommand[o.command];
    if (list) list.push(o);
    else byCommand[o.command] = [o];
  }
  let byRedirect: Map<string, Operation[]> | null = null;
  const all: Subject[] = [];
  const index = new SubjectIndex();
  for (const c of commands) {
    let own = byCommand[c.id] ?? [];
    if (c.redirects.some((r) => r.inherited && r.path !== null)) {
      byRedirect ??= redirectOps(ops);
      own = withInheritedOps(c, own, byRedirect);
    }
    const s = new Subject(c, own, all, specs, index);
    all.push(s);
    index.add(s);
  }
  return all;
}

function redirectOps(ops: Operation[]): Map<string, Operation[]> {
  const byRedirect = new Map<string, Operation[]>();
  for (const o of ops) {
    if (o.source !== 'redirect') continue;
    const k = `${o.span.start}:${o.span.end}`;
    const r = byRedirect.get(k);
    if (r) r.push(o);
    else byRedirect.set(k, [o]);
  }
  return byRedirect;
}

/**
 * A redirect written on a wrapper or a compound command (`sudo cat /dev/zero > f`,
 * `{ sh; } < /dev/tcp/h/1`) is opened once by the shell, so its operation belongs to the command
 * it is written on; but the command inside reads and writes through it. Rules see it on both, so
 * a wrapper never hides what the command it runs does.
 */
function withInheritedOps(c: WalkedCommand, own: Operation[], byRedirect: Map<string, Operation[]>): Operation[] {
  let out = own;
  for (const r of c.redirects) {
    if (!r.inherited || r.path === null) continue;
    const from = byRedirect.get(`${r.path.span.start}:${r.path.span.end}`) ?? byRedirect.get(`${r.span.start}:${r.span.end}`);
    if (!from) continue;
    if (out === own) out = own.slice();
    for (const o of from) if (o.command !== c.id && !out.includes(o)) out.push(o);
  }
  return out;
}

/** The flat need index of each rule list (the rules for any program, those for one program). */
const indexes = new WeakMap<readonly LoadedRule[], NeedIndex<LoadedRule>>();

function indexOf(rules: readonly LoadedRule[]): NeedIndex<LoadedRule> {
  let index = indexes.get(rules);
  if (index === undefined) {
    index = new NeedIndex(rules);
    indexes.set(rules, index);
  }
  return index;
}

/**
 * A rule that matched a command. The verdict takes it as a finding as it is; declared here
 * because the guard layer comes before the verdict's and may not import it.
 */
export interface GuardFinding {
  /** The rule's id. */
  rule: string;
  category: string;
  level: 'deny' | 'ask';
  message: string;
  /** The rule's MITRE ATT&CK technique ids, when it has them. */
  attack?: string[];
  /** The command's span in the original text. */
  span: Span;
  /** Index of the command in the verdict's `commands`. */
  command: number;
}

function guardFinding(r: LoadedRule, s: Subject): GuardFinding {
  const f: GuardFinding = { rule: r.id, category: r.category, level: r.level, message: r.message, span: s.cmd.span, command: s.cmd.id };
  if (r.attack) f.attack = r.attack;
  return f;
}

export function applyGuards(rules: RuleSet, commands: WalkedCommand[], ops: Operation[], specs: SpecTable): GuardFinding[] {
  const all = buildSubjects(commands, ops, specs);
  const features = verdictFeatures(all, rules.home());
  const findings: GuardFinding[] = [];
  const candidates: LoadedRule[] = [];
  const hits: LoadedRule[] = [];
  const anyProgram = indexOf(rules.anyProgram);
  for (let i = 0; i < all.length; i++) {
    const s = all[i];
    const f = features[i];
    const program = s.cmd.program;
    // Only rules that can match this program, then those for any program, whose cheap necessary
    // conditions the command meets.
    const forProgram = program === null ? undefined : rules.byProgram.get(program);
    if (forProgram) indexOf(forProgram).select(f, program, candidates);
    anyProgram.select(f, program, candidates);
    for (const r of candidates) if (r.test(s)) hits.push(r);
    // Findings come in rule file order whichever list a rule sits in, so how rules are indexed
    // never changes what is reported first.
    if (hits.length > 1 && forProgram !== undefined) hits.sort((x, y) => rules.position.get(x)! - rules.position.get(y)!);
    for (const r of hits) findings.push(guardFinding(r, s));
    if (hits.length > 0) hits.length = 0;
    if (candidates.length > 0) candidates.length = 0;
  }
  return findings;
}
