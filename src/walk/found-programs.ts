/**
 * `p=$(which python3 || which python); $p -c '…'`: a script that finds its interpreter at run
 * time. `which NAME` and `command -v NAME` print where NAME is, so the variable holds one of the
 * named programs (or nothing, and then the command fails). The walker keeps the dynamic-command
 * finding and also walks the command once as each candidate, so what the program would do is seen.
 */
import type { Assignment, Command, Word } from '../syntax/ast.js';

const FINDERS = new Set(['which', 'type', 'whence']);

/** The programs a word that is exactly `$(which A || which B …)` may print, or null. */
export function foundPrograms(value: Word | null | undefined): string[] | null {
  if (!value || value.parts.length !== 1) return null;
  const part = value.parts[0];
  if (part.type !== 'CmdSubst') return null;
  const names: string[] = [];
  return collect(part.body.body, names) && names.length > 0 ? names : null;
}

/** Every command of the list is a finder of plain names, joined by `||` (or a lone one). */
function collect(c: Command, names: string[]): boolean {
  if (c.type === 'List') {
    if (c.operators.some((o) => o !== null && o !== '||' && o !== '\n')) return false;
    return c.items.every((i) => collect(i, names));
  }
  // Only stderr may be redirected (`2>/dev/null`): anything else changes what is printed.
  if (c.type !== 'SimpleCommand' || c.assignments.length > 0 || c.redirects.some((r) => r.fd !== 2)) return false;
  const words = c.words.map(literal);
  if (words.some((w) => w === null)) return false;
  const [program, ...rest] = words as string[];
  let args = rest;
  if (program === 'command' && rest[0] === '-v') args = rest.slice(1);
  else if (!FINDERS.has(program)) return false;
  args = args.filter((a) => !a.startsWith('-'));
  if (args.length === 0 || !args.every((a) => /^[A-Za-z0-9_.+-]+$/.test(a))) return false;
  names.push(...args);
  return true;
}

function literal(w: Word): string | null {
  if (w.parts.length !== 1 || w.parts[0].type !== 'Literal') return null;
  return w.parts[0].raw;
}

/**
 * Record (or forget) what an assignment tells about a variable's program. A branch that may not
 * run only adds a reading (`certain` false keeps the earlier candidates too): more readings are
 * the stricter analysis.
 */
export function trackFoundProgram(scope: { found?: Map<string, string[]> }, name: string, a: Assignment, certain: boolean): void {
  const names = a.append || a.subscript.length > 0 ? null : foundPrograms(a.value);
  if (names !== null) {
    const before = certain ? [] : (scope.found?.get(name) ?? []);
    (scope.found ??= new Map()).set(name, [...new Set([...before, ...names])]);
  } else if (certain) scope.found?.delete(name);
}
