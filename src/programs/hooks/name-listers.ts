/**
 * Programs that list file names: fd, rg (`--files`, `-l`) and ls (`--zero`). Each prints names
 * under its search paths (or the working directory, without `./`, so a name may start with a
 * dash); with NUL separation (`-0`, `--null`, `--zero`) one item is one name.
 */
import type { Arg } from '../../expand/arg.js';
import type { HandlerResult, OperationSink, PerMatchCommand, PrintedNames, ProgramHooks } from '../hook-types.js';
import { parseArgv, type ParsedArgv } from '../argv.js';
import { bundleHas } from './option-bundle.js';
import { placeName } from './code-text.js';

interface Words {
  options: string[];
  operands: string[];
  /** The value of each option of `valueOptions`, by option (`--opt=v` and `--opt v` alike). */
  values: [string, string][];
}

/** Options and operands, values of `valueOptions` skipped; null when a word is only known at run time. */
function split(args: Arg[], valueOptions: ReadonlySet<string>): Words | null {
  const options: string[] = [];
  const operands: string[] = [];
  const values: [string, string][] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic || a.glob) return null;
    if (!ended && a.value === '--') ended = true;
    else if (!ended && a.value.startsWith('-') && a.value !== '-') {
      options.push(a.value);
      const eq = /^(--[^=]+)=(.*)$/.exec(a.value);
      if (eq !== null) values.push([eq[1], eq[2]]);
      else if (valueOptions.has(a.value) && i + 1 < args.length) values.push([a.value, args[++i].value]);
    } else operands.push(a.value);
  }
  return { options, operands, values };
}

const under = (p: string) => `${p.replace(/\/+$/, '') || '/'}/**`;

// fd [PATTERN] [PATH…]: -x/-X run commands, -l lists like `ls -l` (link targets), --format prints text.
const FD_VALUES = new Set([
  '-e',
  '--extension',
  '-t',
  '--type',
  '-d',
  '--max-depth',
  '--min-depth',
  '--exact-depth',
  '-E',
  '--exclude',
  '-S',
  '--size',
  '--changed-within',
  '--changed-before',
  '-o',
  '--owner',
  '-j',
  '--threads',
  '--max-results',
  '--base-directory',
  '--search-path',
  '--path-separator',
  '-c',
  '--color',
  '--ignore-file',
  '--max-buffer-time',
]);
function fdPrints(args: Arg[]): PrintedNames | null {
  const w = split(args, FD_VALUES);
  const fdLetter = (o: string, c: string) => bundleHas(o, c, 'etdESjoc');
  if (
    w === null ||
    w.options.some(
      (o) => fdLetter(o, 'x') || fdLetter(o, 'X') || fdLetter(o, 'l') || /^--(exec|exec-batch|list-details|format|base-directory|path-separator)/.test(o),
    )
  )
    return null;
  // `--search-path P` adds a place searched like a path operand (names under it, not under the cwd).
  const paths = [...w.operands.slice(1), ...w.values.filter(([o]) => o === '--search-path').map(([, v]) => v)];
  const exts = w.values.filter(([o]) => o === '-e' || o === '--extension').map(([, v]) => v);
  const name = exts.length === 1 ? `/*.${exts[0]}` : '';
  const patterns = (paths.length === 0 ? ['.'] : paths).map((p) => under(p) + name);
  const nul = w.options.some((o) => o === '--print0' || fdLetter(o, '0'));
  return { patterns, separator: nul ? 'nul' : 'newline', newlineSafe: false, dashFirst: paths.length === 0 };
}

// rg --files [PATH…], rg -l PATTERN [PATH…]: --pre runs a program (judged as the command), not a change to what is printed.
const RG_VALUES = new Set([
  '-e',
  '--regexp',
  '-f',
  '--file',
  '-g',
  '--glob',
  '--iglob',
  '-t',
  '--type',
  '-T',
  '--type-not',
  '-m',
  '--max-count',
  '-d',
  '--max-depth',
  '-j',
  '--threads',
  '--pre',
  '--pre-glob',
  '-E',
  '--encoding',
  '--path-separator',
  '--ignore-file',
  '-A',
  '-B',
  '-C',
  '-M',
  '--max-columns',
  '--sort',
  '--sortr',
  '--color',
  '--colors',
]);
const RG_VALUE_LETTERS = 'efgtTmdjEABCM';
function rgPrints(args: Arg[]): PrintedNames | null {
  const w = split(args, RG_VALUES);
  if (w === null || w.options.some((o) => o.startsWith('--path-separator') || o.startsWith('--json'))) return null;
  const files = w.options.includes('--files');
  const listing = files || w.options.some((o) => bundleHas(o, 'l', RG_VALUE_LETTERS) || o === '--files-with-matches' || o === '--files-without-match');
  if (!listing) return null;
  const patternGiven = w.options.some((o) => /^-[ef]|^--(regexp|file)/.test(o));
  const paths = files || patternGiven ? w.operands : w.operands.slice(1);
  const patterns = (paths.length === 0 ? ['.'] : paths).map(under);
  const nul = w.options.some((o) => o === '--null' || bundleHas(o, '0', RG_VALUE_LETTERS));
  return { patterns, separator: nul ? 'nul' : 'newline', newlineSafe: false, dashFirst: paths.length === 0 };
}

// ls --zero: names of the entries of each directory (basenames, read against the cwd), or a file operand as written.
function lsPrints(args: Arg[]): PrintedNames | null {
  const w = split(
    args,
    new Set([
      '-w',
      '--width',
      '-I',
      '--ignore',
      '--hide',
      '-T',
      '--tabsize',
      '--block-size',
      '--time-style',
      '--format',
      '--quoting-style',
      '--sort',
      '--time',
      '--color',
      '--indicator-style',
    ]),
  );
  if (w === null || !w.options.includes('--zero')) return null;
  // Long formats print link targets (`x -> /etc/passwd`) and more than names.
  if (w.options.some((o) => [...'lngo'].some((c) => bundleHas(o, c, 'wIT')) || o.startsWith('--format') || o === '--author' || o.startsWith('--hyperlink')))
    return null;
  return { patterns: ['./*', ...w.operands], separator: 'nul', newlineSafe: false, dashFirst: true };
}

// tree -f prints each path from its root (`./src/a.c`); without -f, names alone (read against the cwd).
// --fromfile lists what a file says, -o writes the listing to a file, -J/-X/-H wrap names in markup.
const TREE_VALUES = new Set(['-L', '-P', '-I', '-o', '--filelimit', '--charset', '--timefmt', '--sort', '-H', '-T']);
function treePrints(args: Arg[]): PrintedNames | null {
  const w = split(args, TREE_VALUES);
  if (w === null || w.options.some((o) => /^-(o|J|X|H|R)$|^--(fromfile|fromtabfile|du|info)/.test(o))) return null;
  const full = w.options.some((o) => /^-[a-zA-Z]*f/.test(o) && !o.startsWith('--'));
  const roots = w.operands.length === 0 ? ['.'] : w.operands;
  return { patterns: full ? roots.map(under) : ['./*'], separator: 'newline', newlineSafe: false, dashFirst: !full };
}

export const treeHooks: ProgramHooks = { module: 'name-listers.ts', prints: treePrints };
/** `-x CMD…` / `-X CMD…` and where the command ends (at `;` or the end of the line); null without one. */
function fdExecSpan(args: Arg[]): { at: number; end: number; batch: boolean } | null {
  const at = args.findIndex((a) => !a.dynamic && /^(-x|--exec|-X|--exec-batch)$/.test(a.value));
  if (at < 0) return null;
  let end = at + 1;
  while (end < args.length && args[end].value !== ';') end++;
  return { at, end, batch: /^(-X|--exec-batch)$/.test(args[at].value) };
}

/** fd's words without its `-x CMD… ;` (the command is walked on its own, not read as fd's options). */
function withoutExec(args: Arg[]): Arg[] {
  const span = fdExecSpan(args);
  return span === null ? args : [...args.slice(0, span.at), ...args.slice(span.end + 1)];
}

/** Where each placeholder of `fd -x` points, as a pattern: the path, its parent, or a bare name read in the cwd. */
const FD_PLACEHOLDERS: readonly [string, (path: string) => string][] = [
  ['{//}', (p) => p.replace(/\/[^/]*$/, '') || '.'],
  ['{/.}', () => './*'],
  ['{/}', () => './*'],
  ['{.}', (p) => p.replace(/\/\*\.[^/]*$/, '/*')],
  ['{}', (p) => p],
];

/**
 * `fd … -x CMD ARGS` runs CMD once per result (`-X`: once, with all of them): each placeholder
 * stands for the paths fd finds (programs/hooks/name-listers.ts fdPrints), and with none the path is
 * appended. A search path or command only known at run time gives no command: the spec asks.
 */
function fdExecs(args: Arg[]): PerMatchCommand[] {
  const span = fdExecSpan(args);
  if (span === null) return [];
  const printed = fdPrints(withoutExec(args));
  const command = args.slice(span.at + 1, span.end);
  if (printed === null || command.length === 0 || command.some((a) => a.dynamic)) return [];
  return printed.patterns.map((path) => {
    const match = (value: string): Arg => ({
      value,
      dynamic: false,
      glob: true,
      produced: true,
      span: command[0].span,
      ...(printed.dashFirst ? { dashFirst: true } : {}),
    });
    let placed = false;
    const argv = command.map((a) => {
      const hit = FD_PLACEHOLDERS.find(([p]) => a.value.includes(p));
      if (hit === undefined) return a;
      placed = true;
      return placeName(a, hit[0], () => match(hit[1](path)));
    });
    return { primary: args[span.at].value, args: placed ? argv : [...argv, match(path)] };
  });
}

/** fd's own options, read without the command `-x` runs (whose words are not fd's). */
function fdOperations(b: OperationSink, parsed: ParsedArgv | null): HandlerResult | void {
  if (parsed === null || fdExecSpan(b.cmd.args) === null) return;
  if (fdExecs(b.cmd.args).length === 0) return; // not followed: the spec's Exec stands
  return { parsed: parseArgv(parsed.spec, withoutExec(b.cmd.args)) };
}

export const fdHooks: ProgramHooks = { module: 'name-listers.ts', prints: fdPrints, execs: fdExecs, operations: fdOperations };
export const rgHooks: ProgramHooks = { module: 'name-listers.ts', prints: rgPrints, operations: rgReads };

/**
 * What rg searches: the paths after the pattern (every operand with -e/-f), or the working
 * directory — unless its stdin is a pipe, which it searches instead. Each directory is walked as
 * ripgrep does (ripgrep's GUIDE, "Automatic filtering"): links are followed only with `-L`/`--follow`;
 * hidden names are skipped unless `--hidden`/`-.`/`-uu`. An ignore file's `!` line or a `-g`/`-t`
 * filter that selects a hidden name brings it back, so those are not counted on (recursive-read.ts
 * reads the ignore files). `--files` and `--type-list` read no file's content: their spec's roles stay.
 */
function rgReads(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p || p.options.some((o) => o.name === '--files' || o.name === '--type-list')) return;
  const patternGiven = p.options.some((o) => ['-e', '--regexp', '-f', '--file'].includes(o.name));
  const paths = patternGiven ? p.operands : p.operands.slice(1);
  let follows = false;
  let hidden = false;
  let unrestricted = 0;
  let filtered = false;
  for (const o of p.options) {
    if (o.name === '-L' || o.name === '--follow') follows = true;
    else if (o.name === '--no-follow') follows = false;
    else if (o.name === '-.' || o.name === '--hidden') hidden = true;
    else if (o.name === '--no-hidden') hidden = false;
    else if (o.name === '-u' || o.name === '--unrestricted') unrestricted++;
    else if (/^(-g|--glob|--iglob|-t|--type|--type-add)$/.test(o.name)) filtered = true;
  }
  const selects = p.options.filter((o) => /^(-g|--glob|--iglob)$/.test(o.name)).map((o) => (o.value && !o.value.dynamic ? o.value.value : '*'));
  const walk = { followsLinks: follows, skipsHidden: !hidden && unrestricted < 2 && !filtered, selects, ignoreFiles: RG_IGNORE_FILES };
  const piped = b.cmd.context.pipeline !== null && b.cmd.context.pipeline.index > 0;
  for (const f of paths) b.recursiveRead(f, walk, 'operand');
  if (paths.length === 0 && !piped && b.cmd.stdinText === null) b.recursiveRead({ value: '.', dynamic: false, glob: false, span: b.cmd.span }, walk, 'operand');
  return { skipOperands: true };
}

/** Files whose `!PATTERN` lines make rg search a hidden name it would skip. */
const RG_IGNORE_FILES = ['.ignore', '.rgignore', '.gitignore', 'exclude'];
export const lsHooks: ProgramHooks = { module: 'name-listers.ts', prints: lsPrints };
