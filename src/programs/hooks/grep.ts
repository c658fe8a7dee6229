/** grep: the first operand is the pattern unless -e/-f give it; -r with no file reads the cwd. */
import type { ParsedArgv } from '../argv.js';
import type { Arg } from '../../expand/arg.js';
import { bundleHas } from './option-bundle.js';
import type { HandlerResult, OperationSink, PrintedNames, ProgramHooks, RecursiveWalk } from '../hook-types.js';

/**
 * grep PATTERN FILE…, but with -e/-f every operand is a file; -r with no file reads the cwd. A
 * recursive grep reads every file under its directories (GNU grep skips no name): `-r` follows
 * only the links named on the command line, `-R` every link it meets (grep(1), "-r").
 */
function grep(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  const patternGiven = p.options.some((o) => ['-e', '--regexp', '-f', '--file'].includes(o.name));
  const files = patternGiven ? p.operands : p.operands.slice(1);
  const walk = recursiveWalk(p);
  if (walk === null) for (const f of files) b.path('Read', f, 'operand');
  else {
    for (const f of files) b.recursiveRead(f, walk, 'operand');
    if (files.length === 0) b.recursiveRead({ value: '.', dynamic: false, glob: false, span: b.cmd.span }, walk, 'operand');
  }
  return { class: 'read-only', skipOperands: true };
}

/**
 * How grep walks directories, or null when it does not (`-d read`/`skip`, the default). `-d ACTION`
 * other than those two is taken as `recurse`. `--include=GLOB` selects the files read; `--exclude`
 * only leaves some out, so it is not counted on.
 */
function recursiveWalk(p: ParsedArgv): RecursiveWalk | null {
  let recursive: 'no' | 'r' | 'R' = 'no';
  for (const o of p.options) {
    if (o.name === '-R' || o.name === '--dereference-recursive') recursive = 'R';
    else if ((o.name === '-r' || o.name === '--recursive') && recursive === 'no') recursive = 'r';
    else if ((o.name === '-d' || o.name === '--directories') && recursive === 'no' && !(o.value && !o.value.dynamic && /^(read|skip)$/.test(o.value.value)))
      recursive = 'r';
  }
  if (recursive === 'no') return null;
  const selects = p.options.filter((o) => o.name === '--include').map((o) => (o.value && !o.value.dynamic ? o.value.value : '*'));
  return { followsLinks: recursive === 'R', skipsHidden: false, selects };
}

/** Options after which the next word is a value (a pattern, a file of patterns, a count…). */
const VALUE_OPTIONS = new Set([
  '-e',
  '--regexp',
  '-f',
  '--file',
  '-m',
  '--max-count',
  '-A',
  '-B',
  '-C',
  '--include',
  '--exclude',
  '--exclude-dir',
  '-d',
  '-D',
  '--label',
]);
/** Options that only choose which lines match: the lines themselves pass unchanged. */
const SELECTING =
  /^-([vixwEFGPsqUy]+|e.+)$|^--(invert-match|ignore-case|no-ignore-case|word-regexp|line-regexp|extended-regexp|fixed-strings|basic-regexp|perl-regexp|no-messages|regexp=.*)$/;

/** Short options whose value is the rest of the bundle (`-elfoo` is the pattern `lfoo`). */
const VALUE_LETTERS = 'efmABCdD';

/** The words of a grep line: options (with their values skipped) and operands, or null when unreadable. */
function words(args: Arg[]): { options: string[]; operands: Arg[] } | null {
  const options: string[] = [];
  const operands: Arg[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic) return null;
    if (!ended && a.value === '--') ended = true;
    else if (!ended && a.value.startsWith('-') && a.value !== '-') {
      options.push(a.value);
      if (VALUE_OPTIONS.has(a.value)) i++;
    } else operands.push(a);
  }
  return { options, operands };
}

/** `grep PATTERN` with only selecting options and no file: a filter of whole lines (`-z`: NUL-separated). */
function passesLines(args: Arg[]): 'nul' | 'newline' | null {
  const w = words(args);
  if (w === null) return null;
  const patternGiven = w.options.some((o) => o === '-e' || o === '--regexp' || o.startsWith('--regexp=') || /^-e./.test(o));
  if (w.operands.length !== (patternGiven ? 0 : 1)) return null;
  const rest = w.options.filter((o) => o !== '-z' && o !== '--null-data');
  if (!rest.every((o) => SELECTING.test(o) || o === '-e' || o === '--regexp')) return null;
  return rest.length === w.options.length ? 'newline' : 'nul';
}

/**
 * `grep -l`/`-L`: the names of files, as given or found under a directory with -r (with no file, under
 * the cwd and without `./`, so a name may start with a dash); `-Z`/`--null` ends each with NUL.
 */
function prints(args: Arg[]): PrintedNames | null {
  const w = words(args);
  const any = (letters: string, ...long: string[]) =>
    w!.options.some((o) => long.some((l) => o === l || o.startsWith(l + '=')) || [...letters].some((c) => bundleHas(o, c, VALUE_LETTERS)));
  if (w === null || !any('lL', '--files-with-matches', '--files-without-match')) return null;
  const patternGiven = any('ef', '--regexp', '--file');
  const files = patternGiven ? w.operands : w.operands.slice(1);
  const recursive = any('rR', '--recursive', '--dereference-recursive');
  if (files.some((f) => f.glob)) return null;
  if (files.length === 0 && !recursive) return null; // reads stdin: it prints `(standard input)`
  const roots = files.length === 0 ? ['.'] : files.map((f) => f.value);
  const patterns = recursive ? roots.map((r) => `${r.replace(/\/+$/, '') || '/'}/**`) : roots;
  const nul = any('Z', '--null');
  return { patterns, separator: nul ? 'nul' : 'newline', newlineSafe: false, dashFirst: files.length === 0 || files.some((f) => f.value.startsWith('-')) };
}

export const grepHooks: ProgramHooks = { module: 'grep.ts', operations: grep, passesLines, prints };
