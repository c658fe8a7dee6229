/**
 * The walk's one budget of work (maxWalkSteps): nested code multiplies — a script that sources
 * another ten times, six levels deep, is a million walks from a line under 1 KB. Whatever the way
 * in (source, `bash FILE`, eval, functions, aliases), the walk stops at the budget and the verdict
 * asks with `expansion-limit`. No timings here: bench/walk-budget.mjs measures them.
 */
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../src/index.js';
import { check, CONTEXT } from '../helpers/analyzer.js';

/** Files `s0`…`s{levels-1}`: each runs the next `fanout` times with `run`; the last reads a file. */
function nestedScripts(levels: number, fanout: number, run: string): string {
  const parts: string[] = [];
  for (let i = 0; i < levels; i++) {
    const body =
      i === levels - 1
        ? 'cat notes.txt'
        : Array(fanout)
            .fill(`${run} s${i + 1}`)
            .join(';');
    parts.push(`echo '${body}' > s${i}`);
  }
  return [...parts, `${run} s0`].join(';');
}

const rules = (v: { findings: { rule: string }[] }) => v.findings.map((f) => f.rule);

describe('the walk budget', () => {
  it('stops a line that sources scripts from scripts, six levels deep, and asks', async () => {
    const line = nestedScripts(6, 10, '.');
    expect(line.length).toBeLessThan(1024);
    const v = await check(line);
    expect(v.level).toBe('ask');
    expect(rules(v)).toContain('expansion-limit');
  });

  it('stops a script that runs itself through bash, as deep as scripts nest', async () => {
    const v = await check(`echo 'bash s;bash s;bash s;bash s;bash s;bash s;bash s;bash s;bash s;bash s' > s; bash s`);
    expect(v.level).toBe('ask');
    expect(rules(v)).toContain('expansion-limit');
  });

  it('counts eval, functions and sourced files in one budget', async () => {
    const a = await createAnalyzer({ maxWalkSteps: 40, cacheSize: 0 });
    // Each part alone stays under 40 steps; together they pass it.
    const line = 'f(){ ls; ls; ls; ls; ls; }; f; f; f; eval "ls; ls; ls; ls; ls; ls; ls; ls; ls; ls"; echo "ls;ls;ls;ls;ls;ls;ls;ls;ls;ls" > s; . s; . s';
    const v = a.analyze(line, CONTEXT);
    expect(v.level).toBe('ask');
    expect(rules(v)).toContain('expansion-limit');
    expect(rules(v).filter((r) => r === 'expansion-limit')).toHaveLength(1);
  });

  it('charges nested code by its length: one long sourced text is not one step', async () => {
    const a = await createAnalyzer({ maxWalkSteps: 20, cacheSize: 0 });
    const v = a.analyze(`echo '${'#'.repeat(2000)}' > s; . s`, CONTEXT);
    expect(rules(v)).toContain('expansion-limit');
  });

  it('charges code walked again by its words: a function of many words called many times', async () => {
    const words = Array(1500).fill('x').join(' ');
    const v = await check(`f(){ grep -rn ${words} .; }; ${Array(60).fill('f').join(';')}`);
    expect(rules(v)).toContain('expansion-limit');
    // the same words once, at the top level, are no multiplication
    const once = await check(`grep -rn ${words} .`);
    expect(rules(once)).not.toContain('expansion-limit');
    expect((await check(`f(){ grep -rn ${words} .; }; f; f`)).findings.map((f) => f.rule)).not.toContain('expansion-limit');
  });

  it('leaves lines well under the budget as they were', async () => {
    const v = await check(nestedScripts(3, 3, '.'));
    expect(rules(v)).not.toContain('expansion-limit');
    const read = await check('for f in *.txt; do grep -n TODO "$f" | head -n 3; done');
    expect(read.level).toBe('allow');
  });

  it('is an analyser option a settings file may set, checked at the boundary', async () => {
    await expect(createAnalyzer({ maxWalkSteps: 0 })).rejects.toThrow(/maxWalkSteps/);
  });
});
