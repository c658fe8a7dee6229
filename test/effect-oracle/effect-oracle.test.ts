/**
 * Programs as the oracle (issue 27, "every allow is a proof"): run the commands shellgate allows,
 * for real, under strace, inside a hostile repository (sandbox.ts, fixture.ts), and call every
 * effect beyond a read inside the workspace a violation (effects.ts).
 *
 * In `npm test`: a seeded sample of every corpus. `npm run oracle:effect` runs every command of
 * every corpus instead (EFFECT_ORACLE=full) and prints the counts per corpus.
 *
 * Violations are not hidden: the ones found must be exactly known-violations.json (by command), each with a one-line reason; a new one fails, and so does a fixed one (then
 * remove its entry). The full run reports and fails on a violation not in the list.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpora, items, sample, sharedPresent } from './corpora.js';
import { formatReport, runOracle, type OracleReport, type Violation } from './oracle.js';
import { createdDirs, EffectSandbox, probeEffectSandbox, STRACE } from './sandbox.js';
import { effectsOf } from './effects.js';
import { unavailable } from '../oracle/judge.js';

const HERE = import.meta.dirname;
const FULL = process.env.EFFECT_ORACLE === 'full';
/** Per corpus, how many commands the sample draws (about 150 of them come back `allow`). */
/** The share of each corpus the sample draws (corpora.ts sample()), written as about how many of how many. */
const SAMPLE = {
  nl2bash: 100 / 10600,
  tldr: 150 / 29500,
  project: 100 / 1100,
  precision: 80 / 270,
  'spec examples': 60 / 260,
  'rule examples': 40 / 2300,
  'grammar fuzz': 100 / 1900,
  'inline code': 40 / 520,
};

interface KnownViolation {
  command: string;
  kinds: string[];
  reason: string;
  effects?: string[];
}

const kindsOf = (v: Violation) => [...new Set(v.effects.map((e) => e.slice(0, e.indexOf(' '))))].sort();
/**
 * A violation is known by its command: which kinds of effect show up can depend on timing (npm's
 * update check reaches the network only when its log write came first), and the entry's kinds and
 * effects are there for the reader.
 */
const key = (command: string) => command;

const probe = existsSync(STRACE) ? await probeEffectSandbox() : { ok: false as const, reason: `${STRACE} not found` };

describe('the effect oracle', () => {
  if (!probe.ok || !sharedPresent()) {
    if (!probe.ok) unavailable(`EFFECT ORACLE UNAVAILABLE: ${probe.reason}.`, 'has a working sandbox');
    else unavailable('EFFECT ORACLE SKIPPED: ../shared/corpus is missing.', 'runs', false);
    return;
  }

  afterAll(() => {
    expect(
      createdDirs.filter((d) => existsSync(d)),
      'the effect oracle leaves nothing in the temp dir',
    ).toEqual([]);
  });

  it('isolates: read-only host, no /work or real home, no network, fresh fixture per command', async () => {
    const sb = EffectSandbox.create({ workers: 1 });
    try {
      const checks: Record<string, string> = {
        'host read-only': '! { echo x > /usr/sg-x; } 2>/dev/null && ! { echo x > /etc/sg-x; } 2>/dev/null',
        'no /work, no real home, no daemons': '[[ -z $(ls -A /work) && -z $(ls -A /root) && ! -e /run/docker.sock && ! -e /var/run/docker.sock ]]',
        'no network': '! { exec 3<>/dev/tcp/1.1.1.1/80; } 2>/dev/null',
        'the hostile fixture is there': '[[ -f .git/config && -L home-link && -f ./-rf && -f "$HOME/.ssh/id_rsa" ]]',
        'writes to the workspace do not last': 'echo x > left; [[ -f left ]]',
        'nothing left by the last command': '[[ ! -e left ]]',
      };
      const names = Object.keys(checks);
      const rs = await sb.run(names.map((n) => checks[n]));
      expect(names.filter((n, i) => rs[i].status !== 0)).toEqual([]);
      // and the tracer sees what a command does
      const [seen] = await sb.run(['cat home-link/.ssh/id_rsa > /dev/null; touch /tmp/x; sh -c : ']);
      const kinds = effectsOf(seen.processes, { ws: sb.ws, home: sb.home, command: 'cat' }).map((e) => e.kind);
      expect([...new Set(kinds)].sort()).toEqual(['exec-interpreter', 'read-home', 'write']);
    } finally {
      sb.dispose();
    }
  });

  let report: OracleReport;

  it(
    FULL ? 'every allowed command of every corpus only reads inside the workspace' : 'a seeded sample of allowed commands only reads inside the workspace',
    async () => {
      const all = items(FULL ? corpora() : corpora({ fuzz: 2000, inlinePerLanguage: 150 }));
      // EFFECT_ORACLE_ONLY: a report this run saved (`--out`): run again only the commands it found violating
      const only = process.env.EFFECT_ORACLE_ONLY
        ? new Set((JSON.parse(readFileSync(process.env.EFFECT_ORACLE_ONLY, 'utf8')) as { violations: Violation[] }).violations.map((v) => v.command))
        : null;
      const list = only ? all.filter((i) => only.has(i.command)) : FULL ? all : sample(all, SAMPLE);
      const save = (r: OracleReport) => {
        if (process.env.EFFECT_ORACLE_OUT)
          writeFileSync(process.env.EFFECT_ORACLE_OUT, JSON.stringify({ violations: r.violations, timedOut: r.timedOut }, null, 1) + '\n');
      };
      report = await runOracle(list, {
        workers: FULL ? Number(process.env.EFFECT_ORACLE_WORKERS ?? 3) : 2,
        // the full run goes round-robin over the corpora and reports as it goes: cut short, it still says something
        interleave: FULL,
        chunk: FULL ? 200 : 400,
        progress: FULL
          ? (d, t, sofar) => {
              console.log(`effect oracle: ${d}/${t}\n${formatReport(sofar)}`);
              save(sofar);
            }
          : undefined,
      });
      console.log(`\n${formatReport(report)}\n`);
      save(report);
      const known = JSON.parse(readFileSync(join(HERE, 'known-violations.json'), 'utf8')) as KnownViolation[];
      const knownKeys = new Set(known.map((k) => key(k.command)));
      const foundKeys = new Set(report.violations.map((v) => key(v.command)));
      const unknown = report.violations.filter((v) => !knownKeys.has(key(v.command)));
      for (const v of unknown) console.log(`NEW VIOLATION ${JSON.stringify({ command: v.command, kinds: kindsOf(v), source: v.source, effects: v.effects })}`);
      expect(unknown.map((v) => ({ command: v.command, kinds: kindsOf(v), effects: v.effects }))).toEqual([]);
      if (!FULL) {
        // a known violation no longer found: fixed (or no longer allowed); remove its entry
        // (a command killed at the time limit may not have got that far: it proves nothing either way)
        // Only the known entries this sample ran (or meant to run) can be judged: the seeded sample
        // moves when a corpus gains a line, and an entry it did not draw proves nothing.
        const killed = new Set(report.timedOut);
        const drawn = new Set(list.map((i) => key(i.command)));
        expect(known.filter((k) => drawn.has(key(k.command)) && !killed.has(k.command) && !foundKeys.has(key(k.command))).map((k) => k.command)).toEqual([]);
      }
    },
    // the full run only: the sample keeps the suite's limit, which no speed reaches
    FULL ? 4 * 3600_000 : undefined,
  );
});
