/**
 * Everything about find: its command line (`find [-H] [-L] [-P] [-D DEBUGOPTS] [-OLEVEL]
 * [STARTING-POINT…] [EXPRESSION]`, GNU findutils; BSD find also takes `-E`, `-X`, `-d`, `-s`,
 * `-x` and `-f PATH` up front), its expression language and the operations it stands for, and
 * the commands `-exec`/`-execdir`/`-ok`/`-okdir` run (walk/run-argv.ts walks them).
 */
import type { Arg } from '../../expand/arg.js';
import { placeName } from './code-text.js';
import { execEnd, parseFindExpression, unterminatedExec, requiredBefore, requiredTrue, type Arity, type FindNode } from './find-expr.js';
import type { CommandClass } from '../spec-types.js';
import type { HandlerResult, OperationSink, PerMatchCommand, PrintedNames, ProgramHooks } from '../hook-types.js';

export interface FindArgs {
  /** The starting points as written (empty: find uses `.`). */
  roots: Arg[];
  /** Index of the first word of the expression. */
  exprStart: number;
  /** `-L` (or `-follow` later): symbolic links are followed into what they point to. */
  follows: boolean;
  /** `-files0-from FILE`: more starting points come from a file, so what find walks is not known. */
  listed: boolean;
}

/** Leading options with no value, bundled as BSD's getopt allows (`-HL`), and `-O LEVEL`. */
const LEADING_FLAGS = /^-([HLPEXdsx]+|O\d*)$/;

/** The command line read once per argv: the walker (for `-exec`) and the operations both ask. */
const commandLines = new WeakMap<readonly Arg[], FindArgs>();

/**
 * Starting points run until the first word that begins with `-`, or is `(`, `!` or `,`; with none,
 * find starts at `.`. Options before the starting points must be skipped, or `find -L / -delete`
 * looks like a find of the working directory.
 */
export function findCommandLine(args: Arg[]): FindArgs {
  let found = commandLines.get(args);
  if (found === undefined) {
    found = readCommandLine(args);
    commandLines.set(args, found);
  }
  return found;
}

function readCommandLine(args: Arg[]): FindArgs {
  let i = 0;
  let follows = false;
  const roots: Arg[] = [];
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic) break;
    if (a.value === '-D' || a.value === '-f') {
      // `-D DEBUGOPTS`; BSD `-f PATH` names a starting point that may begin with a dash.
      if (a.value === '-f' && args[i + 1]) roots.push(args[i + 1]);
      i++;
      continue;
    }
    if (a.value === '--') {
      i++; // ends these options; the starting points follow
      break;
    }
    if (!LEADING_FLAGS.test(a.value)) break;
    if (a.value.includes('L')) follows = true;
  }
  for (; i < args.length; i++) {
    const v = args[i].value;
    // A dynamic word may be a starting point or an expression: take it as a starting point (its
    // path is then dynamic and asks) and keep reading.
    if (!args[i].dynamic && (v.startsWith('-') || v === '(' || v === '!' || v === ',')) break;
    roots.push(args[i]);
  }
  if (args.slice(i).some((a) => a.value === '-follow')) follows = true;
  const listed = args.slice(i).some((a) => a.value === '-files0-from');
  return { roots, exprStart: i, follows, listed };
}

/**
 * find's expression language (GNU findutils 4.9 `man find`, plus the BSD/macOS primaries), by
 * how many words each primary takes. A primary that is not here is not taken as harmless.
 */
const FIND_NO_ARG = new Set([
  '-daystart',
  '-depth',
  '-d',
  '-follow',
  '-ignore_readdir_race',
  '-noignore_readdir_race',
  '-mount',
  '-noleaf',
  '-nowarn',
  '-warn',
  '-xdev',
  '-x',
  '-help',
  '--help',
  '-version',
  '--version',
  '-empty',
  '-executable',
  '-false',
  '-nogroup',
  '-nouser',
  '-readable',
  '-true',
  '-writable',
  '-ls',
  '-print',
  '-print0',
  '-prune',
  '-quit',
  '-a',
  '-and',
  '-o',
  '-or',
  '-not',
  '!',
  '(',
  ')',
  ',',
  // BSD/macOS
  '-acl',
  '-sparse',
  '-xattr',
]);
const FIND_VALUE = new Set([
  '-maxdepth',
  '-mindepth',
  '-regextype',
  '-amin',
  '-atime',
  '-cmin',
  '-context',
  '-ctime',
  '-fstype',
  '-gid',
  '-group',
  '-ilname',
  '-iname',
  '-inum',
  '-ipath',
  '-iregex',
  '-iwholename',
  '-links',
  '-lname',
  '-mmin',
  '-mtime',
  '-name',
  '-path',
  '-perm',
  '-regex',
  '-size',
  '-type',
  '-uid',
  '-used',
  '-user',
  '-wholename',
  '-xtype',
  '-printf',
  // BSD/macOS
  '-Bmin',
  '-Btime',
  '-flags',
  '-xattrname',
]);
const FIND_READ = new Set(['-newer', '-anewer', '-cnewer', '-samefile', '-Bnewer', '-mnewer']);
const FIND_WRITE = new Set(['-fprint', '-fprint0', '-fls', '-fprintf']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** A command `-exec` and its kin run once per match (or per batch with `+`): `{}` stands for the paths under the starting point. */
export type FindExec = PerMatchCommand;

/** The one starting point find walks, when it is known: `.` when the command line names none. */
function knownRoot(line: FindArgs): string | null {
  if (line.listed) return null; // `-files0-from`: the starting points are in a file
  if (line.roots.length === 0) return '.';
  if (line.roots.length === 1 && !line.roots[0].dynamic) return line.roots[0].value;
  return null;
}

/** The commands find runs: `find … -exec CMD {} ;` runs CMD with `{}` standing for paths under the roots. */
export function findExecs(args: Arg[]): FindExec[] {
  const line = findCommandLine(args);
  const only = knownRoot(line);
  const root = only === null ? null : only.replace(/\/+$/, '') || '/';
  const out: FindExec[] = [];
  // find refuses the whole line, so no `-exec` in it runs (find() asks why).
  if (unterminatedExec(args, line.exprStart, findArity) !== null) return out;
  for (let i = 0; i < args.length; i++) {
    if (!FIND_EXEC.has(args[i].value)) continue;
    const end = execEnd(args, i + 1);
    const name = nameTest(args, line.exprStart, i);
    const inner = args.slice(i + 1, end).map((a): Arg => matchedPath(a, root, name));
    out.push({ primary: args[i].value, args: inner });
    i = end;
  }
  return out;
}

/** How many words each primary takes (find-expr.ts): null for a word the tables do not know. */
function findArity(v: string): Arity | null {
  if (FIND_EXEC.has(v)) return 'exec';
  if (v === '-delete' || FIND_NO_ARG.has(v)) return 0;
  if (v === '-fprintf') return 2;
  if (FIND_VALUE.has(v) || FIND_READ.has(v) || FIND_WRITE.has(v) || v === '-files0-from' || /^-newer[aBcmt][aBcmt]$/.test(v)) return 1;
  return null;
}

/** The expression read once per argv (null: not known, nothing narrows). */
const expressions = new WeakMap<readonly Arg[], FindNode | null>();

function expressionOf(args: Arg[], exprStart: number): FindNode | null {
  if (!expressions.has(args)) expressions.set(args, parseFindExpression(args, exprStart, findArity));
  return expressions.get(args)!;
}

/**
 * The basename pattern every path reaching the primary at `at` matches (`null` for `at`: the
 * whole expression, as the implicit `-print` sees it): a `-name` that is a conjunct on the
 * action's own path in the expression tree (find-expr.ts). `find . -name '*.c' -exec …` runs only
 * for names matching `*.c`; `find . -name .env -o -name '*.c'` prints both. `-iname` gives a
 * pattern whose letters match either case. Null when nothing narrows the name, or when the
 * expression is not fully known.
 */
function nameTest(args: Arg[], exprStart: number, at: number | null): string | null {
  const tree = expressionOf(args, exprStart);
  if (tree === null) return null;
  const tests = at === null ? requiredTrue(tree) : requiredBefore(tree, at);
  for (const t of tests.reverse()) {
    if (t.kind !== 'primary' || (t.name !== '-name' && t.name !== '-iname')) continue;
    const pattern = t.operands[0];
    if (!pattern.dynamic && !pattern.value.includes('/')) return t.name === '-iname' ? eitherCase(pattern.value) : pattern.value;
  }
  return null;
}

/** `-iname` pattern as a case-sensitive one: each letter outside a class becomes `[xX]`. */
function eitherCase(pattern: string): string {
  let out = '';
  let inClass = false;
  for (const c of pattern) {
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    out += !inClass && c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c;
  }
  return out;
}

/**
 * `{}` as the paths under the root; unknown when the root is. GNU and BSD find replace `{}` inside
 * a word too: `{}/` and `{}/sub` are paths under each match (`-exec rm -rf {}/ ;` on `find ~
 * -maxdepth 0` deletes home), kept as such when what follows is plain names; any other word that
 * holds `{}` (`{}.bak`, `x{}`, `sh -c 'cat {}'`) is unknown (placeName).
 */
function matchedPath(a: Arg, root: string | null, name: string | null): Arg {
  if (root === null) return a.value.includes('{}') ? { ...a, dynamic: true } : a;
  const under = `${root === '/' ? '' : root}/**${name === null ? '' : '/' + name}`;
  const below = /^\{\}((?:\/+[^/{}*?[\]\\]*)*)$/.exec(a.value);
  if (below && below[1] !== '' && below[1].split('/').every((seg) => seg !== '.' && seg !== '..')) {
    return { ...a, value: under + below[1], glob: true, produced: true };
  }
  return placeName(a, '{}', () => ({ ...a, value: under, glob: true, produced: true }));
}

/** find's operations: the starting points are listed; primaries read, write, delete or run. */
function find(b: OperationSink): HandlerResult {
  const args = b.cmd.args;
  let cls: CommandClass = 'read-only';
  const line = findCommandLine(args);
  const rootArgs = line.roots.length > 0 ? line.roots : [{ value: '.', dynamic: false, glob: false, span: b.cmd.span }];
  // `-L`: find goes where every link below leads, and lists what is there (names, not contents).
  for (const r of rootArgs) {
    if (line.follows) b.recursiveRead(r, { followsLinks: true, skipsHidden: false, lists: true }, 'operand');
    else b.path('List', r, 'operand', { walks: 'all' });
  }
  const refused = unterminatedExec(args, line.exprStart, findArity);
  if (refused !== null) {
    // Nothing runs, but a line find rejects is not a line shellgate read as its author meant:
    // ask (unknown), never allow it as a listing and never deny a deletion that cannot happen.
    const words = args
      .slice(refused)
      .map((w) => w.value)
      .join(' ');
    b.unknownOption(
      words,
      args[refused],
      'find',
      `GNU findutils 4.9: a ${args[refused].value} with no \`;\` or \`{} +\` after its command makes find refuse to run at all`,
    );
  }
  for (let i = line.exprStart; i < args.length; i++) {
    const a = args[i];
    const v = a.value;
    if (a.dynamic) {
      // `find . $x`: the word may be any primary (`-delete`, `-fprint F`).
      if (/^[-$`!(]/.test(v)) b.unknownOption(v, a, 'find', null, true);
      continue;
    }
    if (FIND_READ.has(v) || (/^-newer[aBcm][aBcm]$/.test(v) && args[i + 1])) {
      if (args[i + 1]) b.path('Read', args[++i], 'option');
    } else if (/^-newer[aBcmt]t$/.test(v))
      i++; // compared with a time given as text
    else if (v === '-files0-from') {
      // The starting points are read from a file: what is walked is not known here.
      if (args[i + 1]) b.path('Read', args[++i], 'option');
      b.add('List', 'option', a.span, { target: 'starting points listed in a file', dynamic: true });
    } else if (FIND_VALUE.has(v)) i++;
    else if (FIND_WRITE.has(v)) {
      b.namedOption(v, a, `find ${v} writes a file`);
      if (args[i + 1]) b.path('Write', args[++i], 'option');
      if (v === '-fprintf') i++;
      cls = 'mutating';
    } else if (v === '-delete') {
      b.namedOption(v, a, 'find -delete deletes what it matches');
      for (const r of rootArgs) b.path('Delete', { ...r, value: `${r.value.replace(/\/+$/, '')}/**`, glob: true }, 'option');
      cls = 'mutating';
    } else if (FIND_EXEC.has(v)) {
      b.namedOption(v, a, `find ${v} runs a command on what it matches`);
      // The executed command is a sub-command of its own (findExecs, walked by walk/run-argv.ts).
      i = execEnd(args, i + 1);
    } else if (!FIND_NO_ARG.has(v) && (v.startsWith('-') || v.startsWith('+'))) {
      b.unknownOption(v, a, 'find', 'GNU findutils 4.9 (man find) and the BSD primaries');
    }
    // Anything else is a word find itself rejects (a path after the expression).
  }
  return { class: cls, skipOperands: true, skipOptions: true, optionsChecked: true };
}

/** Tests that select some files by what they are: name, path, size, times, owner, links. */
const NARROWING =
  /^-(name|iname|path|ipath|wholename|iwholename|regex|iregex|size|mtime|mmin|atime|amin|ctime|cmin|newer|anewer|cnewer|newer[a-zA-Z]{2}|user|group|nouser|nogroup|empty|perm|inum|used|samefile|links|lname|ilname|uid|gid)$/;

/** A pattern that every name or path matches: `*`, `**`, and regexes made of `.`, `*`, `+`, anchors and groups. */
function matchesEverything(primary: string, pattern: string): boolean {
  return /regex$/.test(primary) ? /^[.*+^$()|]*$/.test(pattern) && pattern.includes('.') : /^\**$/.test(pattern);
}

/**
 * Does each action that deletes or runs (`-delete`, `-exec`, `-execdir`, `-ok`, `-okdir`) see
 * only the files a filter selects? The filter must be a conjunct on the action's own path
 * (find-expr.ts) and not match everything: `find ~ -name '*.pyc' -o -delete` and `find ~ -name
 * '*' -delete` are not filtered. False when the expression is not known or has no such action.
 */
export function filtersEveryAction(args: Arg[]): boolean {
  const line = findCommandLine(args);
  const tree = expressionOf(args, line.exprStart);
  if (tree === null) return false;
  const actions: number[] = [];
  for (let i = line.exprStart; i < args.length; i++) if (args[i].value === '-delete' || FIND_EXEC.has(args[i].value)) actions.push(i);
  return (
    actions.length > 0 &&
    actions.every((at) =>
      requiredBefore(tree, at).some(
        (t) => t.kind === 'primary' && NARROWING.test(t.name) && !(t.operands[0] && matchesEverything(t.name, t.operands[0].value)),
      ),
    )
  );
}

/** Primaries whose output is not one name per match: what they print mixes into stdout. */
const PRINTS_OTHER = new Set(['-printf', '-ls', '-fls', '-fprint', '-fprint0', '-fprintf', ...FIND_EXEC]);

/**
 * The names `find` prints: paths under each starting point (which they start with, so never with
 * a dash), narrowed by the `-name` of the conjunction that prints them; `-print0` separates them
 * by NUL. A name may hold a newline, so a line is not always one name.
 */
function prints(args: Arg[]): PrintedNames | null {
  const line = findCommandLine(args);
  if (line.listed || line.roots.some((r) => r.dynamic || r.glob)) return null;
  let print: number | null = null;
  let separator: PrintedNames['separator'] = 'newline';
  for (let i = line.exprStart; i < args.length; i++) {
    const v = args[i].value;
    if (args[i].dynamic || PRINTS_OTHER.has(v)) return null;
    if (v === '-print' || v === '-print0') {
      if (print !== null) return null; // two outputs: names of different tests interleave
      print = i;
      separator = v === '-print0' ? 'nul' : 'newline';
    }
  }
  const name = nameTest(args, line.exprStart, print);
  const roots = line.roots.length > 0 ? line.roots.map((r) => r.value.replace(/\/+$/, '') || '/') : ['.'];
  const patterns = roots.map((r) => `${r === '/' ? '' : r}/**${name === null ? '' : '/' + name}`);
  return { patterns, separator, newlineSafe: false, dashFirst: false };
}

export const findHooks: ProgramHooks = { module: 'find.ts', operations: find, prints, execs: findExecs };
