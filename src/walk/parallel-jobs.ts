/**
 * GNU parallel builds each job as a shell command line: the command words, with replacement
 * strings (`{}`, `{1}`, `{.}`…) filled by the inputs from `:::` lists — quoted — or appended when
 * there is none. Inputs read from stdin or `::::` files are unknown: they stand in as `"$…"`, an
 * unknown variable, so the job is still analysed with that one part dynamic.
 */
import type { Arg } from './types.js';

/** At most this many jobs are built from `:::` lists (cartesian product). */
export const MAX_PARALLEL_JOBS = 16;

const UNKNOWN_INPUT = '"$__shellgate_parallel_input"';
const REPLACEMENT = /\{(\d+)?([./#%]|\/\/|\/\.|\.\.)?\}/g;

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The job command lines for `parallel ARGS` (ARGS after parallel's own options). */
export function parallelJobs(args: Arg[], stdin: string | null = null): Arg[] {
  const sepAt = args.findIndex((a) => /^:{3,4}\+?$/.test(a.value));
  const commandWords = sepAt >= 0 ? args.slice(0, sepAt) : args;
  const lists: { file: boolean; values: Arg[] }[] = [];
  if (sepAt >= 0) {
    for (const a of args.slice(sepAt)) {
      if (/^:{3,4}\+?$/.test(a.value)) lists.push({ file: a.value.startsWith('::::'), values: [] });
      else lists[lists.length - 1].values.push(a);
    }
  }
  const known = lists.length > 0 && lists.every((l) => !l.file && l.values.every((v) => !v.dynamic));
  // Without `:::` lists the inputs are stdin's lines, known when stdin is static.
  const allLines = lists.length === 0 && stdin !== null ? stdin.split('\n').filter((l) => l !== '') : null;
  const stdinLines = allLines?.slice(0, MAX_PARALLEL_JOBS) ?? null;
  let combos: (string[] | null)[] = [null];
  if (known) combos = product(lists.map((l) => l.values.map((v) => v.value)));
  else if (stdinLines && stdinLines.length > 0) combos = stdinLines.map((l) => [l]);
  // Inputs past the jobs followed are not cut silently: one more job stands for them, with its
  // input unknown (so it asks as a dynamic script).
  const total = known ? lists.reduce((n, l) => n * l.values.length, 1) : (allLines?.length ?? 0);
  if (total > MAX_PARALLEL_JOBS) combos.push(null);
  const spanOf = (): Arg['span'] => {
    const all = args.length > 0 ? args : [];
    return all.length > 0 ? { start: all[0].span.start, end: all[all.length - 1].span.end } : { start: 0, end: 0 };
  };
  const dynamic = commandWords.some((w) => w.dynamic);
  const jobs: Arg[] = [];
  for (const combo of combos) {
    // `parallel ::: 'cmd1' 'cmd2'`: the inputs are the commands.
    if (commandWords.length === 0) {
      jobs.push({ value: combo === null ? UNKNOWN_INPUT : combo.join(' '), dynamic: combo === null, glob: false, span: spanOf() });
      continue;
    }
    // Whether the words are joined as a shell line or kept as words is read both ways (fail
    // closed): `parallel sh -c 'echo {}' ::: a` is analysed as both.
    for (const quoteWords of [false, true]) {
      const input = (i: number | null): string => {
        if (combo === null) return UNKNOWN_INPUT;
        const v = i === null ? combo.join(' ') : (combo[i] ?? '');
        if (quoteWords) return v;
        return i === null ? combo.map(shellQuote).join(' ') : shellQuote(v);
      };
      let replaced = false;
      const words = commandWords.map((w) => {
        const filled = w.value.replace(REPLACEMENT, (_m, n: string | undefined, mod: string | undefined) => {
          replaced = true;
          return mod ? UNKNOWN_INPUT : input(n ? Number(n) - 1 : null);
        });
        return quoteWords && !filled.includes(UNKNOWN_INPUT) ? shellQuote(filled) : filled;
      });
      if (!replaced) words.push(quoteWords && combo !== null ? shellQuote(input(null)) : input(null));
      const line = words.join(' ');
      if (!jobs.some((j) => j.value === line)) jobs.push({ value: line, dynamic, glob: false, span: spanOf() });
    }
  }
  return jobs;
}

function product(lists: string[][]): string[][] {
  let out: string[][] = [[]];
  for (const l of lists) {
    const next: string[][] = [];
    for (const prefix of out) for (const v of l) if (next.length < MAX_PARALLEL_JOBS) next.push([...prefix, v]);
    out = next;
  }
  return out;
}
