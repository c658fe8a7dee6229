/**
 * Which of two parses bash agrees with, from what bash did (bash-trace.ts) and what each parse
 * predicts (predict.ts).
 *
 * Every simple command bash traced is a piece of evidence: each parse explains it by its best
 * matching prediction (same words, patterns standing in for what is not static; then the same
 * shell, main or forked). The parse whose prediction matches more of the words exactly explains
 * it better: the other one saw different words there, or saw them only through a pattern. A
 * `[[ … ]]` test is compared by its operators, an array assignment by its elements (xtrace shows
 * both in forms of their own). A file bash's redirects left behind is evidence for the parse that
 * predicts it. When the trace is
 * missing (a command killed at the time limit), the stubs' exec records stand in for it.
 *
 * A command one parse says bash certainly runs (predict.ts), which bash did not run and the other
 * parse does not predict, is evidence for the other parse, when the trace is whole: the command
 * ran to its end and did not touch xtrace or the traps.
 *
 * A parse wins when some evidence favours it and none favours the other; otherwise bash's run
 * does not tell them apart (the difference is in an operator or a redirect bash's run does not
 * show, or in a branch that did not run) and the caller falls back on bash's own printing of
 * the command (pretty-print.ts).
 */
import type { Observation, TraceEntry } from './bash-trace.js';
import type { Expected, Prediction, Token } from './predict.js';

export type Side = 'ours' | 'other';

export interface Judgement {
  winner: Side | null;
  /** One line per piece of evidence, the side it favours first. */
  evidence: string[];
}

/**
 * Best score of a token list against fields: 2 per field matched exactly (an exact token, or a
 * glob token's unmatched text), 1 per prefix and a little more for a longer one (it says more);
 * -1 when no match.
 */
function matchScore(tokens: Token[], fields: string[]): number {
  const memo = new Map<number, number>();
  const go = (t: number, f: number): number => {
    if (t === tokens.length) return f === fields.length ? 0 : -1;
    const key = t * (fields.length + 1) + f;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const tok = tokens[t];
    let best = -1;
    if (tok.kind === 'exact') {
      if (f < fields.length && fields[f] === tok.text) {
        const r = go(t + 1, f + 1);
        if (r >= 0) best = r + 2;
      }
    } else if (tok.kind === 'prefix') {
      if (f < fields.length && fields[f].startsWith(tok.text)) {
        for (let k = f + 1; k <= fields.length; k++) {
          const r = go(t + 1, k);
          if (r >= 0) best = Math.max(best, r + 1 + Math.min(tok.text.length, 999) / 1000);
        }
      }
    } else if (tok.kind === 'glob') {
      if (f < fields.length && fields[f] === tok.text) {
        const r = go(t + 1, f + 1);
        if (r >= 0) best = r + 2;
      }
      for (let k = f + 1; k <= fields.length; k++) best = Math.max(best, go(t + 1, k));
    } else {
      for (let k = f; k <= fields.length; k++) best = Math.max(best, go(t + 1, k));
    }
    memo.set(key, best);
    return best;
  };
  return go(0, 0);
}

/** Operators of a `[[ … ]]` primary as xtrace prints them. */
const TEST_OP = /^(?:!|-[a-zA-Z]{1,2}|==?|!=|=~|<|>)$/;

/** Is `xs` a subsequence of `ys`? */
function subsequence(xs: string[], ys: string[]): boolean {
  let j = 0;
  for (const y of ys) if (j < xs.length && xs[j] === y) j++;
  return j === xs.length;
}

/**
 * How well a `[[ … ]]` prediction explains a traced primary: bash prints the primary's operators
 * (`!`, `-z`, `==`, `=~`…) with its operands expanded and unquoted, so only the operators can be
 * compared: they must appear, in order, among the prediction's literal words.
 */
function explainCond(entries: Expected[], traced: string[], forked: boolean): number {
  const ops = traced.filter((t) => TEST_OP.test(t));
  let best = -1;
  for (const e of entries) {
    if (e.kind !== 'cond') continue;
    const literal = e.tokens.flatMap((t) => (t.kind === 'exact' ? [t.text] : []));
    if (!subsequence(ops, literal)) continue;
    best = Math.max(best, ops.length * 4 + (e.forked === forked ? 1 : 0));
  }
  return best;
}

/**
 * How well a prediction explains a traced array assignment: a plain `name=(…)` is traced as
 * written (compared as text), a declaration builtin's with its elements expanded (as words).
 */
function explainArray(entries: Expected[], t: TraceEntry): number {
  let best = -1;
  for (const e of entries) {
    if (e.kind !== 'array') continue;
    const s = e.raw !== undefined ? (e.raw === t.text ? 2 * t.array!.length : -1) : matchScore(e.tokens, t.array!);
    if (s > 0) best = Math.max(best, s * 2 + (e.forked === t.forked ? 1 : 0));
  }
  return best;
}

/** A prediction with something to check: a word not just a pattern. */
const informative = (e: Expected) => e.tokens.some((t) => t.kind !== 'any');

/**
 * How well a prediction explains a traced command: words first, then the shell it ran in. A
 * prediction of nothing but patterns (`$cmd`) matches any command; it explains one only when
 * `patternsExplain` (a parse with nothing to compare to may run whatever `$cmd` holds).
 */
function explain(entries: Expected[], fields: string[], forked: boolean | null, programOnly: boolean, patternsExplain = false): number {
  let best = -1;
  for (const e of entries) {
    if (e.kind !== 'command') continue;
    let tokens = e.tokens;
    if (programOnly) {
      // an exec record names the program by its basename
      const first = tokens[0];
      if (first?.kind !== 'exact') continue;
      tokens = [{ kind: 'exact', text: first.text.slice(first.text.lastIndexOf('/') + 1) }, ...tokens.slice(1)];
    }
    const s = matchScore(tokens, fields);
    if (s < 0 || (s === 0 && !patternsExplain)) continue;
    const sameShell = forked !== null && e.forked === forked ? 1 : 0;
    best = Math.max(best, s * 2 + sameShell);
  }
  return best;
}

/** Commands that may turn xtrace off, move it, or replace the EXIT trap: their trace may be partial. */
const TOUCHES_TRACE = /xtrace|BASH_XTRACEFD|PS4|\btrap\b|\bset\s+[-+]\w*x|\bexec\b/;

const key = (tokens: Token[]) => JSON.stringify(tokens);

export function judge(ours: Prediction, other: Prediction, seen: Observation, command: string): Judgement {
  const forOurs: string[] = [];
  const forOther: string[] = [];
  const weigh = (what: string, a: number, b: number) => {
    if (a === b) return;
    (a > b ? forOurs : forOther).push(`${a > b ? 'ours' : 'other'}: ${what} (explained ${+a.toFixed(3)} vs ${+b.toFixed(3)})`);
  };
  if (seen.trace) {
    for (const t of seen.trace) {
      if (t.cond)
        weigh(
          `bash tested [[ ${t.cond.join(' ')} ]]${t.forked ? ' in a forked shell' : ''}`,
          explainCond(ours.entries, t.cond, t.forked),
          explainCond(other.entries, t.cond, t.forked),
        );
      if (t.array) weigh(`bash assigned the array ${t.text}`, explainArray(ours.entries, t), explainArray(other.entries, t));
      if (!t.words) continue;
      weigh(
        `bash ran ${JSON.stringify(t.words)}${t.forked ? ' in a forked shell' : ''}`,
        explain(ours.entries, t.words, t.forked, false),
        explain(other.entries, t.words, t.forked, false),
      );
    }
  } else {
    for (const r of seen.execs) {
      const fields = [r.program, ...r.args];
      weigh(`bash executed ${JSON.stringify(fields)}`, explain(ours.entries, fields, null, true), explain(other.entries, fields, null, true));
    }
  }
  if (seen.trace && !seen.timedOut && !TOUCHES_TRACE.test(command)) {
    const traced = seen.trace.flatMap((t) => (t.words ? [t.words] : []));
    const notRun = (mine: Prediction, theirs: Prediction) => {
      const theirKeys = new Set(theirs.entries.map((e) => key(e.tokens)));
      return mine.entries.filter(
        (e) => e.certain && informative(e) && !theirKeys.has(key(e.tokens)) && !traced.some((words) => matchScore(e.tokens, words) >= 0),
      );
    };
    for (const e of notRun(ours, other)) forOther.push(`other: bash never ran ${key(e.tokens)}, which ours says it certainly runs`);
    for (const e of notRun(other, ours)) forOurs.push(`ours: bash never ran ${key(e.tokens)}, which the other parser says it certainly runs`);
  }
  for (const f of seen.files) weigh(`bash left the file ${f}`, ours.files.has(f) ? 1 : -1, other.files.has(f) ? 1 : -1);
  const winner = forOurs.length > 0 && forOther.length === 0 ? 'ours' : forOther.length > 0 && forOurs.length === 0 ? 'other' : null;
  return { winner, evidence: [...forOurs, ...forOther] };
}

/** bash's own commands in a trace: the sandbox's command_not_found_handle (sandbox.ts). */
function sandboxNoise(words: string[]): boolean {
  return (words[0] === 'printf' && (words[1] === '%s\\0' || words[1] === 'bash: %s: command not found\\n')) || (words[0] === 'return' && words[1] === '127');
}

/** Builtins that run text as commands, or run commands later: their commands are not in the parse. */
const RUNS_TEXT = /\b(?:eval|source|trap|complete|bind|fc|PROMPT_COMMAND)\b|(?:^|[;&|(\s])\.\s/;

/**
 * What bash did that one parse cannot explain, with nothing to compare it to (the other parsers
 * failed, or all agree): a simple command or `[[` test bash ran that the parse does not predict,
 * and a command the parse says certainly runs that bash never ran. Empty when the parse
 * explains the run.
 */
export function audit(ours: Prediction, seen: Observation, command: string): string[] {
  const problems: string[] = [];
  if (!seen.trace) return problems;
  const assigned = new Set<string>();
  for (const e of ours.entries) {
    for (const t of e.tokens) {
      const m = t.kind === 'any' ? null : /^[A-Za-z_][A-Za-z0-9_]*\+?=/.exec(t.text);
      if (m) assigned.add(m[0].replace('+=', '='));
    }
  }
  if (!RUNS_TEXT.test(command)) {
    for (const t of seen.trace) {
      if (t.cond) {
        if (explainCond(ours.entries, t.cond, t.forked) < 0) problems.push(`bash tested [[ ${t.cond.join(' ')} ]], which the parse does not predict`);
        continue;
      }
      if (t.array) {
        if (explainArray(ours.entries, t) < 0) problems.push(`bash assigned the array ${t.text}, which the parse does not predict`);
        continue;
      }
      if (!t.words || sandboxNoise(t.words)) continue;
      // `export X=1` is traced twice: as the command, then as the assignment it makes
      const assignment = /^[A-Za-z_][A-Za-z0-9_]*\+?=/.exec(t.words[0] ?? '')?.[0].replace('+=', '=');
      if (t.words.length === 1 && assignment && assigned.has(assignment)) continue;
      if (explain(ours.entries, t.words, t.forked, false, true) < 0) problems.push(`bash ran ${JSON.stringify(t.words)}, which the parse does not predict`);
    }
  }
  if (!seen.timedOut && !TOUCHES_TRACE.test(command)) {
    const traced = seen.trace.flatMap((t) => (t.words ? [t.words] : []));
    for (const e of ours.entries) {
      if (e.certain && informative(e) && !traced.some((words) => matchScore(e.tokens, words) >= 0))
        problems.push(`bash never ran ${key(e.tokens)}, which the parse says it certainly runs`);
    }
  }
  return problems;
}
