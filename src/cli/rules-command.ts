/**
 * `shellgate rules [--json] [--config FILE] [ID]`: list the guard rules and the core findings, or
 * show one of either with why it exists and a safer way to do the same work. The core findings
 * (`sensitive-path`, `unknown-effect`…) are the ids most decisions carry, so they are explained
 * the same way as the guard rules.
 */
import type { GuardRule } from '../guard/rule-types.js';
import { allRules, type RuleInfo } from '../lint/rule-catalog.js';
import { UsageError } from './args.js';

export interface RulesArgs {
  json: boolean;
  config: string | null;
  id: string | null;
}

export function parseRulesArgs(argv: string[]): RulesArgs {
  const out: RulesArgs = { json: false, config: null, id: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') out.json = true;
    else if (a === '--config') {
      if (i + 1 >= argv.length) throw new UsageError('--config needs a value');
      out.config = argv[++i];
    } else if (a.startsWith('--config=')) out.config = a.slice('--config='.length);
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else if (out.id !== null) throw new UsageError('give at most one rule id');
    else out.id = a;
  }
  return out;
}

export function findRule(all: readonly RuleInfo[], id: string): RuleInfo {
  const hit = all.find((r) => r.id === id);
  if (hit) return hit;
  const near = nearIds(
    id,
    all.map((r) => r.id),
  );
  throw new UsageError(`no rule "${id}"${near.length > 0 ? ` (did you mean: ${near.join(', ')})` : ''} — \`shellgate rules\` lists them`);
}

/** Ids that contain the query (or its name part), or are a few edits away: the closest five. */
export function nearIds(query: string, ids: readonly string[]): string[] {
  const q = query.toLowerCase();
  const tail = (s: string) => s.slice(s.lastIndexOf('/') + 1);
  const scored: { id: string; score: number }[] = [];
  for (const id of ids) {
    const l = id.toLowerCase();
    let score: number;
    if (l.includes(q) || (tail(q).length >= 3 && l.includes(tail(q)))) score = 0;
    else {
      const d = Math.min(distance(q, l), distance(tail(q), tail(l)));
      if (d > Math.max(2, Math.floor(Math.min(q.length, l.length) / 4))) continue;
      score = d;
    }
    scored.push({ id, score });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.id.localeCompare(b.id))
    .slice(0, 5)
    .map((s) => s.id);
}

/** Levenshtein distance (ids are short). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** A core finding's message template for reading: `{detail}` stands for what it is about. */
function shownMessage(r: RuleInfo): string {
  return r.source === 'core' || r.source === 'lint' ? r.message.replace('{detail}', '…') : r.message;
}

const RULE_SOURCE_NOTES: Record<RuleInfo['source'], string> = { core: '  (core finding)', lint: '  (lint rule)', user: '  (user rule)', builtin: '' };

export function describeRule(r: RuleInfo): string {
  const lines = [`${r.id}  [${r.category}, ${r.level}]${RULE_SOURCE_NOTES[r.source]}`, `  ${shownMessage(r)}`, '', `  ${r.rationale}`];
  if (r.attack) lines.push('', `  MITRE ATT&CK: ${r.attack.join(', ')}`);
  if (r.safer) lines.push('', `  safer: ${r.safer}`);
  if (r.examples) {
    lines.push('', '  matches:', ...r.examples.match.map((e) => `    ${e}`), '  does not match:', ...r.examples.noMatch.map((e) => `    ${e}`));
  }
  return lines.join('\n');
}

export function rulesOutput(guards: readonly GuardRule[], args: RulesArgs): string {
  const all = allRules(guards);
  if (args.id !== null) {
    const r = findRule(all, args.id);
    return args.json ? JSON.stringify(r) : describeRule(r);
  }
  if (args.json) {
    return all
      .map((r) =>
        JSON.stringify({
          id: r.id,
          category: r.category,
          level: r.level,
          message: r.message,
          source: r.source,
          ...(r.attack ? { attack: r.attack } : {}),
          ...(r.safer ? { safer: r.safer } : {}),
        }),
      )
      .join('\n');
  }
  const width = Math.max(...all.map((r) => r.id.length));
  const attackWidth = Math.max(0, ...all.map((r) => (r.attack ?? []).join(',').length));
  const attackOf = (r: RuleInfo) => (attackWidth > 0 ? `${(r.attack ?? []).join(',').padEnd(attackWidth)}  ` : '');
  return all
    .map(
      (r) =>
        `${r.id.padEnd(width)}  ${r.level.padEnd(5)}  ${attackOf(r)}${r.source === 'core' || r.source === 'lint' ? `${r.source}  ` : ''}${shownMessage(r)}`,
    )
    .join('\n');
}
