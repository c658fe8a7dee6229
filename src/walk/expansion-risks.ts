/**
 * Expansions that are riskier than they look: arithmetic that evaluates unknown values, loops that
 * never end, variables of the environment that may hold a secret.
 */
import type { Command, WordPart } from '../syntax/ast.js';
import type { Scope } from './scope.js';
import { sourceText, type SourceFrame } from './source-frame.js';
import { READABLE_VARIABLES } from '../programs/inline-code/proof.js';

/** `while :`, `while true`, `until false`, `for ((;;))`. */
export function isInfinite(cmd: Command, frame: SourceFrame): boolean {
  if (cmd.type === 'ArithFor') return /\(\(\s*[^;]*;\s*;/.test(sourceText(frame, cmd.span));
  if (cmd.type !== 'While' || cmd.condition.items.length !== 1) return false;
  const c = cmd.condition.items[0];
  if (c.type !== 'SimpleCommand' || c.words.length !== 1) return false;
  const w = c.words[0].raw;
  return cmd.until ? w === 'false' : w === 'true' || w === ':';
}

/**
 * Variables known to hold no secret: the ones every session has (READABLE_VARIABLES, shared with
 * the one-liner provers) and bash's own, which bash sets itself. A whitelist: any other variable of
 * the environment may hold a secret whatever its name (`$DB_PASS`, `$GH_PAT`, `$X`).
 */
// Laid out by hand: one group of related names a line.
// prettier-ignore
const NO_SECRET_VARIABLES: ReadonlySet<string> = new Set([
  ...READABLE_VARIABLES, 'OLDPWD', 'LANGUAGE', 'LC_CTYPE', 'LC_MESSAGES', 'COLUMNS', 'LINES', 'SHLVL', 'IFS',
  'BASH', 'BASH_VERSION', 'BASH_VERSINFO', 'BASHPID', 'BASH_SUBSHELL', 'BASH_SOURCE', 'BASH_LINENO', 'BASH_COMMAND', 'FUNCNAME',
  'RANDOM', 'SRANDOM', 'LINENO', 'SECONDS', 'EPOCHSECONDS', 'EPOCHREALTIME', 'PPID', 'UID', 'EUID', 'GROUPS', 'PIPESTATUS',
  'HOSTTYPE', 'MACHTYPE', 'OSTYPE', 'OPTIND', 'OPTARG', 'HISTFILE', 'HISTSIZE', 'HISTFILESIZE', 'HISTCONTROL', 'PS1', 'PS2', 'PS4',
  '__shellgate_parallel_input', // parallel-jobs.ts: stands for an input read from stdin, not the environment
]);

/**
 * Could expanding this parameter put the value of an environment variable that may hold a secret
 * into a command's arguments (and so into the output the agent reads)? Not for special and
 * positional parameters (`$?`, `$#`, `$1`), the whitelist above, a variable the line assigned
 * (its value came from the line; a secret copied into it was caught where it was expanded), and
 * `${X+word}` / `${X:+word}`, which expand to `word`, never to X's value.
 */
export function mayExpandSecret(name: string, raw: string, scope: Scope): boolean {
  if (name === '' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return false;
  if (NO_SECRET_VARIABLES.has(name) || scope.vars.has(name)) return false;
  return !new RegExp(`^\\$\\{${name}:?\\+`).test(raw);
}

const NUMERIC_SPECIAL = new Set(['#', '?', '$', '!']);
const ARITH_WORDS = new Set(['if', 'then', 'else']);

/**
 * Does an arithmetic context evaluate something unknown? bash evaluates variable values in
 * arithmetic recursively, and an array subscript inside such a value runs its substitutions.
 */
export function arithmeticRisk(raw: string, inner: WordPart[], scope: Scope): boolean {
  const known = (name: string) => {
    const v = scope.vars.get(name);
    return typeof v === 'string' && /^-?\d+$/.test(v);
  };
  for (const p of inner) {
    if (p.type === 'CmdSubst' || p.type === 'ProcSubst') return true;
    if (p.type === 'ParamExp' && !NUMERIC_SPECIAL.has(p.name) && !known(p.name)) return true;
  }
  // `$v` / `${v}` written in the text: its value is evaluated as arithmetic too.
  for (const m of raw.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)) if (!known(m[1])) return true;
  // Bare names: `$(( v ))` evaluates v's value. Names assigned inside the expression are fine.
  const bare = raw.replace(/\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_0-9#?$!@*-]+/g, ' ').replace(/\b\d+#[0-9A-Za-z@_]+/g, ' ');
  for (const m of bare.matchAll(/(?<![0-9A-Za-z_])([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const name = m[1];
    if (ARITH_WORDS.has(name) || known(name)) continue;
    const assigned =
      new RegExp(`(?<![A-Za-z0-9_])${name}\\s*(=(?!=)|\\+\\+|--|[-+*/%]=)`).test(bare) || new RegExp(`(\\+\\+|--)\\s*${name}(?![A-Za-z0-9_])`).test(bare);
    if (!assigned) return true;
  }
  return false;
}

/**
 * The variables an arithmetic expression assigns (`x=1`, `x+=2`, `x++`, `--x`, `a[i]=3`): bash
 * stores them as the expression runs, so `((IFS=0))` changes how later words split.
 */
export function arithmeticAssignedNames(raw: string): string[] {
  const out = new Set<string>();
  const text = raw.replace(/\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_0-9#?$!@*-]+/g, ' ');
  for (const m of text.matchAll(/(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\])?\s*(?:=(?!=)|\+\+|--|(?:\*\*|<<|>>|[-+*/%&|^])=)/g)) out.add(m[1]);
  for (const m of text.matchAll(/(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)/g)) out.add(m[1]);
  return [...out];
}

/**
 * The arithmetic inside a parameter expansion: an array subscript (`${a[i]}`, `${#a[i]}`,
 * `${a[i]:-x}`; not `@`/`*`) and a substring's offset and length (`${x:i:j}`, `${x: -1}`). bash
 * evaluates them, so an unknown value there can run `$(…)` hidden in it. Associative arrays are
 * not known here: a subscript is taken as arithmetic (the stricter reading).
 */
export function arithmeticOperands(raw: string): string[] {
  const m = /^\$\{[!#]?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])(?:\[([^\]]*)\])?(.*)\}$/s.exec(raw);
  if (!m) return [];
  const out: string[] = [];
  if (m[2] !== undefined && m[2] !== '@' && m[2] !== '*') out.push(m[2]);
  const rest = m[3];
  // `:` not followed by one of `-=?+` is a substring: `${x:off}` / `${x:off:len}`.
  if (rest.startsWith(':') && !/^:[-=?+]/.test(rest)) {
    const body = rest.slice(1);
    const colon = topLevelColon(body);
    out.push(colon < 0 ? body : body.slice(0, colon));
    if (colon >= 0) out.push(body.slice(colon + 1));
  }
  return out.filter((e) => e.trim() !== '');
}

/** The first `:` not inside parentheses, brackets or a nested `${…}`. */
function topLevelColon(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    else if (ch === ':' && depth === 0) return i;
  }
  return -1;
}
