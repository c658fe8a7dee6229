/**
 * A bare assignment to a name the agent's environment may export reaches only programs started
 * after it in the same line (each tool call is a fresh shell): with none, it is harmless.
 */
import { describe, expect, it } from 'vitest';
import { check } from '../helpers/analyzer.js';

const hijack = async (line: string) => (await check(line)).findings.some((f) => f.rule === 'env-hijack');

describe('env-hijack needs a program after the assignment', () => {
  it('lets a value die with the line when nothing after it starts a program', async () => {
    for (const line of ['LINE=$(date)', 'LINE=$(date); echo "$LINE"', 'ls; GZIP=-9', 'read -a HR < f; echo "${HR[0]}"', 'GZIP=$(gzip -l a)'])
      expect(await hijack(line), line).toBe(false);
  });
  it('asks when a program may start after it, or where it runs is not known', async () => {
    for (const line of [
      'GZIP=-9; tar czf x.tgz d', // a later program reads it
      'for i in 1 2; do gzip -l f; GZIP=x; done', // the next pass runs gzip after it
      'f(){ gzip -l a; }; GZIP=x; f', // a function body written earlier runs later
      'GZIP=x; bash -c "gzip -l a"',
      'GZIP=x; $c', // a program only known at run time
      'GZIP=x; eval "$c"',
      'GZIP=x && { gzip -l a; }',
      'GZIP=x | gzip -l a',
      'trap "gzip -l a" EXIT; GZIP=x', // the trap's action runs at exit, after it
      'LINE=$(date); exec gzip -l a',
      'export GZIP=x', // exported: every later program of the agent's shell sees it
    ])
      expect(await hijack(line), line).toBe(true);
  });
});
