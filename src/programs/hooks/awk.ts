/** awk: the program text (`system()`, pipes, `print > file`, getline), program files, `-W` options. */
import { unknownCode } from './code-text.js';
import type { Arg } from '../../expand/arg.js';
import type { CommandClass } from '../spec-types.js';
import { effectiveClass, hasOption, type ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/** awk programs that run commands or write files: `system()`, pipes, `print > file`, getline from a command. */
export function awkProgramEffects(program: string): { exec: boolean; writes: boolean; reads: boolean } {
  const code = program.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const exec = /\bsystem\s*\(|\|\s*getline|\|&|(?:print|printf)\b[^;}]*\|/.test(code) || /"[^"]*"\s*\|\s*getline/.test(program);
  const writes = /(?:print|printf)\b[^;}]*>/.test(code.replace(/\([^()]*\)/g, '()'));
  // `getline < FILE` reads a file the program names.
  const reads = /\bgetline\b[^;}|]*</.test(code);
  return { exec, writes, reads };
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
  for (const program of programs) {
    const fx = awkProgramEffects(program.value);
    if (unknownCode(program) || (fx.exec && !sandbox)) {
      b.add('Exec', 'operand', program.span, { program: 'sh', target: program.value, dynamic: unknownCode(program) });
      cls = 'unknown';
    } else if (fx.writes && !sandbox) {
      b.add('Write', 'operand', program.span, { target: program.value, dynamic: true });
      if (cls !== 'unknown') cls = 'mutating';
    }
    if (fx.reads && !sandbox) b.add('Read', 'operand', program.span, { target: 'a file named in the awk program', dynamic: true });
  }
  for (const f of operands) if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(f.value)) b.path('Read', f, 'operand');
  return { class: cls, skipOperands: true };
}

export const awkHooks: ProgramHooks = { module: 'awk.ts', operations: awk };
