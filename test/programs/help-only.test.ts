/**
 * Help and version: a command line of only a program's declared help options prints and exits,
 * so it is read-only whatever the program does otherwise; anything more is the real command.
 */
import { describe, expect, it } from 'vitest';
import { defaultSpecs } from '../../src/programs/load-specs.js';
import { check } from '../helpers/analyzer.js';

describe('help and version options', () => {
  it('every declared help option of every spec, alone, is allowed', async () => {
    const specs = defaultSpecs();
    let declared = 0;
    for (const program of specs.programs()) {
      const spec = specs.get(program);
      for (const h of spec?.help ?? []) {
        declared++;
        const v = await check(`${program} ${h}`);
        expect(v.level, `${program} ${h}: ${v.findings.map((f) => f.rule).join(', ')}`).toBe('allow');
      }
    }
    expect(declared).toBeGreaterThan(200);
  });

  it('reaches subcommands: git commit -h prints usage, cargo check --help prints help', async () => {
    for (const c of ['git commit -h', 'cargo check --help']) expect((await check(c)).level, c).toBe('allow');
    // before they print any help (traced): docker reads ~/.docker/config.json, npm writes its log
    // under ~/.npm, kubectl contacts the API server
    for (const c of ['docker ps --help', 'npm install --help', 'kubectl delete -h']) expect((await check(c)).level, c).toBe('ask');
  });

  it('is the real command once anything else is on the line', async () => {
    for (const c of ['rm --help -rf x', 'rm -rf x --help', 'node -v x.js', 'node --version "$x"', 'git commit -h -a', 'rm --help x', 'npm --version install x'])
      expect((await check(c)).level, c).not.toBe('allow');
  });

  it('is not help where the letters mean something else', async () => {
    // `git --help` opens a help viewer the repository's configuration may name; docker run's -v takes a volume.
    for (const c of ['git commit --help', 'docker run -v', 'sudo -h', 'touch -h x']) expect((await check(c)).level, c).not.toBe('allow');
    expect((await check('ls -h')).level).toBe('allow'); // ls -h is human sizes: read-only as ls, not as help
  });
});
