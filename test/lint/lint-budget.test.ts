/**
 * The walk's budget in `shellgate lint`: one budget per file, shared by all its snippets, so a
 * small script written to multiply the work (bench/walk-budget.mjs) ends in seconds with an
 * `expansion-limit` finding where the budget ran out, instead of running for minutes with a
 * budget of a million steps per snippet. Build first (npm run build).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLinter } from '../../src/index.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Scripts s0…s5, each sourcing the next ten times: a million commands from 350 bytes. */
function fanOut(): string {
  const lines = ['#!/bin/sh'];
  for (let i = 0; i < 6; i++)
    lines.push(
      `echo '${
        i === 5
          ? 'cat notes.txt'
          : Array(10)
              .fill(`. s${i + 1}`)
              .join(';')
      }' > s${i}`,
    );
  lines.push('. s0'); // line 8: where the walk starts the fan-out, and runs out
  return lines.join('\n') + '\n';
}

describe('lint: one walk budget per file', () => {
  it('a fan-out script of 350 bytes ends with expansion-limit at the line that fans out, in JSON and SARIF', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-lint-budget-'));
    dirs.push(dir);
    mkdirSync(join(dir, '.git'));
    const script = fanOut();
    expect(script.length).toBeLessThan(4096);
    writeFileSync(join(dir, 'fan.sh'), script);
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [BIN, 'lint', ...args, 'fan.sh'], { encoding: 'utf8', cwd: dir, env: { ...process.env, NO_COLOR: '1' } });

    const j = run('--format', 'json');
    expect(j.status, j.stderr).toBe(0); // ask is below the default --fail-on deny
    const findings = (JSON.parse(j.stdout) as { findings: { rule: string; line: number; column: number; message: string }[] }).findings;
    const limit = findings.filter((f) => f.rule === 'expansion-limit');
    expect(limit).toHaveLength(1);
    expect(limit[0]).toMatchObject({ line: 8, column: 3 });
    expect(limit[0]!.message).toContain("the file's budget of");

    const s = run('--format', 'sarif');
    const results = (
      JSON.parse(s.stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[] }
    ).runs[0]!.results;
    const sarifLimit = results.filter((r) => r.ruleId === 'expansion-limit');
    expect(sarifLimit).toHaveLength(1);
    expect(sarifLimit[0]!.locations[0]!.physicalLocation.region.startLine).toBe(8);
  }, 60_000);

  it("a snippet walked after the file's budget is spent asks at its own start: the budget is the file's, not each script's", async () => {
    // Settings' maxWalkSteps sets the file's budget: small here, so the first script spends it.
    const linter = await createLinter({ root: '/ws/project', analyzer: { maxWalkSteps: 50 } });
    const pkg = JSON.stringify({ scripts: { build: `f(){ ls; ls; ls; }; ${Array(40).fill('f').join('; ')}`, clean: 'rm -rf ./dist' } }, null, 2) + '\n';
    const r = linter.lintText('package.json', pkg)!;
    const limits = r.findings.filter((f) => f.rule === 'expansion-limit').map((f) => [f.line, f.origin]);
    expect(limits).toEqual([
      [3, 'scripts.build'],
      [4, 'scripts.clean'],
    ]);
    // Each script on its own stays inside the same budget.
    expect(linter.lintText('package.json', JSON.stringify({ scripts: { clean: 'rm -rf ./dist' } }))!.findings.some((f) => f.rule === 'expansion-limit')).toBe(
      false,
    );
  });
});
