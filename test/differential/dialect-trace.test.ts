/**
 * The differential suite per dialect (issue 28): every command the analyser reads cleanly as zsh,
 * or as sh (dash), is run traced in that real shell in the oracle sandbox, and the analyser's
 * reading must explain what the shell ran (dialect-trace.ts): each simple command traced (program or
 * builtin, the words the analyser knows statically, and the directory it ran in) matches one of the
 * verdict's walked commands, and each program the stubs recorded is among them. Where the verdict
 * says the command runs code it could not read (stdin-exec, dynamic-script…), what is not
 * explained is counted apart and does not fail. The bash counterpart is parsers.test.ts with
 * bash-trace.ts and judge.ts audit().
 *
 * The oracles (test/oracle/zsh-oracle.test.ts, dash-oracle.test.ts) check that an allowed command
 * runs no program shellgate did not list; this suite checks the reading itself, on every command
 * read cleanly, allowed or not, builtins and words included.
 *
 * - Read cleanly: no `dialect-difference` (the analyser says the shell may read it otherwise) and no
 *   parse or limit finding. The rest is counted, not run.
 * - Inputs: the project corpus and a stable sample of the shared corpora (../shared/corpus; one
 *   printed line when it is missing). `npm test` runs a stable sample of both; `npm run
 *   differential:dialects` (SHELLGATE_ORACLE_FULL=1) runs the whole project corpus and a larger
 *   sample of the shared ones (all of them would take hours on two cores). The rate of the shared
 *   sample can be set with SHELLGATE_DIALECT_SHARED_RATE (0…1).
 * - dialect-known.json lists every disagreement known, each with its shell, the problem and the
 *   reason: a limit of the trace or of the sandbox, a reading that is wrong but stricter than the
 *   shell, or a hole reported for src/ (its reason starts with HOLE and says when to remove it).
 *   A listed command always runs; a listed entry
 *   that no longer disagrees fails as stale. Set SHELLGATE_DIALECT_DUMP=/tmp/x.json to write the
 *   current disagreements in that form (reasons kept).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer, type AnalysisContext, type Verdict } from '../../src/index.js';
import { probeSandbox, Sandbox, type RunResult } from '../oracle/sandbox.js';
import { unavailable } from '../oracle/judge.js';
import { projectCommands } from '../helpers/analyzer.js';
import { drawn } from '../helpers/stable-draw.js';
import { jsonl, nl2bash, SHARED, tldr } from '../helpers/shared-corpus.js';
import { execsOf, fieldsOf, instrumented, TRACE_PROGRAM, traceOf, unexplained, type Dialect } from './dialect-trace.js';

const HERE = import.meta.dirname;
const FULL = process.env.SHELLGATE_ORACLE_FULL === '1';
/** Share of the project corpus run by `npm test`; the full run takes all of it. */
const PROJECT_RATE = FULL ? 1 : 0.2;
/** Share of the shared corpora (about 47,000 commands). */
const SHARED_RATE = Number(process.env.SHELLGATE_DIALECT_SHARED_RATE ?? (FULL ? 0.05 : 0.003));

/** Findings that say the reading is not the shell's, or not whole: such a command is not a test of the reading. */
const UNCLEAN = new Set([
  'dialect-difference',
  'parse-error',
  'parse-doubt',
  'unsupported-syntax',
  'parser-disagreement',
  'depth-limit',
  'input-limit',
  'expansion-limit',
  'internal-error',
]);
/**
 * A disagreement not listed is run again this many more times, and only what every run shows counts: the
 * lines of concurrent processes can interleave in dash's trace (dialect-trace.ts), and a command
 * that ran nothing unexplained once was read right.
 */
const RERUNS = 2;

interface Known {
  shell: Dialect;
  command: string;
  problem: string;
  reason: string;
}

const known = JSON.parse(readFileSync(join(HERE, 'dialect-known.json'), 'utf8')) as Known[];

const SHELLS: { dialect: Dialect; binary: string; sandbox: { shell?: 'zsh'; sh?: 'dash' } }[] = [
  { dialect: 'zsh', binary: 'zsh', sandbox: { shell: 'zsh' } },
  { dialect: 'sh', binary: 'dash', sandbox: { sh: 'dash' } },
];

/** The shared corpora's commands, `null` when ../shared is missing. */
function sharedCommands(): string[] | null {
  if (!existsSync(SHARED)) return null;
  const commandsOf = (name: string) =>
    jsonl<{ command?: unknown }>(name)
      .map((r) => r.command)
      .filter((c): c is string => typeof c === 'string');
  return [
    ...commandsOf('bypass-cases.jsonl'),
    ...commandsOf('peer-cases.jsonl'),
    ...commandsOf('guard-cases.jsonl'),
    ...commandsOf('atomic-red-team.jsonl'),
    ...nl2bash(),
    ...tldr().map((t) => t.command),
  ];
}

const shared = sharedCommands();
if (shared === null) console.warn(`\n*** shared corpus missing (${SHARED}): the dialect differential runs the project corpus only. ***\n`);

function inputs(dialect: Dialect): string[] {
  const salt = `dialect-trace-${dialect}`;
  const out = new Set<string>();
  for (const c of projectCommands()) if (drawn(c, PROJECT_RATE, salt)) out.add(c);
  for (const c of shared ?? []) if (drawn(c, SHARED_RATE, salt)) out.add(c);
  for (const k of known) if (k.shell === dialect) out.add(k.command);
  return [...out].filter((c) => c.trim() !== '' && !c.includes('\0'));
}

const hasShell = (name: string) => existsSync(`/usr/bin/${name}`) || existsSync(`/bin/${name}`);
const analyzer = await createAnalyzer();

describe('reading zsh and dash traces', () => {
  it('zsh: words as zsh quotes them (control characters and high bytes too), a test, an array', () => {
    expect(fieldsOf('zsh', "echo 'a b' 'c'\\''d' $'\\C-M' $'\\M-C\\M-)'")).toEqual(['echo', 'a b', "c'd", '\r', 'é']);
    expect(fieldsOf('zsh', "echo $'\\\\C-M'")).toEqual(['echo', '\\C-M']);
    expect(fieldsOf('zsh', "[[ -n '' ]]")).toEqual(['[[', '-n', '', ']]']);
    expect(fieldsOf('zsh', "typeset -a q=( 1 'a b' ) ")).toEqual(['typeset', '-a', 'q=(1 a b)']);
  });

  it('dash: bare words split at spaces', () => {
    expect(fieldsOf('sh', 'echo a b c')).toEqual(['echo', 'a', 'b', 'c']);
  });
});

for (const { dialect, binary, sandbox: sandboxOptions } of SHELLS) {
  const probe = hasShell(binary) ? await probeSandbox({ shell: sandboxOptions.shell }) : ({ ok: false, reason: `no ${binary} on this machine` } as const);

  describe(`differential: the analyser's ${dialect} reading explains what real ${binary} ran`, () => {
    if (!probe.ok) {
      unavailable(`DIALECT DIFFERENTIAL (${binary}) UNAVAILABLE: ${probe.reason}.`, `has ${binary} and a working sandbox`);
      return;
    }

    const context: AnalysisContext = { cwd: '/work', workspaceRoots: ['/work'], home: '/root', env: {}, shell: dialect };
    const counts = { inputs: 0, unclean: 0, run: 0, traced: 0, untraced: 0, timedOut: 0, explained: 0, excused: 0, disagreed: 0, listed: 0 };
    const disagreements: { command: string; problems: string[] }[] = [];
    let sandbox: Sandbox | null = null;
    let seconds = 0;

    const listedProblem = new Map(known.filter((k) => k.shell === dialect).map((k) => [k.command, k.problem]));

    beforeAll(async () => {
      const kept: { command: string; verdict: Verdict }[] = [];
      const all = inputs(dialect);
      counts.inputs = all.length;
      const programs = new Set<string>(JSON.parse(readFileSync(join(HERE, '..', 'oracle', 'common-programs.json'), 'utf8')) as string[]);
      for (const command of all) {
        const verdict = analyzer.analyze(command, context);
        if (verdict.findings.some((f) => UNCLEAN.has(f.rule))) {
          counts.unclean++;
          continue;
        }
        kept.push({ command, verdict });
        for (const w of verdict.commands) if (w.program) programs.add(w.program);
      }
      programs.add(TRACE_PROGRAM);
      programs.add('whoami');
      sandbox = Sandbox.create({ programs, timeoutSeconds: 2, workers: 2, ...sandboxOptions });
      const t0 = performance.now();
      const runs: RunResult[] = await sandbox.run(kept.map((k) => instrumented(dialect, k.command)));
      counts.run = kept.length;
      const explain = (i: number, r: RunResult) => unexplained(dialect, kept[i].verdict, kept[i].command, traceOf(dialect, r), execsOf(r));
      const found = runs.map((r, i) => {
        if (r.timedOut) counts.timedOut++;
        if (traceOf(dialect, r)) counts.traced++;
        else counts.untraced++;
        return explain(i, r);
      });
      for (let n = 0; n < RERUNS; n++) {
        // a listed disagreement is the reading's, not the trace's: it is not run again
        const again = found.map((_, i) => i).filter((i) => found[i].problems.length > 0 && listedProblem.get(kept[i].command) !== found[i].problems[0]);
        if (again.length === 0) break;
        const reruns = await sandbox.run(again.map((i) => instrumented(dialect, kept[i].command)));
        again.forEach((i, k) => {
          const seen = new Set(explain(i, reruns[k]).problems);
          found[i] = { ...found[i], problems: found[i].problems.filter((p) => seen.has(p)) };
        });
      }
      seconds = (performance.now() - t0) / 1000;
      found.forEach((f, i) => {
        if (f.problems.length > 0) disagreements.push({ command: kept[i].command, problems: f.problems });
        else if (f.excused.length > 0) counts.excused++;
        else counts.explained++;
      });
      counts.disagreed = disagreements.length;
    });

    afterAll(() => sandbox?.dispose());

    it('sees what a reading leaves out: a command the analyser did not walk, a word it read otherwise', async () => {
      const [r] = await sandbox!.run([instrumented(dialect, 'echo "a b" c; whoami; ls -l')]);
      const reading = analyzer.analyze('echo "a b" d; ls -l', context);
      const e = unexplained(dialect, reading, 'echo "a b" d; ls -l', traceOf(dialect, r), execsOf(r));
      expect(e.problems).toEqual([
        `${dialect} ran "echo a b c", which the reading does not explain`.replace('a b', dialect === 'zsh' ? "'a b'" : 'a b'),
        `${dialect} ran "whoami", which the reading does not explain`,
        `${dialect} executed whoami, which the reading does not list`,
      ]);
    });

    it('dialect-known.json is well formed: one entry per shell and command, each with a problem and a reason', () => {
      const seen = new Set<string>();
      const bad: string[] = [];
      for (const k of known) {
        if ((k.shell !== 'zsh' && k.shell !== 'sh') || typeof k.command !== 'string' || !k.problem || !k.reason) bad.push(JSON.stringify(k));
        const key = JSON.stringify([k.shell, k.command]);
        if (seen.has(key)) bad.push(`duplicate: ${key}`);
        seen.add(key);
      }
      expect(bad).toEqual([]);
    });

    it(`every simple command ${binary} ran is explained by the analyser's reading`, () => {
      const listed = new Map(known.filter((k) => k.shell === dialect).map((k) => [k.command, k]));
      if (process.env.SHELLGATE_DIALECT_DUMP) {
        const path = process.env.SHELLGATE_DIALECT_DUMP.replace(/(\.json)?$/, `.${dialect}$1`);
        const dump = disagreements.map((d) => ({ shell: dialect, command: d.command, problem: d.problems[0], reason: listed.get(d.command)?.reason ?? '' }));
        writeFileSync(path, JSON.stringify(dump, null, 2) + '\n');
      }
      const unlisted: string[] = [];
      const changed: string[] = [];
      for (const d of disagreements) {
        const k = listed.get(d.command);
        if (!k) unlisted.push(`${JSON.stringify(d.command)}\n    ${d.problems.slice(0, 3).join('\n    ')}`);
        else if (k.problem !== d.problems[0]) changed.push(`${JSON.stringify(d.command)}\n    listed: ${k.problem}\n    now:    ${d.problems[0]}`);
        else counts.listed++;
      }
      const disagreeing = new Set(disagreements.map((d) => d.command));
      const stale = [...listed.values()]
        .filter((k) => !disagreeing.has(k.command))
        .map((k) => `${JSON.stringify(k.command)}: listed (${k.problem}) but explained now`);
      console.log(
        `\n${binary} dialect differential: ${counts.inputs} commands, ${counts.unclean} not read cleanly as ${dialect} (not run); ` +
          `${counts.run} run (${counts.traced} traced, ${counts.untraced} without a trace, ${counts.timedOut} timed out); ` +
          `${counts.explained} explained, ${counts.excused} not explained where the verdict says it runs code it could not read, ${counts.disagreed} disagreed (${counts.listed} listed in dialect-known.json) (${seconds.toFixed(1)} s)`,
      );
      expect(counts.traced, 'the trace works at all').toBeGreaterThan(counts.run / 2);
      expect(unlisted.slice(0, 25), `${unlisted.length} command(s) whose run the ${dialect} reading does not explain`).toEqual([]);
      expect(changed.slice(0, 25), `${changed.length} listed command(s) whose problem changed`).toEqual([]);
      expect(stale.slice(0, 25), `${stale.length} listed command(s) explained now`).toEqual([]);
    });
  });
}
