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
