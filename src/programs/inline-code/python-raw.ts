/**
 * The raw-text half of a Python proof. The whitelist walk (python.ts) reads the code through a
 * hand tokenizer, which decides what is a string or a comment; if it ever reads that differently
 * from Python (a carriage return ends a comment, a quote form it does not know), code it took for
 * text would run unchecked. So the proof also rests on the raw text, strings and comments
 * included: every word that could do harm wherever it stands must be, at that very place, a name
 * the walk checked. Code hidden from the walk then holds none of them, and without them it can
 * only compute on literals, the pure builtins and the code's own variables (data, files opened
 * for reading): it can write, run, import or reach the interpreter's internals only through
 * - a builtin that is not pure (`eval`, `open`, `getattr`, `vars`, `breakpoint`, `input` — which
 *   Python 2 evaluates…): the caller passes them as `guarded`;
 * - `import`, `.encode`/`.decode` (a codec name imports a module), and any name the code binds to a module (`json.codecs.open`, `os.remove`): `guarded`
 *   and `modules` (a module name right after a dot is an attribute, as in `open('a.json')`);
 * - a dunder (`__import__`, `__class__`, `__globals__`), so no `__` may appear anywhere at all;
 * - the attributes of frames, code objects, tracebacks, generators and coroutines, which reach
 *   builtins and globals without a dunder (`gen.gi_frame.f_builtins`): every word with their
 *   prefixes (`f_`, `tb_`, `gi_`, `cr_`, `ag_`, `co_`, and Python 2's `im_`, `func_`).
 * Text NFKC changes is refused: Python folds such letters into names (`ｅｖａｌ` is `eval`).
 */
import type { PyToken } from './python-tokens.js';

const INTERNAL_ATTRIBUTE = /^(?:f|tb|gi|cr|ag|co|im|func)_/;

/** Why the raw text is not covered by the walk, or null when it is. */
export function uncheckedWord(code: string, tokens: readonly PyToken[], guarded: ReadonlySet<string>, modules: ReadonlySet<string>): string | null {
  if (code.normalize('NFKC') !== code) return 'the code has characters Python may read as other letters';
  if (code.includes('__')) return '`__` appears in the code: a dunder reaches the interpreter’s internals';
  const checked = new Set(tokens.filter((t) => t.kind === 'name').map((t) => t.start));
  for (const m of code.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    const word = m[0];
    const at = m.index;
    const dangerous = guarded.has(word) || INTERNAL_ATTRIBUTE.test(word) || (modules.has(word) && code[at - 1] !== '.');
    if (dangerous && !checked.has(at)) return `\`${word}\` appears where the code was not read as code (in a string or a comment?)`;
  }
  return null;
}
