/**
 * Every line of the shared real-world corpora goes through the analyser: it must not throw, and
 * every verdict must be well formed (levels, findings with ids, messages and spans inside the
 * text); a parse error is never allow.
 */
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/index.js';
import { analyzer, CONTEXT } from '../helpers/analyzer.js';
import { nl2bash, tldr } from '../helpers/shared-corpus.js';

const LEVELS = ['allow', 'ask', 'deny'];

function problems(command: string, v: Verdict): string[] {
  const out: string[] = [];
  if (v.command !== command) out.push('command not echoed');
  if (!LEVELS.includes(v.level)) out.push(`bad level ${v.level}`);
  for (const f of v.findings) {
    if (!f.rule || !f.category || !LEVELS.includes(f.level) || !f.message) out.push(`bad finding ${JSON.stringify(f)}`);
    if (!(f.span.start >= 0 && f.span.end >= f.span.start && f.span.end <= command.length)) out.push(`span out of text: ${JSON.stringify(f)}`);
    if (f.level === 'ask' && v.level === 'allow') out.push('an ask finding under an allow verdict');
  }
  if (v.findings.some((f) => f.rule === 'parse-error') && v.level === 'allow') out.push('parse error allowed');
  for (const o of v.operations) if (!(o.command >= 0 && o.command < v.commands.length)) out.push('operation of no command');
  return out;
}

function runAll(commands: string[]) {
  return async () => {
    const a = await analyzer();
    const bad: string[] = [];
    const counts = { allow: 0, ask: 0, deny: 0 };
    for (const c of commands) {
      const v = a.analyze(c, CONTEXT);
      counts[v.level]++;
      for (const p of problems(c, v)) bad.push(`${c.slice(0, 80)} → ${p}`);
    }
    expect(bad.slice(0, 20)).toEqual([]);
    expect(counts.allow + counts.ask + counts.deny).toBe(commands.length);
  };
}

describe('shared corpora', () => {
  it('NL2Bash: every line gives a well-formed verdict', runAll(nl2bash()));
  it('tldr: every example gives a well-formed verdict', runAll(tldr().map((t) => t.command)));
});
