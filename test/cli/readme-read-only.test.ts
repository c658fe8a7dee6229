/**
 * README promises that its examples of read-only work come back `allow` from the CLI with no
 * settings: run every line of that block through bin/shellgate.cjs in a fresh workspace.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'shellgate.cjs');

/** The lines of the sh block that follows the sentence naming this test. */
function readmeExamples(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('test/cli/readme-read-only.test.ts');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (at < 0 || block === null) throw new Error('README: the block of read-only examples is missing');
  return block[1].split('\n').filter((l) => l.trim() !== '');
}

describe("README's read-only examples", () => {
  it('come back allow through the CLI', () => {
    const ws = mkdtempSync(join(tmpdir(), 'sg-readme-'));
    mkdirSync(join(ws, 'src'));
    for (const f of ['README.md', 'package.json', 'a.txt', 'b.txt', 'src/index.ts', 'src/a.c', '.env.example']) writeFileSync(join(ws, f), '{}\n');
    const examples = readmeExamples();
    expect(examples.length).toBeGreaterThan(10);
    const r = spawnSync(process.execPath, [BIN, 'check', '--json', '--cwd', ws, '--workspace', ws], {
      input: examples.join('\n') + '\n',
      encoding: 'utf8',
      cwd: ws,
      env: { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'sg-home-')), NO_COLOR: '1' },
    });
    const verdicts = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { command: string; level: string; findings: { rule: string; level: string }[] });
    expect(verdicts.map((v) => v.command)).toEqual(examples);
    for (const v of verdicts) expect(v.level, `${v.command}: ${v.findings.filter((f) => f.level !== 'allow').map((f) => f.rule)}`).toBe('allow');
    expect(r.status).toBe(0);
  });
});
