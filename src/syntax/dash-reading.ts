/**
 * Where dash (`/bin/sh` on Debian and Ubuntu) may read a text that bash parsed into this tree so
 * that it does more than bash's reading. shellgate walks bash's tree; a body run by `sh` is safe to
 * judge from it only when every construct in it means, in dash, the same thing or less (dash
 * stops at a syntax error, a "Bad substitution" or a command it does not have, so a construct that
 * only makes dash fail is harmless: what ran before it is in bash's reading too).
 *
 * The check is a whitelist over the node kinds: each kind that dash reads as bash does is listed
 * with why; anything else (a kind added later included) is reported.
 *
 *   - `$'…'`: dash reads `$` then a single-quoted string, whose `\'` does not escape the quote, so
 *     the quotes pair differently and text bash keeps in a string runs as code.
 *   - `&>` / `&>>`: dash reads `cmd &` then `>file REST`, so the words after the file run as a
 *     command (`echo &>/dev/null rm -rf ~` deletes home in dash) and the output is not redirected.
 *   - `((…))`: two nested subshells running the words inside (`((rm = 1))` runs `rm`).
 *   - `[[ … ]]`: ordinary words, so its `<` and `>` are redirects that create or truncate files.
 *   - `function f { … }`: `function f {` is a command and the body's lines run at once.
 *   - `$"…"`, `$[…]`, extglob, `{fd}>`, `for ((`: other words, other argv; kept out rather than
 *     argued one by one.
 *
 * `{a,b}` is read as dash reads it: plain text (shell-readings.ts walks the word quoted).
 */
import type { Span } from './ast.js';
import type { NodeReading, ScannedNode } from './dialect-scan.js';

/** bash's builtins dash does not have (dash 0.5, "Builtins"): dash runs a program of that name. */
const BASH_ONLY_BUILTINS = new Set(
  'bind builtin caller compgen complete compopt declare dirs disown enable fc help history let logout mapfile popd pushd readarray shopt source suspend typeset'.split(
    ' ',
  ),
);

/** What dash reads differently in this one node (its children are read on their own), or null. */
export function readsAsDash(node: ScannedNode, text: string): NodeReading {
  const span = node.span as Span;
  const at = (prefix: string): boolean => text.startsWith(prefix, span.start);
  switch (node.type) {
    // Words: plain text, both quotings, `$x`/`${…}` (dash refuses the forms it lacks), `$(…)` and
    // backquotes, `~`, POSIX globs: read alike.
    case 'Word':
    case 'Literal':
    case 'SingleQuoted':
    case 'ParamExp':
    case 'CmdSubst':
    case 'Tilde':
      return null;
    case 'DoubleQuoted':
      // The part's span starts at the quote; a `$` just before it (even an escaped one) may make it `$"…"`.
      return at('$') || text[span.start - 1] === '$' ? '`$"…"`' : null;
    case 'ArithExp':
      return at('$[') ? '`$[…]`' : null;
    case 'Glob':
      return String(node.raw).includes('(') ? 'an extglob pattern' : null;
    case 'AnsiC':
      return "`$'…'`";
    // `{a,b}` is plain text in dash: the same word, quoted, is its reading.
    case 'Brace':
      return /^[^'"\\$`]*$/.test(String(node.raw)) ? { replace: `'${String(node.raw)}'` } : 'brace expansion `{…}`';
    // `<(…)`, `>(…)`: dash reads `<` then `(`, a syntax error that stops the shell before the
    // command runs (checked with dash 0.5: `echo a; cat <(ls)` prints nothing).
    case 'ProcSubst':
      return null;
    // A redirect: POSIX operators are read alike; `>&word` is a duplication (or an error) in dash,
    // never a file write bash would not make.
    case 'Redirect':
      // (`<<<` is a syntax error in dash: "redirection unexpected", nothing of the command runs)
      if (node.op === '&>' || node.op === '&>>') return `\`${String(node.op)}\``;
      return at('{') ? 'a named file descriptor `{fd}>`' : null;
    // `a=(…)` is a syntax error in dash: nothing of that command runs. `a+=x` and `a[i]=x` are
    // not assignments there but a command of that name, looked up in PATH: another command than
    // bash's reading has (the real dash runs it in the oracle), so it asks.
    case 'Assignment':
      if (node.append === true) return '`+=` (a command name in dash)';
      return text[span.start + String(node.name).length] === '[' ? 'an array element assignment (a command name in dash)' : null;
    case 'SimpleCommand': {
      // a bash builtin dash does not have is a program looked up in PATH there
      const first = (node.words as { raw: string; parts: ScannedNode[] }[])[0];
      return first?.parts.length === 1 && first.parts[0].type === 'Literal' && BASH_ONLY_BUILTINS.has(first.raw)
        ? `\`${first.raw}\`, which is no builtin there (a program of that name in PATH runs)`
        : null;
    }
    case 'Subshell':
    case 'Group':
    case 'If':
    case 'While':
    case 'Case':
      return null;
    // `cmd &`; a coproc is parsed as one, and dash reads `coproc` as a command name.
    case 'List':
      return at('coproc') ? '`coproc`' : null;
    // `|&` is a syntax error in dash.
    case 'Pipeline':
      return null;
    // `select` is a command name in dash, then `do` a syntax error.
    case 'For':
      return null;
    case 'FunctionDef':
      return at('function') ? '`function NAME`' : null;
    case 'TestCommand':
      return node.bracket === '[[' ? '`[[ … ]]`' : null;
    case 'ArithCommand':
      return '`((…))`';
    case 'ArithFor':
      return '`for ((…))`';
    // Already asks on its own.
    case 'Unparsed':
    case 'Script':
      return null;
    default:
      return `\`${String(node.type)}\``;
  }
}
