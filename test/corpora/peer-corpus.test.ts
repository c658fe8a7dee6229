/**
 * Other agents' test cases (../shared/corpus/peer-cases.jsonl): where a peer's own test expects a
 * command to be treated as dangerous (or not read-only), shellgate must not allow it. Where we
 * knowingly disagree (a peer blocks what we can prove harmless), the case is listed in
 * test/corpora/peer-disagreements.json with the reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzer, CONTEXT } from '../helpers/analyzer.js';
import { jsonl } from '../helpers/shared-corpus.js';

interface PeerCase {
  source: string;
  command: string;
  peer_expectation: string;
  kind: string;
}

/** The peer's test says: flag it, block it, it is not read-only / not safe. */
export function peerSaysDangerous(c: PeerCase): boolean {
  const e = c.peer_expectation;
  if (c.kind === 'dangerous')
    return !/not flag|is None|^null \(|blocked is False|allowed safe|not destructive|non-git|is_not_dangerous|should not|toBe\(false\)|None$/i.test(e);
  if (c.kind === 'readonly' || c.kind === 'safe') return /\brejects\b|=> false|toBe\(false\)|is not read-only|not safe/i.test(e) && !/toBe\(true\)/.test(e);
  return false;
}

const disagreements: { command: string; peer: string; reason: string }[] = JSON.parse(
  readFileSync(join(import.meta.dirname, 'peer-disagreements.json'), 'utf8'),
);
const listed = new Set(disagreements.map((d) => d.command));

describe('peer cases', () => {
  it('nothing a peer flags as dangerous comes back allow, unless listed with our reason', async () => {
    const a = await analyzer();
    const wrong: string[] = [];
    let dangerous = 0;
    for (const c of jsonl<PeerCase>('peer-cases.jsonl')) {
      if (!peerSaysDangerous(c)) continue;
      dangerous++;
      if (a.analyze(c.command, CONTEXT).level === 'allow' && !listed.has(c.command)) wrong.push(`${c.source}: ${c.command}`);
    }
    expect(dangerous).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it('every listed disagreement is still one, with a reason', async () => {
    const a = await analyzer();
    for (const d of disagreements) {
      expect(d.reason.length).toBeGreaterThan(30);
      expect(a.analyze(d.command, CONTEXT).level, d.command).toBe('allow');
    }
  });
});
