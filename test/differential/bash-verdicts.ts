/**
 * Real bash's verdicts for the parser differential, in two batches through the oracle sandbox:
 * - settle(): for each disagreement between our parse and another parser's, run the command
 *   traced (bash-trace.ts) and judge which parse explains the run (judge.ts); where the run cannot
 *   tell, have bash print its reading (pretty-print.ts) and judge by that.
 * - check(): for commands only our parser reads, or where all agree (a sample), whether our parse
 *   explains what bash ran (judge.ts audit()); commands bash rejects are left out (bash runs
 *   nothing of them; scripts/bash-n-coverage.mjs lists them).
 */
import type { Script } from '../../src/syntax/ast.js';
import type { Sandbox } from '../oracle/sandbox.js';
import { instrumented, observe } from './bash-trace.js';
import { audit, judge } from './judge.js';
import type { Prediction } from './predict.js';
import { judgeByPrint, prettyPrinting, printed, type PrintJudgement } from './pretty-print.js';

export interface Disagreement<Other extends string = string> {
  other: Other;
  source: string;
  command: string;
  difference: string;
  ours: Script;
  theirs: Script;
}

export interface Settled<Other extends string = string> extends Disagreement<Other> {
  /** `same`: bash's printed reading matches both parses (a difference bash does not make). */
  winner: PrintJudgement['winner'];
  /** `run`: what bash ran decided; `print`: bash's printed reading did. */
  by: 'run' | 'print' | null;
  evidence: string[];
}

export interface Reparse {
  ours(text: string): Script | null;
  theirs(other: string, text: string): Script | null;
}

/** Every program name a parse may run, so that the sandbox stubs it. */
export function programsOf(p: Prediction): string[] {
  return p.entries.flatMap((e) => (e.tokens[0]?.kind === 'exact' ? [e.tokens[0].text.slice(e.tokens[0].text.lastIndexOf('/') + 1)] : []));
}

export async function settle<O extends string>(
  sandbox: Sandbox,
  found: Disagreement<O>[],
  predictions: { ours: Prediction; theirs: Prediction }[],
  reparse: Reparse,
): Promise<Settled<O>[]> {
  const runs = await sandbox.run(found.map((d) => instrumented(d.command)));
  const judged = found.map((d, i) => judge(predictions[i].ours, predictions[i].theirs, observe(runs[i]), d.command));
  const undecided = found.map((_, i) => i).filter((i) => judged[i].winner === null);
  const prints = await sandbox.run(undecided.map((i) => prettyPrinting(found[i].command)));
  const byPrint = new Map(
    undecided.map((i, k) => {
      const d = found[i];
      return [i, judgeByPrint(printed(prints[k]), d.ours, d.theirs, { ours: reparse.ours, theirs: (t) => reparse.theirs(d.other, t) })] as const;
    }),
  );
  return found.map((d, i) => {
    const run = judged[i];
    const print = byPrint.get(i);
    const winner = run.winner ?? print?.winner ?? null;
    return { ...d, winner, by: run.winner !== null ? 'run' : print?.winner ? 'print' : null, evidence: [...run.evidence, ...(print?.evidence ?? [])] };
  });
}

export interface Checked {
  source: string;
  command: string;
  problems: string[];
}

export async function check(sandbox: Sandbox, items: { source: string; command: string; prediction: Prediction }[]): Promise<Checked[]> {
  const runs = await sandbox.run(items.map((x) => instrumented(x.command)));
  const flagged = items
    .map((x, i) => ({ source: x.source, command: x.command, problems: audit(x.prediction, observe(runs[i]), x.command) }))
    .filter((x) => x.problems.length > 0);
  // what bash rejects runs nothing: not a problem of the parse's reading
  const prints = await sandbox.run(flagged.map((x) => prettyPrinting(x.command)));
  return flagged.filter((_, k) => printed(prints[k]) !== null);
}
