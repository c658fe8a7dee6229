/**
 * The guard's prefilter skips a rule when a command lacks a feature the rule's matcher needs.
 * That is only sound if no rule ever matches a command the prefilter would skip: checked here on
 * every rule's own examples (where rules do match) and on NL2Bash (where most do not).
 */
import { describe, expect, it } from 'vitest';
import { analyzer, CONTEXT, projectCommands } from '../helpers/analyzer.js';
import { nl2bash } from '../helpers/shared-corpus.js';
import type { Subject } from '../../src/guard/subject.js';
import { buildSubjects } from '../../src/guard/apply.js';
import { meets, needOf, subjectFeatures } from '../../src/guard/prefilter.js';
import { defaultSpecs } from '../../src/ops/load-specs.js';
import type { LoadedRule } from '../../src/guard/load-rules.js';
import type { Verdict } from '../../src/verdict/types.js';

const a = await analyzer();
const rules = a.rules as LoadedRule[];

/** Subjects exactly as applyGuards builds them. */
function subjects(v: Verdict): Subject[] {
  return buildSubjects(v.commands, v.operations, defaultSpecs());
}

const projectCases = projectCommands();

describe('guard prefilter', () => {
  it('never skips a rule that matches (rule examples, project corpus, NL2Bash)', () => {
    const commands = [...rules.flatMap((r) => [...r.examples.match, ...r.examples.noMatch]), ...projectCases, ...nl2bash().slice(0, 4000)];
    let matched = 0;
    const skippedMatches: string[] = [];
    for (const cmd of commands) {
      for (const s of subjects(a.analyze(cmd, CONTEXT))) {
        const features = subjectFeatures(s);
        for (const r of rules) {
          if (!r.test(s)) continue;
          matched++;
          if (!meets(features, r.need)) skippedMatches.push(`${r.id}: ${cmd}`);
        }
      }
    }
    expect(skippedMatches).toEqual([]);
    expect(matched).toBeGreaterThan(rules.length); // the check saw real matches, not only misses
  });

  it('derives conditions from operations, code, pipelines and contexts, and none from `not`', () => {
    const defs = { lists: {}, macros: { net: { op: { kind: 'Network' as const } } } };
    expect(needOf({ op: { kind: 'Write' } }, defs)).toHaveLength(1);
    expect(needOf({ not: { op: { kind: 'Write' } } }, defs)).toEqual([]);
    expect(needOf({ predicate: 'fork-bomb' }, defs)).toEqual([]);
    // `any`: a branch without a condition leaves the whole any unconstrained
    expect(needOf({ any: [{ code: ['x'] }, { program: 'ls' }] }, defs)).toEqual([]);
    const both = needOf({ any: [{ code: ['x'] }, { macro: 'net' }] }, defs);
    expect(both).toHaveLength(1);
    const net = needOf({ macro: 'net' }, defs)[0];
    const code = needOf({ code: ['x'] }, defs)[0];
    expect(both[0]).toBe(net | code);
    expect(needOf({ context: { privileged: true, background: false } }, defs)).toHaveLength(1);
  });
});
