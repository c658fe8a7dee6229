/** Every lint rule's examples, linted through the whole pipeline: each lands where it says, or nowhere. */
import { describe, expect, it } from 'vitest';
import { LINT_RULES, type LintRuleMeta } from '../../src/lint/lint-rules.js';
import { lintText } from '../../src/lint/lint-file.js';
import { kindOf } from '../../src/lint/sources/index.js';
import { analyzer, WS } from '../helpers/analyzer.js';

describe.each(Object.entries(LINT_RULES as Record<string, LintRuleMeta>))('%s', (id, meta) => {
  it('has examples that match and one that does not, for kinds it names', () => {
    expect(meta.examples.some((e) => e.at !== null)).toBe(true);
    expect(meta.rationale.length).toBeGreaterThan(40);
  });
  it.each(meta.examples.map((e, i) => [i, e] as const))('example %i', async (_i, ex) => {
    const kind = kindOf(ex.path, ex.text.slice(0, 512));
    expect(kind, ex.path).not.toBeNull();
    expect(meta.kinds).toContain(kind!.name);
    const r = lintText(await analyzer(), kind!, ex.text, ex.path, `${WS}/${ex.path}`, { root: WS });
    const hits = r.findings.filter((f) => f.rule === id).map((f) => ({ line: f.line, column: f.column }));
    if (ex.at === null) expect(hits).toEqual([]);
    else expect(hits).toContainEqual(ex.at);
  });
});
