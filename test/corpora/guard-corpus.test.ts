/**
 * The labelled public corpora: no dangerous case may come back allow, and no benign look-alike
 * may be denied. Where we knowingly disagree with a label, the case is listed in
 * test/corpora/label-disagreements.json with our reason; that list is checked too (a listed case
 * that no longer disagrees must be removed). Recall figures: bench/guard-recall.mjs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzer, CONTEXT } from '../helpers/analyzer.js';
import { jsonl } from '../helpers/shared-corpus.js';

interface Labelled {
  category?: string;
  technique?: string;
  command: string;
  expected: 'allow' | 'ask' | 'deny';
}
interface Disagreement {
  command: string;
  label: string;
  ours: string;
  reason: string;
}

const disagreements: Disagreement[] = JSON.parse(readFileSync(join(import.meta.dirname, 'label-disagreements.json'), 'utf8'));
const listed = new Map(disagreements.map((d) => [d.command, d]));

describe('labelled corpora', () => {
  it('guard-cases: no benign look-alike is denied, no dangerous case is allowed', async () => {
    const a = await analyzer();
    const wrong: string[] = [];
    for (const c of jsonl<Labelled>('guard-cases.jsonl')) {
      const v = a.analyze(c.command, CONTEXT);
      const bad = c.category === 'benign' ? v.level === 'deny' : v.level === 'allow';
      if (bad && listed.get(c.command)?.ours !== v.level) wrong.push(`${c.category}: ${v.level} ${c.command}`);
    }
    expect(wrong).toEqual([]);
  });

  it('bypass-cases: no case labelled deny or ask comes back allow', async () => {
    const a = await analyzer();
    const wrong: string[] = [];
    for (const c of jsonl<Labelled>('bypass-cases.jsonl')) {
      const v = a.analyze(c.command, CONTEXT);
      if (v.level === 'allow' && listed.get(c.command)?.ours !== 'allow') wrong.push(`${c.technique}: ${c.command}`);
    }
    expect(wrong).toEqual([]);
  });

  it('every listed disagreement still disagrees, and says why', async () => {
    const a = await analyzer();
    for (const d of disagreements) {
      expect(d.reason.length, d.command).toBeGreaterThan(20);
      expect(a.analyze(d.command, CONTEXT).level, d.command).toBe(d.ours);
    }
  });
});
