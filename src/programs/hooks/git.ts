/**
 * git's listings of file names: `ls-files`, `diff --name-only`/`--name-status`, `grep -l`,
 * `status --porcelain`/`--short`. git prints paths relative to the working directory (or the top of
 * the work tree), never with a `./`, so a name may start with a dash; it quotes a name holding a
 * control character, a double quote or a backslash (`"a\nb"`) whatever `core.quotePath` says, so
 * one line is one name. With `-z` names are separated by NUL and printed raw.
 *
 * And what its subcommands' tables cannot say: `git branch` with no name only lists.
 */
import type { Arg } from '../../expand/arg.js';
import { effectiveClass, type ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, PrintedNames, ProgramHooks } from '../hook-types.js';

/** Global options before the subcommand that take the next word as their value. */
const GLOBAL_VALUES = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

/** The subcommand and its words, when the global options before it are all readable. */
function subcommand(args: Arg[]): { name: string; rest: Arg[] } | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic) return null;
    if (GLOBAL_VALUES.has(a.value)) i++;
    else if (!a.value.startsWith('-')) return { name: a.value, rest: args.slice(i + 1) };
  }
  return null;
}

/** Does this subcommand line print only names, and are they NUL-separated? */
function listsNames(name: string, words: string[]): boolean {
  const has = (...o: string[]) => words.some((w) => o.includes(w));
  switch (name) {
    case 'ls-files':
      // `--format` prints text of its own choosing; `--debug` and `-s` add more than names (still a line each, but keep to names).
      return !words.some((w) => w.startsWith('--format') || w === '--debug');
    case 'diff':
      return has('--name-only', '--name-status') && !words.some((w) => w.startsWith('--output') || w === '--ext-diff' || w.startsWith('--line-prefix'));
    case 'grep':
      return has('-l', '--files-with-matches', '--name-only', '-L', '--files-without-match') && !has('-O', '--open-files-in-pager');
    case 'status':
      return has('--porcelain', '-s', '--short') || words.some((w) => w.startsWith('--porcelain='));
    default:
      return false;
  }
}

function prints(args: Arg[]): PrintedNames | null {
  const sub = subcommand(args);
  if (sub === null || sub.rest.some((a) => a.dynamic)) return null;
  const words = sub.rest.map((a) => a.value);
  if (!listsNames(sub.name, words)) return null;
  // ls-files pathspecs: names are under each one's fixed part (`src/*.ts` → src); a pathspec with
  // magic (`:(glob)…`) or leaving the directory keeps its own text as the root.
  const specs = sub.name === 'ls-files' ? words.filter((w, i) => !w.startsWith('-') || words.slice(0, i).includes('--')).filter((w) => w !== '--') : [];
  const patterns = specs.length === 0 ? ['./**'] : specs.map(pathspecPattern);
  if (patterns.includes(null)) return null;
  const nul = words.includes('-z');
  return { patterns: patterns as string[], separator: nul ? 'nul' : 'newline', newlineSafe: !nul, dashFirst: true };
}

/** The names a pathspec matches, as a glob: `*` in a pathspec also matches `/`. */
function pathspecPattern(spec: string): string | null {
  if (spec.startsWith(':')) return null;
  const wild = spec.search(/[*?[]/);
  const fixed = wild < 0 ? spec : spec.slice(0, wild);
  const dir = wild < 0 ? spec.replace(/\/+$/, '') : fixed.slice(0, fixed.lastIndexOf('/') + 1).replace(/\/+$/, '');
  const last = spec.slice(spec.lastIndexOf('/') + 1);
  // `*.ts` (a star, then no wildcard): every name it matches ends so, at any depth.
  const name = wild >= 0 && /^\*[^*?[/]+$/.test(last) ? '/' + last : '';
  return `${dir === '' ? '.' : dir}/**${name}`;
}

/**
 * `git branch` creates, renames or deletes a branch when given a name or a changing option
 * (`-d`, `-m`, `-u`, `--set-upstream-to`…), so its spec's class is mutating; with no operand and
 * no such option it only lists branches (man git-branch: "With no arguments, existing branches
 * are listed"). A spec cannot make a class depend on the number of operands.
 */
function branchClass(p: ParsedArgv): HandlerResult | void {
  if (p.subcommands.length !== 1 || p.operands.length > 0) return;
  // An option the table does not know, or one that changes state, keeps the spec's class.
  if (p.options.some((o) => o.spec === undefined || o.spec.class === 'mutating' || o.spec.class === 'unknown')) return;
  if (effectiveClass(p) === 'mutating') return { class: 'read-only' };
}

/**
 * Settings given on the command line that only change how git prints or who it says you are; any
 * other key may name a program (`alias.x=!cmd`, `core.pager`, `core.sshCommand`, `diff.x.textconv`,
 * `core.fsmonitor`…), so `-c` with it must be named by an allow rule.
 */
const PRINTING_KEYS =
  /^(color\.[^=]*|advice\.[^=.]+|core\.quotepath|user\.(name|email)|init\.defaultbranch|log\.(abbrevcommit|date|decorate)|format\.pretty)$/i;

/**
 * What an allow rule's `*` does not stand for: `git -c KEY=VALUE` (and `--config-env`) with a key
 * that may run a program, and a subcommand git does not have, which runs an alias (from the
 * command line or the repository's configuration) or a `git-NAME` program found on PATH.
 */
function namedRuns(b: OperationSink, p: ParsedArgv): void {
  for (const o of p.options) {
    if (o.depth !== 0 || (o.name !== '-c' && o.name !== '--config-env')) continue;
    const key = o.value === null || o.value.dynamic ? null : o.value.value.split('=')[0];
    if (o.name === '--config-env' || key === null || !PRINTING_KEYS.test(key))
      b.namedOption(o.name, o.arg, 'a git setting on the command line may name a program git runs');
  }
  if (p.unknownSubcommand !== null && p.operands[0] !== undefined)
    b.namedOption(p.unknownSubcommand, p.operands[0], 'not a git command: an alias or a git-NAME program, which may run anything');
}

/** Subcommands whose operands may be paths whose content (or history) they print. */
const PRINTS_PATHS = new Set(['log', 'show', 'diff', 'whatchanged', 'cat-file', 'blame', 'annotate']);

/**
 * `git log -p -- .env`, `git show HEAD:.env`, `git diff a b`: an operand may be a path (git tells
 * revisions from paths by what exists), and `REV:PATH` names a file in a revision — each is read,
 * so a secret in the history or a file outside the workspace (`git diff --no-index`) is seen.
 */
function operations(b: OperationSink, parsed: ParsedArgv | null): HandlerResult | void {
  if (parsed === null) return;
  namedRuns(b, parsed);
  if (parsed.subcommands[0] === 'branch') return branchClass(parsed);
  if (parsed.subcommands[0] === 'grep') return grepWalks(b, parsed);
  if (!PRINTS_PATHS.has(parsed.subcommands[0] ?? '')) return;
  for (const a of parsed.operands) {
    // `HEAD:README.md` is not `host:path`: only the file in the revision is read.
    const inRevision = a.dynamic ? null : /^[^:/]*:(.+)$/.exec(a.value);
    b.path('Read', inRevision ? { ...a, value: inRevision[1] } : a, 'operand');
  }
}

/**
 * `git grep` searches the files below its pathspecs (the working directory with none): tracked
 * ones, untracked ones too with `--untracked`, every file with `--no-index`. Which files are
 * tracked is the index's to say, so each start is a walk of everything below it: a deny on a path
 * there applies (policy/rule-match.ts). An operand may be a revision instead (read as a path
 * that is not there). Git never searches its own `.git`, so the sensitive-file scan of a recursive
 * read is not run.
 */
function grepWalks(b: OperationSink, p: ParsedArgv): void {
  const patternGiven = p.options.some((o) => o.name === '-e' || o.name === '-f');
  const specs = patternGiven ? p.operands : p.operands.slice(1);
  for (const a of specs) b.path('Read', a, 'operand', { walks: 'all' });
  if (specs.length === 0) b.path('Read', { value: '.', dynamic: false, glob: false, span: b.cmd.span }, 'operand', { walks: 'all' });
}

export const gitHooks: ProgramHooks = { module: 'git.ts', prints, operations };
