/**
 * `shellgate audit`: what a log says. Decisions per level, per deciding layer and per rule; how
 * often each session was asked; which commands were asked most (grouped by program and
 * subcommand); and allow rules that would have spared the most frequent prompts, each checked
 * against every guard rule's examples so that pasting one never allows what a guard rule exists for.
 */
import { toolSpecOf } from '../agents/registry.js';
import type { SpecTable } from '../programs/load-specs.js';
import type { GuardRule } from '../guard/rule-types.js';
import { NEVER_APPROVE } from '../policy/approvals.js';
import { askedCommands, type AskedCommand } from './command-groups.js';
import type { AuditLines, MalformedLine } from './read.js';
import { checkBashRule, exactRule, GuardExamples, groupRule, neverApproved, type Analyse } from './suggest.js';
import type { AuditRecord } from './types.js';

export interface AuditSummaryOptions {
  /** Rows in each ranked list (sessions, commands, suggestions; default 10). */
  top?: number;
  /** Prompts a command group needs before an allow rule is suggested for it (default 3). */
  minAsks?: number;
  analyse: Analyse;
  specs: SpecTable;
  /** The guard rules in force: suggestions are checked against their `match` examples. */
  guardRules: readonly GuardRule[];
}

export interface CommandGroup {
  /** Program and subcommands: `npm run test`, `git push`. */
  command: string;
  asks: number;
  /** Distinct command lines in the group. */
  distinct: number;
  /** The line asked most often. */
  example: string;
}

export interface SuggestedRule {
  rule: string;
  /** Prompts it would have covered (asks decided by the tool default, an allow rule's residue, or the mode). */
  asks: number;
  covers: string;
}

export interface NotSuggested {
  rule: string;
  asks: number;
  covers: string;
  because: string;
}

export interface AuditSummary {
  records: number;
  malformed: { count: number; lines: MalformedLine[] };
  /** What the writers noted: decisions they could not log (`lost`), lines they found cut short (`tornTail`). */
  notLogged: { decisions: number; tornLines: number };
  period: { first: string; last: string } | null;
  levels: Record<string, number>;
  layers: Record<string, number>;
  rules: Record<string, number>;
  agents: Record<string, number>;
  /** Asks per tool (every tool, not only shells). */
  askedTools: Record<string, number>;
  sessions: { session: string | null; asks: number; decisions: number }[];
  sessionCount: number;
  commands: CommandGroup[];
  commandGroupCount: number;
  suggestions: SuggestedRule[];
  notSuggested: NotSuggested[];
  minAsks: number;
}

/**
 * Asks an allow rule can lift. Not those an ask rule made (an ask beats any allow), nor a path
 * outside the workspace (only a rule naming the path authorises it), nor the channel's.
 */
const LIFTABLE_LAYERS = new Set(['tool-default', 'rule-allow', 'mode']);

interface Group {
  key: string[];
  asks: number;
  /** Prompts one allow rule for the group would have spared. */
  liftable: number;
  /** Prompts a guard rule made, by rule id. */
  guarded: Map<string, number>;
  subcommandMissing: boolean;
  lines: Map<string, number>;
  /** Exact argvs with their liftable ask counts. */
  argvs: Map<string, { argv: string[]; dynamic: boolean; liftable: number }>;
}

export function summariseAudit(input: AuditLines, o: AuditSummaryOptions): AuditSummary {
  const top = Math.max(1, o.top ?? 10);
  const minAsks = Math.max(1, o.minAsks ?? 3);
  const count = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
  const levels: Record<string, number> = { allow: 0, ask: 0, deny: 0, defer: 0 };
  const layers: Record<string, number> = {};
  const rules: Record<string, number> = {};
  const agents: Record<string, number> = {};
  const askedTools: Record<string, number> = {};
  const sessions = new Map<string | null, { asks: number; decisions: number }>();
  const groups = new Map<string, Group>();
  const asked = new Map<string, AskedCommand[]>();
  const guardIds = new Set(o.guardRules.map((g) => g.id));
  let first: string | null = null;
  let last: string | null = null;

  for (const r of input.records) {
    count(levels, r.level);
    count(layers, r.layer);
    count(agents, r.agent);
    for (const id of new Set(r.rules)) count(rules, id);
    if (first === null || r.time < first) first = r.time;
    if (last === null || r.time > last) last = r.time;
    const s = sessions.get(r.session ?? null) ?? { asks: 0, decisions: 0 };
    s.decisions++;
    if (r.level === 'ask') s.asks++;
    sessions.set(r.session ?? null, s);
    if (r.level !== 'ask') continue;
    count(askedTools, r.tool);
    if (!isShell(r)) continue;
    let cmds = asked.get(r.command);
    if (!cmds) {
      cmds = analyseAsked(r, o, guardIds);
      asked.set(r.command, cmds);
    }
    // The prompt is one an allow rule could have spared: decided where an allow rule lifts asks,
    // not asked by a guard rule (an allow rule would override what the rule exists for), and every
    // sub-command that asked is in one group (one rule covers it; `sudo npm i` needs two).
    const guard = r.rules.find((id) => guardIds.has(id)) ?? cmds.find((c) => c.guard !== null)?.guard ?? null;
    const layerOk = LIFTABLE_LAYERS.has(r.layer);
    const liftableGroup = layerOk && guard === null && new Set(cmds.map((c) => c.key.join(' '))).size === 1;
    const liftableExact = liftableGroup && new Set(cmds.map((c) => JSON.stringify(c.argv))).size === 1;
    // A line that asks twice for the same group or argv (`git add a && git add b`) is one prompt.
    const seen = new Set<string>();
    for (const c of cmds) {
      const label = c.key.join(' ');
      const g = groups.get(label) ?? { key: c.key, asks: 0, liftable: 0, guarded: new Map(), subcommandMissing: false, lines: new Map(), argvs: new Map() };
      groups.set(label, g);
      if (c.subcommandMissing) g.subcommandMissing = true;
      const exact = JSON.stringify(c.argv);
      const e = g.argvs.get(exact) ?? { argv: c.argv, dynamic: c.dynamic, liftable: 0 };
      g.argvs.set(exact, e);
      if (liftableExact && !seen.has(exact)) e.liftable++;
      seen.add(exact);
      if (seen.has('\0' + label)) continue;
      seen.add('\0' + label);
      g.asks++;
      if (liftableGroup) g.liftable++;
      if (layerOk && guard !== null) g.guarded.set(guard, (g.guarded.get(guard) ?? 0) + 1);
      g.lines.set(r.command, (g.lines.get(r.command) ?? 0) + 1);
    }
  }

  const ranked = [...groups.values()].sort((a, b) => b.asks - a.asks || a.key.join(' ').localeCompare(b.key.join(' ')));
  const { suggestions, notSuggested } = suggest(ranked, o, minAsks, top);
  return {
    records: input.records.length,
    ...readProblems(input),
    period: first !== null && last !== null ? { first, last } : null,
    levels,
    layers: sortedCounts(layers),
    rules: sortedCounts(rules),
    agents: sortedCounts(agents),
    askedTools: sortedCounts(askedTools),
    sessions: [...sessions.entries()]
      .map(([session, v]) => ({ session, ...v }))
      .sort((a, b) => b.asks - a.asks || b.decisions - a.decisions)
      .slice(0, top),
    sessionCount: sessions.size,
    commands: ranked.slice(0, top).map((g) => ({ command: g.key.join(' '), asks: g.asks, distinct: g.lines.size, example: mostFrequent(g.lines) })),
    commandGroupCount: groups.size,
    suggestions,
    notSuggested,
    minAsks,
  };
}

function isShell(r: AuditRecord): boolean {
  if (r.family !== undefined) return r.family === 'shell';
  return toolSpecOf(r.tool)?.family === 'shell';
}

function analyseAsked(r: AuditRecord, o: AuditSummaryOptions, guardIds: Set<string>): AskedCommand[] {
  try {
    return askedCommands(o.analyse(r.command, r.cwd), o.specs, (id) => guardIds.has(id));
  } catch {
    return []; // a line the analyser rejects (too long…) is counted in the totals, not grouped
  }
}

function suggest(ranked: Group[], o: AuditSummaryOptions, minAsks: number, top: number): { suggestions: SuggestedRule[]; notSuggested: NotSuggested[] } {
  const examples = new GuardExamples(o.guardRules, o.analyse);
  const suggestions: SuggestedRule[] = [];
  const notSuggested: NotSuggested[] = [];
  for (const g of ranked) {
    if (suggestions.length >= top) break;
    const covers = g.key.join(' ');
    if (g.liftable < minAsks) {
      const [id, n] = [...g.guarded.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
      if (id !== undefined && n! >= minAsks && notSuggested.length < top) {
        notSuggested.push({
          rule: groupRule(g.key),
          asks: n!,
          covers,
          because: `guard rule ${id} asked for it: an allow rule would override what the rule is for`,
        });
      }
      continue;
    }
    if (NEVER_APPROVE.has(g.key[0])) {
      notSuggested.push({ rule: groupRule(g.key), asks: g.liftable, covers, because: neverApproved(g.key[0]) });
      continue;
    }
    const rule = groupRule(g.key);
    const evidence = [...g.argvs.values()].find((a) => a.liftable > 0)?.argv ?? g.key;
    const check = g.subcommandMissing
      ? { ok: false as const, because: `options come before ${g.key[0]}'s subcommand, and a rule for every ${g.key[0]} subcommand is too wide` }
      : checkBashRule(rule, evidence, examples);
    if (check.ok) {
      suggestions.push({ rule, asks: g.liftable, covers });
      continue;
    }
    notSuggested.push({ rule, asks: g.liftable, covers, because: check.because });
    // The group is too wide: the exact lines asked often enough may still be safe to allow.
    for (const a of [...g.argvs.values()].sort((x, y) => y.liftable - x.liftable)) {
      if (suggestions.length >= top || a.liftable < minAsks || a.dynamic) continue;
      const exact = exactRule(a.argv);
      if (exact === null) continue;
      const c = checkBashRule(exact, a.argv, examples);
      if (c.ok) suggestions.push({ rule: exact, asks: a.liftable, covers: a.argv.join(' ') });
      else notSuggested.push({ rule: exact, asks: a.liftable, covers: a.argv.join(' '), because: c.because });
    }
  }
  return { suggestions, notSuggested };
}

function mostFrequent(m: Map<string, number>): string {
  let best = '';
  let n = -1;
  for (const [k, v] of m) if (v > n) [best, n] = [k, v];
  return best;
}

function sortedCounts(m: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(m).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

/** Lines that are not records, and what the writers noted in the records they did write. */
function readProblems(input: AuditLines): Pick<AuditSummary, 'malformed' | 'notLogged'> {
  const rs = input.records;
  return {
    malformed: { count: input.malformedCount, lines: input.malformed },
    notLogged: { decisions: rs.reduce((n, r) => n + (r.lost ?? 0), 0), tornLines: rs.filter((r) => (r.tornTail ?? 0) > 0).length },
  };
}
