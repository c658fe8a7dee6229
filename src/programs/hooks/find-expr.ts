/**
 * find's expression as a tree (GNU findutils 4.9 `man find`, OPERATORS): `,` binds loosest, then
 * `-o`, then `-a` (also implied between two primaries), then `!`/`-not`, and `( … )` groups.
 * Each primary takes the number of words its table says; a word the tables do not know, or one
 * only known at run time, makes the whole expression unknown (null): then nothing narrows.
 *
 * What the tree is for: which tests a file must have passed to reach an action (`-exec`,
 * `-print`). Only a test that is a conjunct on the action's own path — every way to the action
 * goes through it being true — narrows the files the action sees. A test in another `-o`
 * branch, under `!`, or left of a `,` narrows nothing (`find ~ -name '*.pyc' -o -delete` deletes
 * what does not match).
 */
import type { Arg } from '../../expand/arg.js';

export type FindNode =
  { kind: 'primary'; at: number; name: string; operands: Arg[] } | { kind: 'and' | 'or' | 'comma'; children: FindNode[] } | { kind: 'not'; child: FindNode };

/** How many words after it a primary takes; `exec` runs to `;`, or to a `+` right after `{}`. */
export type Arity = number | 'exec';

/**
 * The word after `-exec`'s command that ends it: `;`, or `+` when the word before is exactly
 * `{}` (GNU and BSD; any other `+` is an argument). Returns args.length when there is none.
 */
export function execEnd(args: readonly Arg[], start: number): number {
  for (let k = start; k < args.length; k++) {
    if (args[k].value === ';') return k;
    if (args[k].value === '+' && k > start && args[k - 1].value === '{}') return k;
  }
  return args.length;
}

/**
 * The word at which an `-exec`-like primary starts that surely has no end: GNU findutils 4.9 then
 * refuses the whole command line ("missing argument to `-exec'") before it runs any action, and
 * BSD find does too ("no terminating ";" or "+""). Surely: the expression is read word by word
 * with the primaries' arities (so `-name -exec` is a pattern, not an action), and every word is
 * known text — a variable may expand to `;` or to a primary that takes the next word, and a glob
 * may match a file named `;` planted in the workspace. Null otherwise, and for a word no table
 * knows (its arity, hence where the actions start, is not known).
 */
export function unterminatedExec(args: readonly Arg[], start: number, arity: (primary: string) => Arity | null): number | null {
  if (args.slice(start).some((a) => a.dynamic || a.glob)) return null;
  for (let i = start; i < args.length; i++) {
    const v = args[i].value;
    if (OPERATORS.has(v)) continue;
    const n = arity(v);
    if (n === null) return null;
    if (n !== 'exec') {
      i += n;
      continue;
    }
    const end = execEnd(args, i + 1);
    if (end >= args.length) return i;
    i = end;
  }
  return null;
}

const OPERATORS = new Set(['(', ')', '!', '-not', '-o', '-or', '-a', '-and', ',']);

/** Parse find's expression from `start`; null when any word is unknown, dynamic or out of place. */
export function parseFindExpression(args: readonly Arg[], start: number, arity: (primary: string) => Arity | null): FindNode | null {
  let i = start;
  const peek = (): string | null => (i < args.length ? args[i].value : null);

  const list = (): FindNode => {
    const parts = [or()];
    while (peek() === ',') {
      i++;
      parts.push(or());
    }
    return parts.length === 1 ? parts[0] : { kind: 'comma', children: parts };
  };
  const or = (): FindNode => {
    const parts = [and()];
    while (peek() === '-o' || peek() === '-or') {
      i++;
      parts.push(and());
    }
    return parts.length === 1 ? parts[0] : { kind: 'or', children: parts };
  };
  const and = (): FindNode => {
    const parts = [unary()];
    for (;;) {
      const v = peek();
      if (v === null || v === ')' || v === ',' || v === '-o' || v === '-or') break;
      if (v === '-a' || v === '-and') i++;
      parts.push(unary());
    }
    return parts.length === 1 ? parts[0] : { kind: 'and', children: parts };
  };
  const unary = (): FindNode => {
    if (i >= args.length || args[i].dynamic) throw new NotFind();
    const v = args[i].value;
    if (v === '!' || v === '-not') {
      i++;
      return { kind: 'not', child: unary() };
    }
    if (v === '(') {
      i++;
      const inner = list();
      if (peek() !== ')') throw new NotFind();
      i++;
      return inner;
    }
    const n = arity(v);
    if (n === null || v === ')' || v === ',' || v === '-o' || v === '-or' || v === '-a' || v === '-and') throw new NotFind();
    const at = i;
    if (n === 'exec') {
      const end = execEnd(args, i + 1);
      if (end >= args.length) throw new NotFind();
      i = end + 1;
      return { kind: 'primary', at, name: v, operands: args.slice(at + 1, end) };
    }
    if (at + n >= args.length) throw new NotFind();
    const operands = args.slice(at + 1, at + 1 + n);
    if (operands.some((o) => o.dynamic)) throw new NotFind();
    i = at + 1 + n;
    return { kind: 'primary', at, name: v, operands };
  };

  try {
    if (start >= args.length) return { kind: 'and', children: [] };
    const tree = list();
    return i === args.length ? tree : null;
  } catch (e) {
    if (e instanceof NotFind) return null;
    throw e;
  }
}

class NotFind extends Error {}

/**
 * The tests that hold for every file reaching the primary at word `at`: the conjuncts before it
 * on its path (left siblings under an `and`), and what they in turn require. A test under an
 * `or` or a `not`, or left of a `,`, is not required. Empty when `at` is not in the tree.
 */
export function requiredBefore(tree: FindNode, at: number): FindNode[] {
  const out: FindNode[] = [];
  const walk = (n: FindNode): boolean => {
    if (n.kind === 'primary') return n.at === at;
    if (n.kind === 'not') return walk(n.child);
    for (let k = 0; k < n.children.length; k++) {
      if (!walk(n.children[k])) continue;
      if (n.kind === 'and') for (const left of n.children.slice(0, k)) out.push(...requiredTrue(left));
      return true;
    }
    return false;
  };
  walk(tree);
  return out;
}

/** The tests that hold whenever `n` is true: itself, or every conjunct of an `and`. */
export function requiredTrue(n: FindNode): FindNode[] {
  if (n.kind === 'primary') return [n];
  if (n.kind === 'and') return n.children.flatMap(requiredTrue);
  return [];
}
