/**
 * What real zsh or dash ran for a command, traced in the oracle sandbox (test/oracle/sandbox.ts),
 * and whether the analyser's reading of the command in that dialect explains it: the dialect
 * counterpart of bash-trace.ts + judge.ts audit().
 *
 * The command runs unchanged after a few set-up lines. Both shells read a `-c` string one
 * complete command at a time (the set-up runs before the command is parsed and cannot change how
 * it parses), and both print their xtrace line for a simple command after expanding its words and
 * before applying its redirections, so `cmd 2>/dev/null` is still traced. Neither has bash's
 * BASH_XTRACEFD: the trace goes to whatever fd 2 is, so the set-up points fd 2 at a file, and the
 * command's own error output lands there too (after the traced line it belongs to; entries are
 * split at the PS4 marker, and a line is matched by its prefixes ending at a newline). On exit a
 * trap turns tracing off, waits for background jobs, and hands the file to a recorder stub through
 * the real bash (`sg-trace`, the only way out of the sandbox; bash reads the file whole, neither
 * dash nor a stubbed `cat` can). A command killed at the time limit, or one that `exec`s, leaves no
 * trace: only the stubs' exec records.
 *
 * Each traced line also carries the shell's working directory (`%/` in zsh's PS4, `$PWD` in dash's,
 * both expanded at each line): a walked command explains a line only where the analyser has it run
 * in that directory too, or does not know where it runs. Words alone miss a reading that got the
 * directory wrong (`cd /etc; pushd /work; cat passwd` under dash, which has no pushd).
 *
 * The two traces differ, and so does what can be compared:
 * - zsh quotes each word as bash does (`'a b'`, `$'\n'`): words are compared one by one. PS4 is
 *   prompt-expanded (PROMPT_PERCENT is on; PROMPT_SUBST is off and is not turned on, since it
 *   would change what `print -P` runs), so `%N` marks the function a line ran in: the sandbox's
 *   `command_not_found_handler` is told apart from the command's own commands. zsh traces a prefix
 *   assignment as an entry of its own (`z=1 ` then `print z`) and interleaves a substitution's
 *   lines inside the assignment it feeds (`a=` `print x` `a=x`).
 * - dash (0.5.12) prints the words bare, not quoted, separated by spaces: `echo "a b"` and
 *   `echo a b` trace alike, so the analyser's words are split at spaces too and compared as
 *   fields. dash has no BASHPID (and no `%N`): whether a line ran in a forked shell is not known,
 *   which the explanation check does not need (judge.ts uses it only to weigh two parses).
 */
import type { Verdict } from '../../src/index.js';
import type { WalkedCommand } from '../../src/walk/types.js';
import type { RunResult } from '../oracle/sandbox.js';
import { sq } from '../oracle/generate.js';
import { traceWords } from './bash-trace.js';

export type Dialect = 'zsh' | 'sh';

export const TRACE_PROGRAM = 'sg-trace';
const TRACE_FILE = '/tmp/.sg-xtrace';
/** A stub's argument is at most 128 KiB (MAX_ARG_STRLEN); keep the trace well under it. */
const MAX_TRACE = 100_000;
const START = '\x1e';
const SEP = '\x1d';
const END = '\x1f';

/** Reads the trace file whole and hands it to the recorder: bash, since dash's `read` cannot. */
const READER = `IFS= read -r -d '' t < ${TRACE_FILE}; exec /usr/bin/${TRACE_PROGRAM} "\${t:0:${MAX_TRACE}}"`;

/**
 * zsh: `emulate -R zsh` in the trap turns xtrace (and whatever options the command set, such as
 * NO_GLOB or ERR_EXIT) off before the recorder runs; it is traced itself, as the last entry.
 */
const ZSH_SETUP = [
  `exec 2>${TRACE_FILE}`,
  `PS4=$'${START}%N${SEP}%/${END} '`,
  `trap ${sq(`emulate -R zsh; wait; /bin/bash -c ${sq(READER)}`)} EXIT`,
  `setopt xtrace`,
].join('\n');

/** dash: `set +x` in the trap is traced, as the last entry. */
const DASH_SETUP = [`exec 2>${TRACE_FILE}`, `PS4='${START}${SEP}$PWD${END} '`, `trap ${sq(`set +x; wait; /bin/bash -c ${sq(READER)}`)} EXIT`, `set -x`].join(
  '\n',
);

/**
 * The text the sandbox runs for `command`: the zsh sandbox reads it with `zsh -c` itself; the dash
 * one (`sh: 'dash'`) reads it with bash, which replaces itself with dash.
 */
export function instrumented(dialect: Dialect, command: string): string {
  return dialect === 'zsh' ? `${ZSH_SETUP}\n${command}` : `exec /bin/sh -c ${sq(`${DASH_SETUP}\n${command}`)}`;
}

export interface DialectEntry {
  /** zsh: the function the line ran in (`%N`; the shell's name at the top level); dash: null. */
  fn: string | null;
  /** The shell's working directory when it ran the line (`%/` in zsh, `$PWD` in dash). */
  pwd: string;
  /** The traced text, with whatever the command wrote to stderr after it. */
  text: string;
}

/** The trace entries of a run, the set-up's own last one removed; null when there is no trace. */
export function traceOf(dialect: Dialect, r: RunResult): DialectEntry[] | null {
  const rec = r.records.find((x) => x.kind === 'exec' && x.program === TRACE_PROGRAM);
  if (!rec) return null;
  const text = rec.args[0] ?? '';
  const entries: DialectEntry[] = [];
  // zsh may start a line in the middle of another (a substitution inside an assignment): split at every marker
  const marker = /\x1e([^\x1d\x1f\n]*)\x1d([^\x1f\n]*)\x1f /g;
  const found = [...text.matchAll(marker)];
  found.forEach((m, i) => {
    const body = text.slice(m.index + m[0].length, i + 1 < found.length ? found[i + 1].index : text.length).replace(/\n$/, '');
    entries.push({ fn: dialect === 'zsh' ? m[1] : null, pwd: m[2], text: body });
  });
  const last = dialect === 'zsh' ? 'emulate -R zsh' : 'set +x';
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].text === last || entries[i].text.startsWith(last + '\n')) {
      entries.splice(i, 1);
      break;
    }
  }
  return entries;
}

/** The programs the stubs ran (the recorder left out). */
export function execsOf(r: RunResult): string[] {
  return r.records.filter((x) => x.kind === 'exec' && x.program !== TRACE_PROGRAM).map((x) => x.program);
}

/** A walked command's tokens, and the directory the analyser has it run in (null: not known). */
interface Pattern {
  tokens: Token[];
  cwd: string | null;
}

type Token = { kind: 'exact'; text: string } | { kind: 'program'; names: string[] } | { kind: 'prefix'; text: string } | { kind: 'any' };

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\+?=/;
const PROCESS_SUBSTITUTION = /^[<>=]\(/;
const basename = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/**
 * The token lists a walked command may be traced as: its program and arguments, with and without
 * its prefix assignments in front (zsh traces those as an entry of their own), and the assignments
 * alone. A word the analyser does not know statically (a variable, a substitution) or a glob
 * (what it matches depends on the disk) stands for any number of fields; for dash, a known word
 * is split at spaces as dash's trace shows it.
 */
function patterns(w: WalkedCommand, dialect: Dialect): Pattern[] {
  const split = (text: string): Token[] => (dialect === 'sh' ? text.split(' ').map((t) => ({ kind: 'exact', text: t })) : [{ kind: 'exact', text }]);
  const assigns: Token[] = w.assignments.flatMap((a): Token[] =>
    a.value === null ? [{ kind: 'prefix', text: `${a.name}=` }, { kind: 'any' }] : split(`${a.name}=${a.value}`),
  );
  // a process substitution is a path the shell picks (`/proc/self/fd/11` in zsh, a temp file for `=(…)`)
  const args = w.args.flatMap((a): Token[] => (a.dynamic || a.glob || PROCESS_SUBSTITUTION.test(a.raw ?? a.value) ? [{ kind: 'any' }] : split(a.value)));
  if (w.programRaw === '') return assigns.length > 0 ? [{ tokens: assigns, cwd: null }] : [];
  const names = w.program && !PROCESS_SUBSTITUTION.test(w.programRaw) ? [w.program, w.programRaw] : null;
  const program: Token = names ? { kind: 'program', names } : { kind: 'any' };
  const out = [[program, ...args]];
  if (assigns.length > 0) out.push([...assigns, program, ...args], assigns);
  return out.map((tokens) => ({ tokens, cwd: w.cwd }));
}

/** Do the tokens match the fields, each `any` standing for zero or more of them? */
function matches(tokens: Token[], fields: string[]): boolean {
  const memo = new Map<number, boolean>();
  const go = (t: number, f: number): boolean => {
    if (t === tokens.length) return f === fields.length;
    const key = t * (fields.length + 1) + f;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const tok = tokens[t];
    let ok = false;
    if (tok.kind === 'any') {
      for (let k = f; k <= fields.length && !ok; k++) ok = go(t + 1, k);
    } else if (f < fields.length) {
      const field = fields[f];
      if (tok.kind === 'exact') ok = field === tok.text && go(t + 1, f + 1);
      else if (tok.kind === 'program') ok = (tok.names.includes(field) || tok.names.includes(basename(field))) && go(t + 1, f + 1);
      else ok = field.startsWith(tok.text) && go(t + 1, f + 1);
    }
    memo.set(key, ok);
    return ok;
  };
  return go(0, 0);
}

/** zsh traces an array assignment's elements one by one (`q=( 1 2 )`): back into one word, as the analyser keeps it. */
function joinArrays(fields: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    const close = f.endsWith('=(') ? fields.indexOf(')', i + 1) : -1;
    if (close < 0) {
      out.push(f);
      continue;
    }
    out.push(`${f}${fields.slice(i + 1, close).join(' ')})`);
    i = close;
  }
  return out;
}

/**
 * zsh's `$'…'` quoting writes a control character as `\C-M` and a byte with the high bit as
 * `\M-…` (a form bash does not use): rewritten to `\xHH` inside `$'…'` only, so that traceWords
 * (bash-trace.ts) reads the words; single-quoted text is left as it is.
 */
function zshQuoting(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return out + line.slice(i);
      out += line.slice(i, end + 1);
      i = end + 1;
    } else if (line[i] === '$' && line[i + 1] === "'") {
      out += "$'";
      i += 2;
      while (i < line.length && line[i] !== "'") {
        // `\C-M`, `\M-a`, `\M-\C-M`
        const m = /^\\(?:M-(?:\\C-(.)|(.))|C-(.))/s.exec(line.slice(i));
        if (m) {
          const ctrl = m[1] ?? m[3];
          let code = ctrl !== undefined ? (ctrl === '?' ? 0x7f : ctrl.charCodeAt(0) & 0x1f) : m[2].charCodeAt(0);
          if (m[3] === undefined) code |= 0x80;
          out += `\\x${code.toString(16).padStart(2, '0')}`;
          i += m[0].length;
        } else if (line[i] === '\\') {
          out += line.slice(i, i + 2);
          i += 2;
        } else out += line[i++];
      }
      if (i < line.length) out += line[i++];
    } else if (line[i] === '\\') {
      out += line.slice(i, i + 2);
      i += 2;
    } else out += line[i++];
  }
  return out;
}

/** The fields of one traced line (or lines: a word may hold a newline), null when they cannot be read. */
export function fieldsOf(dialect: Dialect, text: string): string[] | null {
  // dash: a trailing space is a word's (`-d ' '`, an empty last word); zsh ends an assignment's line with one
  if (dialect === 'sh') return text.split(' ');
  const line = text.replace(/ $/, '');
  // a `[[ … ]]` test: zsh prints the operands quoted, which bash-trace's word reader leaves aside
  if (line.startsWith('[[ ')) {
    const rest = traceWords(zshQuoting(line.slice(3)));
    return rest ? ['[[', ...rest] : null;
  }
  const words = traceWords(zshQuoting(line));
  if (words) return joinArrays(words);
  // a bare array assignment (`q=( 1 2 )`): traceWords leaves it; it only assigns
  return /^[A-Za-z_][A-Za-z0-9_]*\+?=\(/.test(line) ? [line] : null;
}

/** Operators of a `[[ … ]]` primary. */
const TEST_OP = /^(?:!|-[a-zA-Z]{1,2}|==?|!=|=~|<|>)$/;

/**
 * Both shells trace a `[[ … ]]` one primary at a time (`[[ -n x && -f y ]]` gives two lines) with
 * its operands expanded: explained by a walked `[[` whose known words hold the primary's operators
 * in the same order (judge.ts compares them the same way).
 */
function explainsTest(v: Verdict, fields: string[], pwd: string): boolean {
  if (fields[0] !== '[[') return false;
  const ops = fields.slice(1).filter((f) => TEST_OP.test(f));
  return v.commands.some((w) => {
    if (w.program !== '[[' || (w.cwd !== null && w.cwd !== pwd)) return false;
    let j = 0;
    for (const a of w.args) if (!a.dynamic && j < ops.length && a.value === ops[j]) j++;
    return j === ops.length;
  });
}

/**
 * Lines zsh traces that are not simple commands: an arithmetic command, a `case` word with the
 * pattern it is tested against, and the three expressions of a `for ((…))` header (given as text).
 */
function notSimple(text: string, arithmetic: Set<string>): boolean {
  return /^\(\( .* \)\)$/s.test(text) || /^case .* \(.*\)$/s.test(text) || arithmetic.has(text.trim());
}

/** The expressions of every `for ((…; …; …))` header in the command's text. */
function forHeaders(command: string): Set<string> {
  const out = new Set<string>();
  for (const m of command.matchAll(/for\s*\(\((.*?)\)\)/gs)) for (const part of m[1].split(';')) if (part.trim()) out.add(part.trim());
  return out;
}

/**
 * Findings that say the command runs code the analyser could not read (text from stdin, a
 * substitution's output, a computed name): what the shell runs of it cannot contradict the
 * reading, and is counted apart as excused.
 */
const RUNS_UNKNOWN = new Set([
  'dynamic-command',
  'dynamic-script',
  'stdin-exec',
  'arithmetic-injection',
  'prompt-expansion',
  'zsh-expansion',
  'trap-state',
  'env-hijack',
]);

export interface Explanation {
  /** What ran that the reading does not explain. */
  problems: string[];
  /** The same, where the verdict says the command runs code it could not read. */
  excused: string[];
}

/**
 * The entries of a trace and the exec records the analyser's reading does not explain. An entry is
 * explained by a walked command whose program and known words it matches, or, when it only
 * assigns (a loop variable, a `read` target, a substitution's result), by the names being named in
 * the command's text: an assignment runs nothing of its own (its substitutions are traced apart).
 *
 * An entry is matched by its shortest prefix ending at a newline that a walked command explains:
 * a word may hold a newline, and what the command wrote to stderr follows its line. dash writes
 * the PS4 and each word of a line with a write of its own, so the lines of concurrent processes (a
 * pipeline's stages) can come out as an empty entry followed by one holding both lines: after k
 * empty entries the next one is read as k + 1 lines in turn.
 */
export function unexplained(dialect: Dialect, v: Verdict, command: string, trace: DialectEntry[] | null, execs: string[]): Explanation {
  const all = v.commands.flatMap((w) => patterns(w, dialect));
  const arithmetic = forHeaders(command);
  const problems: string[] = [];
  const explains = (fields: string[], pwd: string) =>
    all.some((p) => (p.cwd === null || p.cwd === pwd) && matches(p.tokens, fields)) || explainsTest(v, fields, pwd) || assignsOnly(dialect, fields, command);
  /** Where the reading has the words run, when it has them run elsewhere. */
  const elsewhere = (fields: string[]) => [...new Set(all.filter((p) => p.cwd !== null && matches(p.tokens, fields)).map((p) => p.cwd))];
  let pending = 0;
  for (const e of trace ?? []) {
    if (e.fn === 'command_not_found_handler') continue;
    if (e.text === '') {
      pending++;
      continue;
    }
    const lines = e.text.split('\n');
    let at = 0;
    for (let n = 0; n <= pending && at < lines.length; n++) {
      let next = -1;
      for (let k = at + 1; k <= lines.length && next < 0; k++) {
        const text = lines.slice(at, k).join('\n');
        if (notSimple(text, arithmetic)) next = k;
        else {
          const fields = fieldsOf(dialect, text);
          if (fields && explains(fields, e.pwd)) next = k;
        }
      }
      if (next < 0) {
        const fields = fieldsOf(dialect, lines[at]);
        const dirs = fields ? elsewhere(fields) : [];
        const where = dirs.length > 0 ? ` in ${e.pwd}, where the reading has it run in ${dirs.join(' or ')}` : '';
        problems.push(
          `${dialect} ran ${JSON.stringify(lines[at])}${e.fn && e.fn !== 'zsh' ? ` in function ${e.fn}` : ''}${where || ', which the reading does not explain'}`,
        );
        break;
      }
      at = next;
    }
    pending = 0;
  }
  const programs = new Set(v.commands.flatMap((w) => (w.program ? [w.program, basename(w.programRaw)] : [])));
  const dynamic = v.commands.some((w) => w.program === null && w.programRaw !== '');
  for (const p of new Set(execs)) if (!programs.has(p) && !dynamic) problems.push(`${dialect} executed ${p}, which the reading does not list`);
  const excuse = v.findings.some((f) => RUNS_UNKNOWN.has(f.rule));
  return excuse ? { problems: [], excused: problems } : { problems, excused: [] };
}

/**
 * An entry that only assigns names the command's text names. zsh quotes its words, so every field
 * must be an assignment; dash does not, so a value with a space in it runs on into more fields and
 * only the first can be checked (a program hidden there would still show as an exec record).
 */
function assignsOnly(dialect: Dialect, fields: string[], command: string): boolean {
  const named = (f: string) => {
    const m = ASSIGNMENT.exec(f);
    return !!m && new RegExp(`\\b${m[1]}\\b`).test(command);
  };
  return fields.length > 0 && (dialect === 'sh' ? named(fields[0]) : fields.every(named));
}
