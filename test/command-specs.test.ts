/**
 * Command knowledge: every spec file loads and is well formed, bad specs fail with a message that
 * names file, program and field, and the programs agents run most often are all known.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSpecs, loadSpecDir } from '../src/ops/load-specs.js';
import { PROGRAM_HANDLERS } from '../src/ops/program-handlers.js';
import { SHELLS, WRAPPER_OPTIONS } from '../src/walk/wrapper-table.js';
import { analyzer, CONTEXT } from './helpers/analyzer.js';
import { nl2bash, tldr } from './helpers/shared-corpus.js';

function specDir(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-specs-'));
  writeFileSync(join(dir, 'x.json'), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

describe('command specs', () => {
  it('all built-in spec files load', () => {
    expect(defaultSpecs().size).toBeGreaterThan(300);
  });

  it('reject a bad spec naming file, program and field', () => {
    expect(() => loadSpecDir(specDir({ cat: { summary: 'x', class: 'readonly' } }))).toThrow(/x\.json: program "cat": field "class"/);
    expect(() => loadSpecDir(specDir({ cat: { summary: 'x', class: 'read-only', operands: ['reed'] } }))).toThrow(/field "operands"/);
    expect(() => loadSpecDir(specDir({ cat: { summary: 'x', class: 'read-only', options: { o: {} } } }))).toThrow(/option "o"/);
    expect(() => loadSpecDir(specDir({ kitty: { alias: 'nothing' } }))).toThrow(/alias "nothing" names no program/);
    expect(() => loadSpecDir(specDir('{ not json'))).toThrow(/not valid JSON/);
  });

  it('know the 150 programs run most often in NL2Bash and tldr', async () => {
    const a = await analyzer();
    const counts = new Map<string, number>();
    const lines = [...nl2bash(), ...tldr().map((t) => t.command)];
    for (const line of lines) {
      for (const c of a.analyze(line, CONTEXT).commands) {
        if (!c.program || c.calls || !/^[A-Za-z0-9._+-]+$/.test(c.program)) continue;
        counts.set(c.program, (counts.get(c.program) ?? 0) + 1);
      }
    }
    const top = [...counts].sort((x, y) => y[1] - x[1]).slice(0, 150).map(([p]) => p);
    const specs = defaultSpecs();
    const known = (p: string) => specs.has(p) || p in PROGRAM_HANDLERS || p in WRAPPER_OPTIONS || SHELLS.has(p) || ['eval', 'source', '.', 'alias'].includes(p);
    expect(top.filter((p) => !known(p))).toEqual([]);
  });
});
