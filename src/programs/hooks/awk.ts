/** awk: the program text (`system()`, pipes, `print > file`, getline), program files, `-W` options. */
import { unknownCode } from './code-text.js';
import type { Arg } from '../../expand/arg.js';
import type { CommandClass } from '../spec-types.js';
import { effectiveClass, hasOption, type ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/** What an awk program may do beyond reading its input and printing to stdout. */
export interface AwkEffects {
  /** Runs a command: `system`, a pipe (`print | CMD`, `CMD | getline`), a coprocess (`|&`), gawk's `/inet` sockets. */
  exec: boolean;
  /** Loads or calls code by name: gawk's `@load`, `@include`, `extension()` and indirect calls (`f="system"; @f("id")`). */
  loads: boolean;
  /** `print > F`, `print >> F`: writes a file the program names. */
  writes: boolean;
  /** `getline < F`: reads a file the program names. */
  reads: boolean;
  /** `ARGV`/`ARGC`: the program changes which files awk reads (`ARGV[1]="~/.ssh/id_rsa"`), sandbox or not. */
  argv: boolean;
  /** `ENVIRON`: reads the environment (tokens, keys). */
  env: boolean;
  /** `PROCINFO`: gawk's process table, which also changes how I/O behaves. */
  unknown: boolean;
}

/**
 * A parenthesised group with no strings, regexes, braces or nested groups, and no `print` in it:
 * `($3 > 100)`, `(NR > 1 && $2 >= x)`, a for header `(i = NF; i > 1; i--)`. Inside parentheses
 * gawk's lexer reads `>` as a comparison; the POSIX grammar allows a redirection only after a
 * print, and onetrue awk takes `for (print > f; …)`, hence no `print`. Without quotes or slashes
 * the group cannot be the inside of a string or a regex either.
 */
const PLAIN_GROUP = /\([\w$. \t<>=!&|+\-*%;]*\)/g;

/**
 * What an awk program may do, from its raw text: an over-approximation, not a parse. Each token
 * is looked for anywhere — inside strings, regexes and comments too — because a hand reading of
 * where a string or a regex ends is what a program like `/;/ ? 1 : 0 | "sh"` fools.
 *
 * - `system`, gawk's `/inet/`, `/inet4/`, `/inet6/` sockets (reached only through `|&`, `<` or `>`,
 *   flagged anyway) and every `|` that is not exactly `||` (awk's lexers read `||` as logical
 *   or, always; `|` and `|&` are pipes to commands): exec. `@` (gawk's `@load`, `@include` and
 *   indirect calls such as `f="system"; @f("id")`) and `extension`: loads code.
 * - `>` writes, unless it is `>=` (always a comparison token), stands before the first `{` of the
 *   program (a pattern: print only exists inside an action), or is inside a plain group
 *   (`PLAIN_GROUP`). `>>` always writes.
 * - `getline` with a `<` anywhere: reads; `ARGV`/`ARGC`: the program adds files to read.
 * - `ENVIRON`: the environment; `PROCINFO`: not known.
 */
export function awkProgramEffects(program: string): AwkEffects {
  return {
    exec: /system|\/inet[46]?\//.test(program) || /(?<!\|)\|(?!\|)|\|\|\|/.test(program),
    loads: /@|extension/.test(program),
    writes: writesFile(program),
    reads: /getline/.test(program) && /</.test(program),
    argv: /ARG[VC]/.test(program),
    env: /ENVIRON/.test(program),
    unknown: /PROCINFO/.test(program),
  };
}

/** A `>` that may redirect print's output (see awkProgramEffects). */
function writesFile(program: string): boolean {
  const firstAction = program.indexOf('{');
  const grouped = new Set<number>();
  for (const m of program.matchAll(PLAIN_GROUP)) if (!m[0].includes('print')) for (let k = m.index; k < m.index + m[0].length; k++) grouped.add(k);
  for (let i = 0; i < program.length; i++) {
    if (program[i] !== '>') continue;
    if (program[i + 1] === '>' || program[i - 1] === '>') return true;
    if (program[i + 1] === '=') continue;
    if (firstAction < 0 || i < firstAction || grouped.has(i)) continue;
    return true;
  }
  return false;
}

/** -W words of mawk 1.3.4 and gawk 5.2 that only change how the program is read or printed. */
const AWK_W_HARMLESS =
  /^(version|dump|help|usage|interactive|posix_space|random=\d+|sprintf=\d+|posix|traditional|compat|lint(=\w+)?|lint-old|re-interval|characters-as-bytes|copyright|non-decimal-data|optimize|no-optimize|use-lc-numeric|bignum|csv|gen-pot|trace)$/;

/**
 * awk PROGRAM FILE…, or `-f PROGFILE`/`-E PROGFILE`/`-e TEXT` (gawk; then every operand is a
 * file). Program files are read and analysed like inline programs; `-i`/`-l` (gawk libraries and
 * extensions) keep their spec roles (exec).
 */
function awk(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  const operands = [...p.operands];
  const sources = p.options.filter((o) => ['-f', '--file', '-E', '--exec', '-e', '--source'].includes(o.name) && o.value);
  const programs: Arg[] = [];
  let unreadable: Arg | null = null;
  if (sources.length === 0) {
    const program = operands.shift();
    if (program) programs.push(program);
  }
  for (const o of sources) {
    if (o.name === '-e' || o.name === '--source') {
      programs.push(o.value!);
      continue;
    }
    const text = b.scriptText(o.value!);
    if (text === null) unreadable = o.value!;
    else programs.push({ ...o.value!, value: text, dynamic: false });
  }
  // gawk's -d/-o/-p write files (awkvars.out, awkprof.out by default): the option classes count.
  let cls: CommandClass = effectiveClass(p);
  // -W OPTION: mawk's and gawk's spelling of implementation options. `-W exec FILE` (mawk) reads
  // the program from FILE; an option not known here may do anything.
  let sandbox = hasOption(p, '--sandbox', '-S');
  for (const o of p.options) {
    if (o.name !== '-W' || !o.value) continue;
    const w = o.value.value;
    if (o.value.dynamic) cls = 'unknown';
    else if (/^e(x(e(c)?)?)?$/.test(w) && sources.length === 0 && programs.length > 0) {
      // The word taken as the program was the program file.
      const file = programs.shift()!;
      const text = b.scriptText(file);
      if (text === null) unreadable = file;
      else programs.push({ ...file, value: text, dynamic: false });
    } else if (w === 'sandbox') sandbox = true;
    else if (!AWK_W_HARMLESS.test(w)) b.unknownOption(`-W ${w}`, o.value, 'awk');
  }
  if (unreadable) cls = 'unknown';
  // gawk reads its -e and -f pieces as one program text, in order: `-e 'NR>1 {' -e 'print >"f" }'`.
  const fx = awkProgramEffects(programs.map((x) => x.value).join('\n'));
  const span = programs[0]?.span ?? b.cmd.span;
  const unknown = programs.find(unknownCode);
  // --sandbox turns off system(), pipes, redirections and @load; @include, ARGV and ENVIRON still work.
  if (unknown || fx.loads || (fx.exec && !sandbox)) {
    b.add('Exec', 'operand', unknown?.span ?? span, {
      program: 'sh',
      target: unknown?.value ?? programs.map((x) => x.value).join('\n'),
      dynamic: unknown !== undefined,
    });
    cls = 'unknown';
  } else if (fx.writes && !sandbox) {
    b.add('Write', 'operand', span, { target: 'a file named in the awk program', dynamic: true });
    if (cls !== 'unknown') cls = 'mutating';
  }
  if ((fx.reads && !sandbox) || fx.argv) b.add('Read', 'operand', span, { target: 'a file named in the awk program', dynamic: true });
  if (fx.env) b.add('Env', 'operand', span, { target: '*', program: 'awk' });
  if (fx.unknown) {
    b.add('Unknown', 'operand', span, { target: 'PROCINFO', dynamic: true });
    cls = 'unknown';
  }
  for (const f of operands) if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(f.value)) b.path('Read', f, 'operand');
  return { class: cls, skipOperands: true };
}

export const awkHooks: ProgramHooks = { module: 'awk.ts', operations: awk };
