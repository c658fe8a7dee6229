/**
 * RuleTester: every guard rule carries examples that must match and examples that must not, and
 * one test runs all of them through the full analyser (parse → walk → ops → guard).
 */
import { describe, expect, it } from 'vitest';
import { analyzer, CONTEXT } from '../helpers/analyzer.js';
import { GUARD_CATEGORIES } from '../../src/guard/rule-types.js';

const a = await analyzer();

describe('guard rules', () => {
  it('carry the MITRE ATT&CK techniques they detect, as well-formed ids, on the rule and on its findings', () => {
    for (const r of a.rules) {
      expect(r.attack, `${r.id}: no attack ids`).toBeDefined();
      expect(r.attack!.length, `${r.id}: no attack ids`).toBeGreaterThan(0);
      for (const id of r.attack!) expect(id, r.id).toMatch(/^T\d{4}(\.\d{3})?$/);
      expect(new Set(r.attack).size, `${r.id}: repeated attack id`).toBe(r.attack!.length);
      const hit = a.analyze(r.examples.match[0], CONTEXT).findings.find((f) => f.rule === r.id);
      expect(hit?.attack, `${r.id}: finding without the rule's attack ids`).toEqual(r.attack);
    }
  });

  it('cover every category, each rule with both kinds of example', () => {
    expect(new Set(a.rules.map((r) => r.category))).toEqual(new Set(GUARD_CATEGORIES));
    for (const r of a.rules) {
      expect(r.examples.match.length, `${r.id}: no match example`).toBeGreaterThan(0);
      expect(r.examples.noMatch.length, `${r.id}: no noMatch example`).toBeGreaterThan(0);
    }
  });

  for (const r of a.rules) {
    describe(r.id, () => {
      for (const cmd of r.examples.match) {
        it(`matches: ${cmd}`, () => {
          const v = a.analyze(cmd, CONTEXT);
          const hit = v.findings.find((f) => f.rule === r.id);
          expect(hit, `findings: ${v.findings.map((f) => f.rule).join(', ')}`).toBeDefined();
          expect(hit!.category).toBe(r.category);
          expect(v.level === 'deny' || r.level === 'ask').toBe(true);
        });
      }
      for (const cmd of r.examples.noMatch) {
        it(`does not match: ${cmd}`, () => {
          const v = a.analyze(cmd, CONTEXT);
          expect(v.findings.filter((f) => f.rule === r.id)).toEqual([]);
        });
      }
    });
  }
});
