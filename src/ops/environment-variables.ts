import { harmlessPythonVariable } from '../programs/inline-code/python-options.js';

/**
 * What shellgate knows about environment variables a command line sets.
 *
 * A whitelist, on purpose: a variable put into a program's environment (a prefix `NAME=v prog`,
 * `env NAME=v prog`, `export NAME=v`, an assignment under `set -a`) changes what that program does
 * unless the name is known to be inert for every program and its value is data — programs read far
 * more variables than any list of dangerous ones holds (`TAR_OPTIONS`, `GCONV_PATH`, `AWKPATH`,
 * `RUSTC_WRAPPER`, `SYSTEMD_PAGER`…). Every other name asks (env-hijack).
 *
 * A bare `NAME=v` (no program, not exported; also `read NAME`, `printf -v NAME`) only sets a shell
 * variable, unless NAME is already in the environment: then every later program sees the new
 * value. Whether it is, is the user's environment, which shellgate does not know: see
 * `mayBeEnvironmentName`.
 */

/** A value that names a locale (`C`, `C.UTF-8`, `en_US.utf8@euro`): never a path (glibc reads `/`-names as files). */
const LOCALE_NAME = /^[A-Za-z0-9_.@-]+$/;
/** A word that is data, never a path, a program or code. */
const PLAIN_WORD = /^[A-Za-z0-9_.,:=+@-]*$/;

/**
 * Names a program reads only for presentation, locale or time, each with the values proven to be
 * data for it: setting them cannot make a program run, load, read or write anything else. Keep
 * this list short and justified. Not here, because their value names a program, a file or code:
 * PAGER, EDITOR, VISUAL, SHELL, BROWSER, every …PATH, …_HOME, …DIR, …CONFIG, …OPTIONS; NODE_ENV
 * (libraries load `config/${NODE_ENV}.js`); LOCPATH, TZDIR, TERMINFO (directories).
 */
// Laid out by hand: one group of related names a line.
// prettier-ignore
const INERT_VARIABLES: ReadonlyMap<string, (value: string) => boolean> = new Map<string, (value: string) => boolean>([
  // locale selection (LC_* below): a locale name, or LANGUAGE's colon-separated list of them
  ['LANG', (v) => LOCALE_NAME.test(v)], ['LANGUAGE', (v) => v.split(':').every((l) => l === '' || LOCALE_NAME.test(l))],
  // time zone: a zone name (`UTC`, `Europe/Paris`, `:UTC`, `EST5EDT`), never an absolute path or `..`
  ['TZ', (v) => /^:?[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)*$/.test(v) && !v.split('/').includes('..')],
  // terminal type (a terminfo entry name, no `/`) and size
  ['TERM', (v) => /^[A-Za-z0-9._+-]*$/.test(v)], ['COLORTERM', (v) => PLAIN_WORD.test(v)],
  ['COLUMNS', (v) => /^\d*$/.test(v)], ['LINES', (v) => /^\d*$/.test(v)],
  // colour on/off
  ['NO_COLOR', () => true], ['FORCE_COLOR', (v) => PLAIN_WORD.test(v)], ['CLICOLOR', (v) => PLAIN_WORD.test(v)], ['CLICOLOR_FORCE', (v) => PLAIN_WORD.test(v)],
  // "running in CI": output style of test runners and installers
  ['CI', (v) => PLAIN_WORD.test(v)],
  // log verbosity: namespaces of node's `debug`, Rust's log filter, Rust's backtraces
  ['DEBUG', (v) => /^[A-Za-z0-9_.,:*=+-]*$/.test(v)], ['RUST_LOG', (v) => PLAIN_WORD.test(v)], ['RUST_BACKTRACE', (v) => PLAIN_WORD.test(v)],
  // Python output and caching (read by Python only; python-path.ts checks the rest of PYTHON*)
  ['PYTHONUNBUFFERED', () => true], ['PYTHONDONTWRITEBYTECODE', () => true],
  ['PYTHONIOENCODING', (v) => harmlessPythonVariable('PYTHONIOENCODING', v)], ['PYTHONHASHSEED', (v) => harmlessPythonVariable('PYTHONHASHSEED', v)],
]);

/**
 * Is setting `name` to `value` inert for every program? `value` null or undefined: not known
 * here, so only a variable whose every value is data passes.
 */
export function isInertVariable(name: string, value: string | null | undefined): boolean {
  const check = INERT_VARIABLES.get(name) ?? (/^LC_[A-Z]+$/.test(name) ? (v: string) => LOCALE_NAME.test(v) : undefined);
  if (check === undefined) return false;
  if (typeof value === 'string') return check(value);
  // An unknown value is data only where every value is.
  return check('/') && check('$(x)');
}

/**
 * May a variable of this name already be in the environment programs get, so that a bare
 * assignment changes what later programs on the line see? POSIX reserves names with a lowercase
 * letter for applications: the standard utilities read none of them, and the variables programs
 * read are upper case (PATH, LD_PRELOAD, GIT_SSH_COMMAND, AWKPATH, TAR_OPTIONS…). So an
 * upper-case name may be (the user's environment is not known: never assume it is not), and a
 * name with a lowercase letter is taken as the script's own — except the lowercase families
 * programs do read (proxies, npm's configuration), which are upper-case in spirit.
 */
export function mayBeEnvironmentName(name: string): boolean {
  if (SHELL_WORKING_VARIABLES.has(name)) return false;
  return !/[a-z]/.test(name) || /^(https?|ftp|all|no)_proxy$|^npm_config_/i.test(name);
}

/** Variables bash itself sets as it works (after every command, every `read`, every `getopts`): a line setting them adds nothing. */
const SHELL_WORKING_VARIABLES = new Set(['_', 'REPLY', 'OPTIND', 'OPTARG']);

/**
 * Builtins that run nothing and read no variable a prefix could set to harm: a prefix assignment
 * on them (`IFS= read -r line`, `LC_ALL=C printf …`) reaches no program. (`cd` reads CDPATH: the
 * walker follows that itself.)
 */
// Laid out by hand: one group of related names a line.
// prettier-ignore
export const ENVIRONMENT_BLIND_BUILTINS = new Set([
  'read', 'echo', 'printf', 'test', '[', '[[', 'true', 'false', ':', 'pwd', 'type', 'let', 'mapfile', 'readarray',
  'getopts', 'shift', 'return', 'exit', 'unset', 'wait', 'umask', 'cd', 'pushd', 'popd', 'dirs', 'shopt', 'alias',
  'unalias', 'jobs', 'times', 'help', 'caller',
]);
