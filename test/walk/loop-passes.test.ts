/**
 * The walker counts a loop's passes from its header (context.loopPasses) and the background jobs
 * a loop starts (context.backgroundJobs), so the resource-abuse rules can tell eight jobs from
 * eighty thousand.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/analyzer.js';

/** The context of the first command named `program` in the line. */
async function contextOf(line: string, program: string) {
  const v = await check(line);
  const c = v.commands.find((x) => x.program === program);
  if (!c) throw new Error(`${program} not walked in ${line}`);
  return c.context;
}

describe('loop passes', () => {
  const CASES: [string, number | null][] = [
    ['for i in {1..5000}; do probe; done', 5000],
    ['for i in {10..1}; do probe; done', 10],
    ['for i in {0..100..5}; do probe; done', 21],
    ['for i in $(seq 1 100000); do probe; done', 100000],
    ['for i in `seq 250`; do probe; done', 250],
    ['for i in $(seq 0 2 10); do probe; done', 6],
    ['for i in a b c; do probe; done', 3],
    ['for ((i = 0; i < 300; i++)); do probe; done', 300],
    ['for ((i=1; i<=64; i+=2)); do probe; done', 32],
    ['for ((i = 10; i > 0; i--)); do probe; done', 10],
    ['for a in {1..100}; do for b in {1..50}; do probe; done; done', 5000],
    ['while :; do probe; done', Infinity],
    ['for f in *.png; do probe; done', null],
    ['for i in $(seq 1 "$N"); do probe; done', null],
    ['while read -r l; do probe; done < list.txt', null],
    ['probe', null],
  ];
  for (const [line, passes] of CASES) {
    it(`${line}: ${passes}`, async () => {
      expect((await contextOf(line, 'probe')).loopPasses).toBe(passes);
    });
  }
});

describe('background jobs started by a loop', () => {
  it('counts the passes around the `&`', async () => {
    expect((await contextOf('for i in {1..500}; do probe & done', 'probe')).backgroundJobs).toBe(500);
    expect((await contextOf('for i in {1..20}; do (for j in {1..50}; do probe; done) & done', 'probe')).backgroundJobs).toBe(20);
  });

  it('is null when the whole loop runs in one background job, or outside loops', async () => {
    expect((await contextOf('(for i in {1..500}; do probe; done) &', 'probe')).backgroundJobs).toBeNull();
    expect((await contextOf('probe &', 'probe')).backgroundJobs).toBeNull();
  });
});
