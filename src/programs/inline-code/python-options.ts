/**
 * Python's command-line options (and the variables that stand for them) a proven run may carry:
 * a whitelist. Everything else — `-i` (goes interactive, reading stdin as code), `-O` (other
 * compiled files), `-X` options not listed, `-W` with a category (imported by its module name:
 * `-W ignore::unittest.__main__.X` imports unittest's main, which runs the tests it finds) — leaves
 * the command unproven.
 */

/** Flags that change neither what runs nor where modules come from (-I and -P even take the working directory off the path). */
export const PYTHON_HARMLESS_FLAGS: ReadonlySet<string> = new Set(['-B', '-E', '-I', '-P', '-s', '-S', '-u', '-q', '-b', '-bb']);

const WARNING_ACTIONS = ['default', 'always', 'ignore', 'module', 'once', 'error'];

/**
 * A `-W` value (or one entry of `$PYTHONWARNINGS`) that only sets an action (`ignore`, `error`, an
 * abbreviation as warnings._getaction reads it): with no category nothing is imported. A message
 * (a regular expression), a category or a module: not harmless.
 */
export function warningActionOnly(value: string): boolean {
  const action = value.trim();
  return !action.includes(':') && (action === 'all' || WARNING_ACTIONS.some((a) => a.startsWith(action)));
}

/** `-X` values checked to import nothing and run nothing: UTF-8 mode and the integer-digits limit. */
export function harmlessXOption(value: string): boolean {
  return /^(?:utf8(?:=[01])?|int_max_str_digits=[0-9]+)$/.test(value);
}
