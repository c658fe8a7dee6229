/** `shellgate rules [--json] [--config FILE] [ID]`: list the guard rules, or show one. */
import type { GuardRule } from '../guard/rule-types.js';
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

function describe(r: GuardRule): object {
  return { id: r.id, category: r.category, level: r.level, message: r.message, rationale: r.rationale, examples: r.examples, builtin: r.builtin };
}

export function rulesOutput(rules: readonly GuardRule[], args: RulesArgs): string {
  if (args.id !== null) {
    const r = rules.find((x) => x.id === args.id);
    if (!r) {
      const near = rules.filter((x) => x.id.includes(args.id!)).map((x) => x.id);
      throw new UsageError(`no rule "${args.id}"${near.length > 0 ? ` (did you mean: ${near.slice(0, 5).join(', ')})` : ''}`);
    }
    if (args.json) return JSON.stringify(describe(r));
    return [
      `${r.id}  [${r.category}, ${r.level}]${r.builtin ? '' : '  (user rule)'}`,
      `  ${r.message}`,
      '',
      `  ${r.rationale}`,
      '',
      '  matches:',
      ...r.examples.match.map((e) => `    ${e}`),
      '  does not match:',
      ...r.examples.noMatch.map((e) => `    ${e}`),
    ].join('\n');
  }
  if (args.json) return rules.map((r) => JSON.stringify({ id: r.id, category: r.category, level: r.level, message: r.message })).join('\n');
  const width = Math.max(...rules.map((r) => r.id.length));
  return rules.map((r) => `${r.id.padEnd(width)}  ${r.level.padEnd(4)}  ${r.message}`).join('\n');
}
