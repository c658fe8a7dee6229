/**
 * What real bash did with a command, observed in the oracle sandbox (test/oracle/sandbox.ts):
 * the programs it executed (the stubs' records) and, through xtrace, every simple command it ran
 * with its words after expansion, builtins and function calls included, and whether it ran in the
 * main shell or in a forked one (a pipeline stage, a `&` job, a subshell, a substitution).
 *
 * The command is run unchanged after a few set-up lines. bash -c reads and runs its string one
 * line at a time, so the set-up runs before the command is parsed and cannot change how it
 * parses. The set-up sends xtrace to a file of its own (BASH_XTRACEFD), marks each traced line
 * with PS4 (a separator, 1 when BASHPID is not the main shell's, a second separator), and on exit
 * hands that file, with the names of the files left in /work and /tmp, to a recorder stub
 * (`sg-trace`), the only way out of the sandbox. Before that it waits for the process
 * substitutions, unless a `&` job is running (which could run for ever). A command killed at the time limit leaves no
 * trace (the EXIT trap does not run), only the stubs' records.
 */
import type { ExecRecord, RunResult } from '../oracle/sandbox.js';

export const TRACE_PROGRAM = 'sg-trace';
const TRACE_FILE = '/tmp/.sg-xtrace';
/** A stub's argument is at most 128 KiB (MAX_ARG_STRLEN); keep the trace well under it. */
const MAX_TRACE = 100_000;

const SETUP = [
  `exec 98>${TRACE_FILE} 99<${TRACE_FILE}`,
  `BASH_XTRACEFD=98`,
  `PS4=$'\\x1e''$((BASHPID != $$))'$'\\x1f '`,
  `trap 'set +x; [[ -n $(jobs -p) ]] || wait; shopt -s nullglob dotglob; IFS= read -r -d "" -u 99 __sg_t; ${TRACE_PROGRAM} "\${__sg_t:0:${MAX_TRACE}}" /work/* /tmp/*' EXIT`,
  `set -x`,
].join('\n');

/** The text the sandbox runs for `command`. */
export function instrumented(command: string): string {
  return `${SETUP}\n${command}`;
}

export interface TraceEntry {
  /** Ran in a forked shell (BASHPID differs from the main shell's). */
  forked: boolean;
  /**
   * For a `[[ … ]]` line (one per primary test bash evaluated, with its operands expanded and
   * not quoted): the text between the brackets split at spaces; else null.
   */
  cond: string[] | null;
  /** For an array assignment line, `name=(…)` (`name+=(…)`): the name (with `+`) and the elements. */
  array: string[] | null;
  /** The words as bash traced them, quotes removed; null when the line is not a simple command's. */
  words: string[] | null;
  /** The traced text as printed. */
  text: string;
}

export interface Observation {
  /** xtrace entries, in the order bash wrote them; null when there is no trace (killed, or `exec`). */
  trace: TraceEntry[] | null;
  /** Programs the stubs recorded (the trace recorder itself left out). */
  execs: ExecRecord[];
  /** Files present in /work and /tmp when the command ended (absolute paths). */
  files: string[];
  timedOut: boolean;
}

export function observe(r: RunResult): Observation {
  const rec = r.records.find((x) => x.kind === 'exec' && x.program === TRACE_PROGRAM);
  return {
    trace: rec ? parseTrace(rec.args[0] ?? '') : null,
    execs: r.records.filter((x) => x.program !== TRACE_PROGRAM),
    files: rec ? rec.args.slice(1).filter((f) => f !== TRACE_FILE) : [],
    timedOut: r.timedOut,
  };
}

const HEADER = /(?:^|\n)\x1e+([01])\x1f /g;

export function parseTrace(text: string): TraceEntry[] {
  const entries: TraceEntry[] = [];
  const starts: { at: number; body: number; forked: boolean }[] = [];
  for (const m of text.matchAll(HEADER)) starts.push({ at: m.index, body: m.index + m[0].length, forked: m[1] === '1' });
  starts.forEach((s, i) => {
    const body = text.slice(s.body, i + 1 < starts.length ? starts[i + 1].at : text.length).replace(/\n$/, '');
    const cond = /^\[\[ (.*) \]\]$/s.exec(body);
    const array = /^([A-Za-z_][A-Za-z0-9_]*\+?)=\((.*)\)$/s.exec(body);
    const elements = array ? traceWords(array[2]) : null;
    entries.push({
      forked: s.forked,
      words: traceWords(body),
      cond: cond ? cond[1].split(' ') : null,
      array: array && elements ? [array[1], ...elements] : null,
      text: body,
    });
  });
  // the EXIT trap's own first command (a `&` job may still have traced after it; a process
  // substitution still running may even have written into the same line: what follows
  // `set +x` there is not the main shell's)
  for (let i = entries.length - 1; i >= 0; i--) {
    if (!entries[i].forked && (entries[i].text === 'set +x' || entries[i].text.startsWith('set +x\n'))) {
      entries.splice(i, 1);
      break;
    }
  }
  return entries;
}

/** Lines xtrace prints for compound commands: their words are not quoted as a simple command's. */
const NOT_SIMPLE = /^(?:\[\[ |\(\( |for |select |case )|^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=\(/;

/**
 * Words of a traced simple command. xtrace prints each word bare, in single quotes (`'\''` for
 * a quote) or as `$'…'`, separated by one space.
 */
export function traceWords(line: string): string[] | null {
  if (NOT_SIMPLE.test(line)) return null;
  const words: string[] = [];
  let i = 0;
  while (i < line.length) {
    let w = '';
    while (i < line.length && line[i] !== ' ') {
      const c = line[i];
      if (c === "'") {
        const end = line.indexOf("'", i + 1);
        if (end < 0) return null;
        w += line.slice(i + 1, end);
        i = end + 1;
      } else if (c === '$' && line[i + 1] === "'") {
        const r = ansiC(line, i + 2);
        if (r === null) return null;
        w += r.text;
        i = r.end;
      } else if (c === '\\' && i + 1 < line.length) {
        w += line[i + 1];
        i += 2;
      } else {
        w += c;
        i++;
      }
    }
    words.push(w);
    i++;
  }
  return words;
}

const ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/**
 * The body of `$'…'` from `start` (after the quote) as bash quotes for xtrace. Escapes stand for
 * bytes (the sandbox runs bash in the C locale, so a UTF-8 character comes out as `\343\200\200`):
 * the bytes are collected and decoded as UTF-8 at the end.
 */
function ansiC(line: string, start: number): { text: string; end: number } | null {
  const bytes: number[] = [];
  const text = (s: string) => bytes.push(...Buffer.from(s, 'utf8'));
  let i = start;
  while (i < line.length) {
    const c = line[i];
    if (c === "'") return { text: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    if (c !== '\\') {
      text(c);
      i++;
      continue;
    }
    const d = line[i + 1] ?? '';
    if (d in ESCAPES) {
      text(ESCAPES[d]);
      i += 2;
    } else if (/[0-7]/.test(d)) {
      const m = /^[0-7]{1,3}/.exec(line.slice(i + 1))![0];
      bytes.push(parseInt(m, 8) & 0xff);
      i += 1 + m.length;
    } else if (d === 'x') {
      const m = /^[0-9A-Fa-f]{1,2}/.exec(line.slice(i + 2))?.[0] ?? '';
      if (m) bytes.push(parseInt(m, 16));
      else text('\\x');
      i += 2 + m.length;
    } else {
      text('\\' + d);
      i += 2;
    }
  }
  return null;
}
