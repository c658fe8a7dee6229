/**
 * Interpreters whose run is proven to only read and print: the inline program proven by
 * programs/inline-code/ (`python3 -c`, `node -e`/`-p`, `perl -ne`/`-lane`), a syntax check that
 * runs nothing (`node --check F`, `php -l F`), and `python3 -m json.tool [IN [OUT]]`.
 * Then the command is read-only, with the files the code names as Reads (a path built at run time
 * is a dynamic Read, the whole environment an Env dump). Every option on the command line must be
 * on the family's list below; anything else leaves the spec's reading (Exec: ask).
 */
import { unknownCode } from './code-text.js';
import type { Arg } from '../../expand/arg.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';
import type { ParsedArgv, ParsedOption } from '../argv.js';
import { interpreterFamily } from '../interpreters.js';
import { proveInlineCode } from '../inline-code/prove.js';
import { provePerl, PERL_MODULES } from '../inline-code/perl.js';
import { harmlessXOption, PYTHON_HARMLESS_FLAGS, harmlessWarningOption } from '../inline-code/python-options.js';
import type { Proof, Proven } from '../inline-code/proof.js';

/** What the proven run is: its proof (inline code), a syntax check, or json.tool; null when not proven. */
export type ProvenRun =
  | { kind: 'code'; proof: Proven; code: Arg; operands: Arg[]; checkOperands: boolean }
  | { kind: 'check'; files: Arg[] }
  | { kind: 'json-tool'; input: Arg | null; output: Arg | null }
  /** `python3 -m pip …`: the module is a program with its own spec, walked as that program (walk/run-argv.ts). */
  | { kind: 'module-program'; module: string };

/** Modules `python -m` runs that are the program of the same name (its spec judges the rest of the argv). */
export const MODULE_PROGRAMS: ReadonlySet<string> = new Set(['pip']);

/** Options that change neither what runs nor what is touched, by family. */
const HARMLESS_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  python: PYTHON_HARMLESS_FLAGS,
  node: new Set(['--no-warnings', '--no-deprecation', '--disable-warning', '--stack-trace-limit']),
  php: new Set(['-n', '--no-php-ini']),
};

/**
 * Options that only check the syntax of the files named: nothing runs. Not `ruby -c`: ruby reads
 * switches from the script's `#!` line (`-rlib`, `-I.`), and a required library runs.
 */
const CHECK_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  node: ['--check', '-c'],
  php: ['-l', '--syntax-check'],
};

/** json.tool's own options (Python 3.12): formatting only. */
const JSON_TOOL_FLAGS = new Set(['--sort-keys', '--no-ensure-ascii', '--json-lines', '--tab', '--no-indent', '--compact']);

/** The proven run of an interpreter command, or null. Both the hook and the project check read it. */
export function provenRun(program: string, args: readonly Arg[], parsed: ParsedArgv): ProvenRun | null {
  const family = interpreterFamily(program);
  if (family === 'perl') return perlRun(args);
  if (family === null || !Object.prototype.hasOwnProperty.call(HARMLESS_OPTIONS, family)) return null;
  const harmless = HARMLESS_OPTIONS[family];
  const others = parsed.options.filter((o) => !harmless.has(o.name) && !(family === 'python' && harmlessPythonValue(o)));
  if (parsed.options.some((o) => o.arg.dynamic) || parsed.operands.some((a) => a.dynamic)) return null;
  const check = CHECK_OPTIONS[family] ?? [];
  if (others.length > 0 && others.every((o) => check.includes(o.name)) && parsed.operands.length > 0) return { kind: 'check', files: parsed.operands };
  if (family === 'python' && others.length === 1 && others[0].name === '-m' && others[0].value?.value === 'json.tool') return jsonTool(parsed.operands);
  if (family === 'python' && others.length === 1 && others[0].name === '-m' && MODULE_PROGRAMS.has(others[0].value?.value ?? ''))
    return { kind: 'module-program', module: others[0].value!.value };
  const code = others[0]?.value;
  if (others.length !== 1 || others[0].spec?.role !== 'code' || !code || unknownCode(code)) return null;
  const proof = proveInlineCode(family, code.value);
  return proof.proven ? { kind: 'code', proof, code, operands: [], checkOperands: false } : null;
}

/** `python -W ACTION` (no category to import), `python -X utf8`: options whose value is checked (python-options.ts). */
function harmlessPythonValue(o: ParsedOption): boolean {
  if (o.value === null || o.value.dynamic) return false;
  return (o.name === '-W' && harmlessWarningOption(o.value.value)) || (o.name === '-X' && harmlessXOption(o.value.value));
}

/** `python3 -m json.tool [--sort-keys…] [IN [OUT]]`: reads IN (stdin without), writes OUT. */
function jsonTool(operands: Arg[]): ProvenRun | null {
  const files: Arg[] = [];
  for (let i = 0; i < operands.length; i++) {
    const v = operands[i].value;
    if (JSON_TOOL_FLAGS.has(v)) continue;
    if (v === '--indent') {
      i++;
      continue;
    }
    if (v.startsWith('-') && v !== '-') return null;
    files.push(operands[i]);
  }
  if (files.length > 2) return null;
  return { kind: 'json-tool', input: files[0] ?? null, output: files[1] ?? null };
}

/**
 * perl's switches, read as perl does (clusters: `-lane`, `-F:`, `-0777`, `-MList::Util=sum`):
 * only those that shape the loop or the output. `-i` (edits in place), `-I` (a module path where a
 * workspace file could stand in for a listed module), `-x`, `-d`, a module not on the list: null.
 */
function perlRun(args: readonly Arg[]): ProvenRun | null {
  const code: string[] = [];
  const modules: string[] = [];
  let codeArg: Arg | null = null;
  let loops = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic) return null;
    if (a.value === '--') {
      i++;
      break;
    }
    if (!a.value.startsWith('-') || a.value === '-') break;
    const cluster = a.value.slice(1);
    for (let k = 0; k < cluster.length; k++) {
      const c = cluster[k];
      if ('napwsWXc'.includes(c)) {
        if (c === 'n' || c === 'p' || c === 'a') loops = true;
        continue;
      }
      if (c === 'l' || c === '0') {
        while (/[0-7xA-Fa-f]/.test(cluster[k + 1] ?? '') && !(c === 'l' && /[a-zA-Z]/.test(cluster[k + 1]))) k++;
        continue;
      }
      if (c === 'C') {
        while (/[0-9A-Za-z]/.test(cluster[k + 1] ?? '') && !'ne'.includes(cluster[k + 1])) k++;
        continue;
      }
      if (c === 'F') {
        if (!plainSplitPattern(cluster.slice(k + 1))) return null;
        loops = true;
        break;
      }
      if (c === 'M' || c === 'm') {
        const module = cluster.slice(k + 1).split('=')[0];
        if (!Object.prototype.hasOwnProperty.call(PERL_MODULES, module)) return null;
        modules.push(module);
        break;
      }
      if (c === 'e' || c === 'E') {
        const attached = cluster.slice(k + 1);
        const text = attached !== '' ? attached : args[++i]?.value;
        if (text === undefined || (attached === '' && args[i].dynamic)) return null;
        code.push(text);
        codeArg = attached !== '' ? a : args[i];
        break;
      }
      return null;
    }
  }
  if (codeArg === null) return null;
  const proof = provePerl(code.join('\n'), modules);
  if (!proof.proven) return null;
  // Operands are checked even without -n/-p: `eof()` and a symbolic `ARGV` handle open them too.
  return { kind: 'code', proof, code: codeArg, operands: args.slice(i), checkOperands: loops || code.length > 0 };
}

/**
 * A `-F` pattern perl turns into code: `-F/x/` (or one quoted with `'`/`"`) is pasted as written
 * into `our @F=split(/x/);`, anything else into `split(q\0…\0)`. So it is code, and it is
 * proven only when it is a plain regex over a whitelisted alphabet: letters, digits, and the
 * punctuation of character classes, anchors, quantifiers and escapes (`\t`, `\s+`, `[,;]`, `\|`).
 * Out of it, among others: `$`/`@` (interpolation), `(`/`)`/`{`/`}` (`(?{…})`, `\N{…}`, groups),
 * quotes, `/` inside the pattern, whitespace, and a trailing `\` that would escape the closing `/`.
 */
function plainSplitPattern(text: string): boolean {
  const body = /^\/.*\/$/s.test(text) && text.length >= 3 ? text.slice(1, -1) : text;
  return /^[A-Za-z0-9,:;|.\-_=+*?^\\[\]!%&~#<>]+$/.test(body) && !/(^|[^\\])(\\\\)*\\$/.test(body);
}

/**
 * A file name `<>` may open with perl's two-argument `open`: it must start and end with a plain
 * character (a glob's first and last characters too), so that no `>x`, `<x`, `|cmd` or `cmd|` can
 * be among the names it stands for.
 */
function plainFileName(a: Arg): boolean {
  return !a.dynamic && /^[A-Za-z0-9_./]/.test(a.value) && /[A-Za-z0-9_.]$/.test(a.value);
}

function interpreter(b: OperationSink, parsed: ParsedArgv | null): HandlerResult | void {
  if (!parsed || b.cmd.program === null) return;
  const run = provenRun(b.cmd.program, b.cmd.args, parsed);
  if (run === null) return;
  const proven: HandlerResult = { class: 'read-only', skipOperands: true, skipOptions: true, optionsChecked: true, skipSpecOps: true };
  // The program the module is, with the rest of the argv, is a command of its own (walk/run-argv.ts).
  if (run.kind === 'module-program') return proven;
  if (run.kind === 'check') {
    for (const f of run.files) b.path('Read', f, 'operand');
    return proven;
  }
  if (run.kind === 'json-tool') {
    if (run.input !== null && run.input.value !== '-') b.path('Read', run.input, 'operand');
    if (run.output === null) return proven;
    b.path('Write', run.output, 'operand');
    return { ...proven, class: 'mutating' };
  }
  if (run.checkOperands && !run.operands.every(plainFileName)) return;
  for (const f of run.operands) b.path('Read', f, 'operand');
  codeOperations(b, run.proof, run.code);
  return proven;
}

/** The files the proven code reads (relative to the working directory), and an Env dump for the whole environment. */
function codeOperations(b: OperationSink, proof: Proof & { proven: true }, code: Arg): void {
  for (const r of proof.reads) {
    if (r.path === null) b.add('Read', 'option', code.span, { target: 'a path the code builds at run time', dynamic: true });
    else b.path(r.list ? 'List' : 'Read', { value: r.path, dynamic: false, glob: false, span: code.span }, 'option');
  }
  if (proof.wholeEnvironment) b.add('Env', 'option', code.span, { target: '*', program: b.cmd.program ?? '' });
}

export const interpreterHooks: ProgramHooks = { module: 'interpreter.ts', operations: interpreter };
