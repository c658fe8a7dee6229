/**
 * What shellgate knows about environment variables a command line sets.
 *
 * The rule is turned around on purpose: a variable put into a program's environment (a prefix
 * `NAME=v prog`, `env NAME=v prog`, `export NAME=v`, an assignment under `set -a`) changes what
 * that program does unless the name is known to be inert — programs read far more variables than
 * any list of dangerous ones holds (`TAR_OPTIONS`, `GCONV_PATH`, `OPENSSL_CONF`, `RUSTC_WRAPPER`…).
 * So only the short list below is let through; every other name asks (env-hijack).
 *
 * A bare `NAME=v` (no program, not exported) only sets a shell variable, unless NAME is already in
 * the environment: then every later program sees the new value. The names in `HIJACK_VARIABLES`
 * are such variables (usually exported, read by programs to decide what to run or load).
 */

/**
 * Names a program reads only for presentation, locale or time: setting them cannot make it run,
 * load, read or write anything else. Keep this list short and justified.
 */
// Laid out by hand: one group of related names a line.
// prettier-ignore
const INERT_VARIABLES = new Set([
  'LANG', 'LANGUAGE', // locale selection (LC_* below); the locale data path (LOCPATH) is not inert
  'TZ', // time zone name
  'TERM', 'COLORTERM', 'COLUMNS', 'LINES', // terminal type and size
  'NO_COLOR', 'FORCE_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE', // colour on/off
  'CI', // "running in CI": output style of test runners and installers
  'DEBUG', // log verbosity of node's `debug` and similar
  'RUST_BACKTRACE', 'RUST_LOG', // Rust diagnostics
  'PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'PYTHONIOENCODING', 'PYTHONHASHSEED', // Python output and caching
]);

export function isInertVariable(name: string): boolean {
  return INERT_VARIABLES.has(name) || /^LC_[A-Z]+$/.test(name);
}

/** Variables that change what later commands run or load, and that are usually in the environment. */
// Laid out by hand: one group of related names a line.
// prettier-ignore
export const HIJACK_VARIABLES = new Set([
  'PATH', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH', 'BASH_ENV', 'ENV',
  'PROMPT_COMMAND', 'IFS', 'PAGER', 'MANPAGER', 'GIT_PAGER', 'LESSOPEN', 'LESSCLOSE', 'EDITOR', 'VISUAL', 'GIT_EDITOR',
  'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_EXEC_PATH', 'GIT_CONFIG_GLOBAL', 'GIT_DIR', 'GIT_WORK_TREE', 'PYTHONPATH', 'PYTHONSTARTUP',
  'NODE_OPTIONS', 'NODE_PATH', 'PERL5LIB', 'PERL5OPT', 'RUBYOPT', 'RUBYLIB', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'HISTFILE',
  'SSH_ASKPASS', 'SUDO_ASKPASS', 'RIPGREP_CONFIG_PATH', 'LESSKEY', 'LESSKEYIN', 'LESS', 'MANOPT', 'BROWSER', 'TERMINAL', 'SHELL', 'CDPATH',
  'GLOBIGNORE', 'FIGNORE', 'HOSTALIASES', 'TMPDIR', 'HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'ZDOTDIR', 'CURL_HOME', 'WGETRC',
  'DOCKER_HOST', 'KUBECONFIG', 'http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'npm_config_script_shell',
  'TAR_OPTIONS', 'GCONV_PATH', 'OPENSSL_CONF', 'OPENSSL_ENGINES', 'RUSTC_WRAPPER', 'RUSTC', 'RUSTFLAGS', 'CARGO_HOME', 'GOFLAGS',
  'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'MAKEFLAGS', 'GREP_OPTIONS', 'GNUPGHOME', 'SSLKEYLOGFILE', 'LOCPATH', 'NLSPATH',
]);

/** Prefixes of variable families that configure what programs run or load. */
const HIJACK_PREFIXES = /^(LD_|DYLD_|GIT_|PYTHON|PERL|RUBY|npm_config_|NPM_CONFIG_|BASH_FUNC_|CARGO_)/;

export function isHijackVariable(name: string): boolean {
  if (isInertVariable(name)) return false;
  return HIJACK_VARIABLES.has(name) || HIJACK_PREFIXES.test(name);
}

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
