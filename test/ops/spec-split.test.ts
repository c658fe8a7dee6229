/**
 * dist/specs/ (written by scripts/bundle.mjs) holds the built-in command specs one program per
 * file, so a command parses only its own program's spec. It must say exactly what the sources say.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIST = join(import.meta.dirname, '..', '..', 'dist', 'ops', 'load-specs.js');

describe('split command specs', () => {
  it('give every program the same spec as rules/commands/', async () => {
    const { defaultSpecs, lazySpecDir, RULES_DIR } = (await import(DIST)) as typeof import('../../src/ops/load-specs.js');
    expect(defaultSpecs()).toBeDefined();
    const split = lazySpecDir(join(RULES_DIR, 'commands'), join(import.meta.dirname, '..', '..', 'dist', 'specs'));
    const sources = lazySpecDir(join(RULES_DIR, 'commands'));
    expect(split.programs().sort()).toEqual(sources.programs().sort());
    for (const p of sources.programs()) expect(split.get(p), p).toEqual(sources.get(p));
  });
});
