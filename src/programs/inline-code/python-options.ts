/**
 * Python's command-line options (and the variables that stand for them) a proven run may carry:
 * a whitelist. Everything else — `-i` (goes interactive, reading stdin as code), `-O` (other
 * compiled files), `-X` options not listed, `-W` with a dotted category — leaves the command
 * unproven.
 */

/** Flags that change neither what runs nor where modules come from (-I and -P even take the working directory off the path). */
export const PYTHON_HARMLESS_FLAGS: ReadonlySet<string> = new Set(['-B', '-E', '-I', '-P', '-s', '-S', '-u', '-q', '-b', '-bb']);

const WARNING_ACTIONS = ['default', 'always', 'ignore', 'module', 'once', 'error'];

/**
 * A `-W` value (or one entry of `$PYTHONWARNINGS`), `action:message:category:module:lineno`, that
 * imports nothing: the action as warnings._getaction reads it (a prefix of a known one, or
 * `all`), and a category that is a builtin's name (`DeprecationWarning`) or empty. A dotted
 * category is imported by its module's name (`ignore::unittest.__main__.X` imports unittest's
 * main, which runs the tests it finds). The message and module are regular expressions, compiled
 * by `re`, which Python has loaded at startup.
 */
export function harmlessWarningOption(value: string): boolean {
  const [action, , category = '', , lineno = ''] = value.split(':').map((p) => p.trim());
  if (value.split(':').length > 5) return false;
  const knownAction = action === 'all' || WARNING_ACTIONS.some((a) => a.startsWith(action));
  return knownAction && /^(?:[A-Za-z_][A-Za-z0-9_]*)?$/.test(category) && /^[0-9]*$/.test(lineno);
}

/** `-X` values checked to import nothing and run nothing: UTF-8 mode and the integer-digits limit. */
export function harmlessXOption(value: string): boolean {
  return /^(?:utf8(?:=[01])?|int_max_str_digits=[0-9]+)$/.test(value);
}

/** Codecs Python has built in (no search beyond the `encodings` package), and its error handlers. */
const STDLIB_CODEC = /^(?:utf-?8|utf-?16(?:-?[bl]e)?|utf-?32(?:-?[bl]e)?|ascii|us-ascii|latin-?1|iso-?8859-?1|cp1252)$/i;
const CODEC_ERRORS = new Set(['strict', 'ignore', 'replace', 'backslashreplace', 'surrogateescape', 'surrogatepass', 'xmlcharrefreplace', 'namereplace']);

/**
 * The `PYTHON*` environment variables a proven run may see, each with the values proven to be
 * data: a whitelist. Any other `PYTHON*` name (PYTHONSTARTUP, PYTHONHOME, PYTHONBREAKPOINT — which
 * names a callable to import —, PYTHONUSERBASE, PYTHONEXECUTABLE, PYTHONPYCACHEPREFIX, a name added
 * by the next Python) is not proven harmless. PYTHONPATH, PYTHONWARNINGS and PYTHONSAFEPATH are
 * followed by python-path.ts itself.
 */
// Laid out by hand: one name a line.
// prettier-ignore
const PYTHON_VARIABLES: ReadonlyMap<string, (value: string) => boolean> = new Map<string, (value: string) => boolean>([
  ['PYTHONUNBUFFERED', () => true], // unbuffered stdout and stderr
  ['PYTHONDONTWRITEBYTECODE', () => true], // writes no .pyc
  ['PYTHONNOUSERSITE', () => true], // drops the user site directory: less code, not more
  ['PYTHONFAULTHANDLER', () => true], // tracebacks on a crash
  ['PYTHONNODEBUGRANGES', () => true], // smaller code objects
  ['PYTHONHASHSEED', (v) => v === 'random' || /^\d{1,10}$/.test(v)],
  ['PYTHONUTF8', (v) => v === '0' || v === '1'],
  ['PYTHONCOERCECLOCALE', (v) => v === '0' || v === '1' || v === 'warn'],
  ['PYTHONINTMAXSTRDIGITS', (v) => /^\d{1,10}$/.test(v)],
  ['PYTHONIOENCODING', (v) => { const [codec, errors, ...rest] = v.split(':'); return rest.length === 0 && (codec === '' || STDLIB_CODEC.test(codec)) && (errors === undefined || errors === '' || CODEC_ERRORS.has(errors)); }],
]);

/** Is `NAME=value` one of the Python variables proven to change neither what runs nor where code comes from? */
export function harmlessPythonVariable(name: string, value: string | null | undefined): boolean {
  const check = PYTHON_VARIABLES.get(name);
  if (check === undefined) return false;
  return typeof value === 'string' ? check(value) : check('$(x)') && check('/');
}
