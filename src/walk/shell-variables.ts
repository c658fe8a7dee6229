/**
 * Variables bash itself reads (the "Shell Variables" chapter of the bash manual, 5.2): assigning
 * one changes what bash does next — `BASH_ALIASES[ls]=…` defines an alias, `BASH_CMDS[ls]=…` where
 * `ls` runs from, `OLDPWD` where `cd -` goes, `POSIXLY_CORRECT` turns on posix mode, `GLOBIGNORE`
 * what globs match. Only the names on the short list of inert ones below may be assigned without
 * a finding; every other one makes the state after it unknown, and the command asks.
 *
 * Names bash does not read specially are ordinary variables, followed by the walker; what other
 * programs read from the environment is the env-hijack finding's job (ops/environment-variables.ts).
 */

/** Every variable the bash manual lists as read or set by the shell. */
// prettier-ignore
const SHELL_VARIABLES: ReadonlySet<string> = new Set([
  'CDPATH', 'HOME', 'IFS', 'MAIL', 'MAILPATH', 'OPTARG', 'OPTIND', 'PATH', 'PS1', 'PS2',
  '_', 'BASH', 'BASHOPTS', 'BASHPID', 'BASH_ALIASES', 'BASH_ARGC', 'BASH_ARGV', 'BASH_ARGV0', 'BASH_CMDS',
  'BASH_COMMAND', 'BASH_COMPAT', 'BASH_ENV', 'BASH_EXECUTION_STRING', 'BASH_LINENO', 'BASH_LOADABLES_PATH',
  'BASH_MONOSECONDS', 'BASH_REMATCH', 'BASH_SOURCE', 'BASH_SUBSHELL', 'BASH_TRAPSIG', 'BASH_VERSINFO',
  'BASH_VERSION', 'BASH_XTRACEFD', 'CHILD_MAX', 'COLUMNS', 'COMP_CWORD', 'COMP_LINE', 'COMP_POINT',
  'COMP_TYPE', 'COMP_KEY', 'COMP_WORDBREAKS', 'COMP_WORDS', 'COMPREPLY', 'COPROC', 'DIRSTACK', 'EMACS',
  'ENV', 'EPOCHREALTIME', 'EPOCHSECONDS', 'EUID', 'EXECIGNORE', 'FCEDIT', 'FIGNORE', 'FUNCNAME', 'FUNCNEST',
  'GLOBIGNORE', 'GLOBSORT', 'GROUPS', 'histchars', 'HISTCMD', 'HISTCONTROL', 'HISTFILE', 'HISTFILESIZE',
  'HISTIGNORE', 'HISTSIZE', 'HISTTIMEFORMAT', 'HOSTFILE', 'HOSTNAME', 'HOSTTYPE', 'IGNOREEOF', 'INPUTRC',
  'INSIDE_EMACS', 'LANG', 'LC_ALL', 'LC_COLLATE', 'LC_CTYPE', 'LC_MESSAGES', 'LC_NUMERIC', 'LC_TIME',
  'LINENO', 'LINES', 'MACHTYPE', 'MAILCHECK', 'MAPFILE', 'OLDPWD', 'OPTERR', 'OSTYPE', 'PIPESTATUS',
  'POSIXLY_CORRECT', 'PPID', 'PROMPT_COMMAND', 'PROMPT_DIRTRIM', 'PS0', 'PS3', 'PS4', 'PWD', 'RANDOM',
  'READLINE_ARGUMENT', 'READLINE_LINE', 'READLINE_MARK', 'READLINE_POINT', 'REPLY', 'SECONDS', 'SHELL',
  'SHELLOPTS', 'SHLVL', 'SRANDOM', 'TIMEFORMAT', 'TMOUT', 'TMPDIR', 'UID', 'auto_resume',
]);

/**
 * Shell variables whose value cannot change what runs or what it touches, each for a reason:
 * - counters, results and information bash sets (OPTARG, OPTIND, OPTERR, REPLY, MAPFILE,
 *   PIPESTATUS, BASH_REMATCH, LINENO, RANDOM, SRANDOM, SECONDS, EPOCH*, BASH_MONOSECONDS, HOST*,
 *   MACHTYPE, OSTYPE, SHLVL, BASH_VERSINFO, BASH_VERSION, BASHPID, PPID, UID, EUID, GROUPS,
 *   BASH_SUBSHELL, BASH_COMMAND, BASH_EXECUTION_STRING, BASH_TRAPSIG, the call stack arrays
 *   FUNCNAME, BASH_SOURCE, BASH_LINENO, BASH_ARGC, BASH_ARGV and BASH_ARGV0, which sets `$0`:
 *   read as unknown anyway);
 * - interactive use, history, completion, readline and mail (COMP_*, COMPREPLY, READLINE_*,
 *   HIST* but HISTFILE, histchars, IGNOREEOF, MAIL, MAILPATH, MAILCHECK, PROMPT_DIRTRIM, EMACS,
 *   INSIDE_EMACS, auto_resume, TMOUT, COLUMNS, LINES, CHILD_MAX, TIMEFORMAT, HOSTFILE);
 * - FUNCNEST: a call beyond it fails, and a failing command's alternatives are walked anyway;
 * - `_`: the last argument of the command before, which the next command resets;
 * - COPROC: a coprocess's descriptors, used through `${COPROC[1]}`, which is unknown anyway;
 * - locale (LANG, LC_*): messages, and which characters a glob's range or class holds — a glob is
 *   read as any name it could match;
 * - code variables (PS0–PS4, PROMPT_COMMAND, FCEDIT): their value is walked as code
 *   (code-variables.ts).
 */
// prettier-ignore
const INERT_SHELL_VARIABLES: ReadonlySet<string> = new Set([
  'OPTARG', 'OPTIND', 'OPTERR', 'REPLY', 'MAPFILE', 'PIPESTATUS', 'BASH_REMATCH', 'LINENO', 'RANDOM', 'SRANDOM',
  'SECONDS', 'EPOCHREALTIME', 'EPOCHSECONDS', 'BASH_MONOSECONDS', 'HOSTNAME', 'HOSTTYPE', 'MACHTYPE', 'OSTYPE',
  'SHLVL', 'BASH_VERSINFO', 'BASH_VERSION', 'BASHPID', 'PPID', 'UID', 'EUID', 'GROUPS', 'BASH_SUBSHELL',
  'BASH_COMMAND', 'BASH_EXECUTION_STRING', 'BASH_TRAPSIG', 'FUNCNAME', 'BASH_SOURCE', 'BASH_LINENO', 'BASH_ARGC',
  'BASH_ARGV', 'BASH_ARGV0',
  'COMP_CWORD', 'COMP_LINE', 'COMP_POINT', 'COMP_TYPE', 'COMP_KEY', 'COMP_WORDBREAKS', 'COMP_WORDS', 'COMPREPLY',
  'READLINE_ARGUMENT', 'READLINE_LINE', 'READLINE_MARK', 'READLINE_POINT', 'HISTCMD', 'HISTCONTROL',
  'HISTFILESIZE', 'HISTIGNORE', 'HISTSIZE', 'HISTTIMEFORMAT', 'histchars', 'IGNOREEOF', 'MAIL', 'MAILPATH',
  'MAILCHECK', 'PROMPT_DIRTRIM', 'EMACS', 'INSIDE_EMACS', 'auto_resume', 'TMOUT', 'COLUMNS', 'LINES',
  'CHILD_MAX', 'TIMEFORMAT', 'HOSTFILE',
  'FUNCNEST', 'COPROC', '_',
  'LANG', 'LC_ALL', 'LC_COLLATE', 'LC_CTYPE', 'LC_MESSAGES', 'LC_NUMERIC', 'LC_TIME',
  'PS0', 'PS1', 'PS2', 'PS3', 'PS4', 'PROMPT_COMMAND', 'FCEDIT',
]);

/**
 * Is assigning `name` (a subscript dropped) a change to how bash behaves that shellgate does not
 * follow? True for a shell variable not on the inert list.
 */
export function isUnfollowedShellVariable(name: string): boolean {
  const base = name.replace(/\[.*$/, '');
  return SHELL_VARIABLES.has(base) && !INERT_SHELL_VARIABLES.has(base);
}
