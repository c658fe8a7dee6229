/**
 * Real dash as the oracle for code run by `sh`. On Debian and Ubuntu `/bin/sh` is dash, so every
 * `sh -c BODY` runs there; shellgate reads the body with bash's grammar and asks where dash may read
 * it otherwise (`dialect-difference`). This suite checks that claim against the real dash: each
 * command of the project corpus and of the oracle's generator is run as `sh -c 'COMMAND'` in the
 * sandbox with `/bin/sh` → dash, and every program dash runs must be among shellgate's
 * sub-commands, or shellgate does not allow it and says what it cannot know.
 *
 * No shared corpus is needed: the inputs are the project's own. `npm test` runs a stable sample;
 * `npm run oracle:dash` runs every command.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer, type Verdict } from '../../src/index.js';
import { generateCommands, sq } from './generate.js';
import { probeSandbox, Sandbox, type RunResult } from './sandbox.js';
import { excusedVerdict, NOT_RUN, unavailable, unlisted } from './judge.js';
import { projectCommands } from '../helpers/analyzer.js';
import { drawn } from '../helpers/stable-draw.js';

const HERE = import.meta.dirname;
const CONTEXT = { cwd: '/work', workspaceRoots: ['/work'], home: '/root', env: {} };
const HAS_DASH = existsSync('/usr/bin/dash') || existsSync('/bin/dash');
/** `npm test` runs a stable 40 % of the commands; `npm run oracle:dash` runs them all. */
const RATE = process.env.SHELLGATE_ORACLE_FULL === '1' ? 1 : 0.4;

function bodies(): string[] {
  const out = new Set<string>([...projectCommands(), ...generateCommands()]);
  // the cases written for dash (they name it) are always run; the rest by a stable draw
  return [...out].filter((c) => !c.includes('\0') && (drawn(c, RATE, 'dash-oracle') || /\bsh\b|dash|&>|\$'/.test(c)));
}

const probe = HAS_DASH ? await probeSandbox() : ({ ok: false, reason: 'no dash on this machine' } as const);

describe('real dash as the oracle for `sh -c`', () => {
  if (!probe.ok) {
    unavailable(`DASH ORACLE UNAVAILABLE: ${probe.reason}.`, 'has dash and a working sandbox');
    return;
  }

  let sandbox: Sandbox;
  const commands: string[] = [];
  const verdicts: Verdict[] = [];
  let results: RunResult[] = [];

  beforeAll(async () => {
    const analyzer = await createAnalyzer();
    for (const body of bodies()) commands.push(`sh -c ${sq(body)}`);
    const programs = new Set<string>(JSON.parse(readFileSync(join(HERE, 'common-programs.json'), 'utf8')) as string[]);
    for (const c of commands) {
      const v = analyzer.analyze(c, CONTEXT);
      verdicts.push(v);
      for (const x of v.commands) if (x.program) programs.add(x.program);
    }
    programs.add('sg-ok');
    sandbox = Sandbox.create({ programs, timeoutSeconds: 2, workers: 2, sh: 'dash' });
    const toRun = commands.map((_, i) => i).filter((i) => !excusedVerdict(verdicts[i]));
    const ran = await sandbox.run(toRun.map((i) => commands[i]));
    results = commands.map(() => NOT_RUN);
    toRun.forEach((i, k) => (results[i] = ran[k]));
  });

  afterAll(() => {
    const dir = sandbox?.dir;
    sandbox?.dispose();
    if (dir) expect(existsSync(dir), 'the sandbox removes its temp root').toBe(false);
  });

  it('runs sh as the real dash, and sees the names dash does not find', async () => {
    const [r] = await sandbox.run(['sh -c \'test -n "$BASH_VERSION" || sg-ok; no-such-program-here\'']);
    expect(r.records.map((x) => `${x.kind} ${x.program}`)).toEqual(['exec sg-ok', 'missing no-such-program-here']);
  });

  it('every program dash runs in an `sh -c` body is among shellgate’s sub-commands, or shellgate asks because it cannot know', () => {
    const violations: { command: string; ran: string[]; level: string; rules: string[] }[] = [];
    let run = 0;
    let observed = 0;
    for (let i = 0; i < commands.length; i++) {
      const r = results[i];
      if (r === NOT_RUN) continue;
      run++;
      observed += r.records.length;
      const ran = unlisted(verdicts[i], r);
      if (ran.length > 0)
        violations.push({ command: commands[i], ran, level: verdicts[i].level, rules: [...new Set(verdicts[i].findings.map((f) => f.rule))] });
    }
    console.log(
      `\nreal-dash oracle: ${commands.length} sh -c commands, ${run} run (the rest ask and say what shellgate cannot know), ${observed} programs observed, ${violations.length} violation(s)`,
    );
    for (const x of violations)
      console.log(`VIOLATION ${JSON.stringify(x.command)}\n  dash ran: ${x.ran.join(', ')}\n  shellgate: ${x.level} rules ${x.rules.join(',')}`);
    expect(run).toBeGreaterThan(300);
    expect(violations).toEqual([]);
  });
});
