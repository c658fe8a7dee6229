/**
 * How many times a loop's body runs, when its header says so: `for i in {1..5000}`,
 * `for i in $(seq 1 100000)`, `for ((i = 0; i < 300; i++))`, a list of words. The resource-abuse
 * rules read it (context.loopPasses) to tell a handful of background jobs from thousands.
 */
import type { ArithFor, For, While, Word } from '../syntax/ast.js';
import { sourceText, type SourceFrame } from './source-frame.js';
import { isInfinite } from './expansion-risks.js';

/** `{1..5000}`, `{0..100..5}`: bash's sequence expression. */
const BRACE_RANGE = /^\{(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?\}$/;

/** `$(seq 1 100000)`, `` `seq 5000` ``, `$(seq -w 1 2 99)`: numbers only, options that do not change the count. */
const SEQ_SUBSTITUTION = /^(?:\$\(|`)\s*seq\s+(?:-[ws]\s+(?:\S+\s+)?)*((?:-?\d+\s+){0,2}-?\d+)\s*(?:\)|`)$/;

/** A word with nothing bash would expand: one pass of the loop. */
const PLAIN_WORD = /^[\w./:@%+,=-]+$|^'[^']*'$/;

/** How many values `first`, `step`, `last` give (seq's and the brace range's arithmetic). */
function rangeCount(first: number, last: number, step: number): number {
  if (step === 0) return Infinity;
  const n = Math.floor((last - first) / step) + 1;
  return n > 0 ? n : 0;
}

/** Passes contributed by one word of a `for … in` list; null when it is not known. */
function wordPasses(w: Word): number | null {
  const brace = BRACE_RANGE.exec(w.raw);
  if (brace) {
    const [a, b] = [Number(brace[1]), Number(brace[2])];
    const step = Math.abs(Number(brace[3] ?? 1)) || 1;
    return rangeCount(Math.min(a, b), Math.max(a, b), step);
  }
  const seq = SEQ_SUBSTITUTION.exec(w.raw);
  if (seq) {
    const n = seq[1].trim().split(/\s+/).map(Number);
    if (n.length === 1) return rangeCount(1, n[0], 1);
    if (n.length === 2) return rangeCount(n[0], n[1], 1);
    return rangeCount(n[0], n[2], n[1]);
  }
  return PLAIN_WORD.test(w.raw) ? 1 : null;
}

/** `init; cond; update` of a C-style for, when it counts one variable from a number to a number. */
const ARITH_HEADER =
  /^for\s*\(\(\s*(\w+)\s*=\s*(-?\d+)\s*;\s*(\w+)\s*(<=|<|>=|>)\s*(-?\d+)\s*;\s*(?:(\w+)\s*(\+\+|--|\+=\s*\d+|-=\s*\d+)|(\+\+|--)\s*(\w+))\s*\)\)/;

/** The change one update makes: `++` 1, `--` -1, `+=5` 5, `-=2` -2. */
function stepOf(update: string): number {
  if (update === '++') return 1;
  if (update === '--') return -1;
  const n = Number(update.slice(2));
  return update.startsWith('+=') ? n : -n;
}

function arithPasses(cmd: ArithFor, frame: SourceFrame): number | null {
  const m = ARITH_HEADER.exec(sourceText(frame, cmd.span));
  if (!m) return null;
  const name = m[1];
  if (m[3] !== name || (m[6] ?? m[9]) !== name) return null;
  const [from, to] = [Number(m[2]), Number(m[5])];
  const step = stepOf((m[7] ?? m[8]).replace(/\s+/g, ''));
  const inclusive = m[4] === '<=' || m[4] === '>=';
  const upward = m[4].startsWith('<');
  if (upward !== step > 0) return step === 0 ? Infinity : 0;
  const last = inclusive ? to : to - Math.sign(step);
  return upward ? rangeCount(from, last, step) : rangeCount(last, from, -step);
}

/**
 * The number of passes of a loop: Infinity for one that never ends (`while :`, `for ((;;))`),
 * null when the header does not say (a variable list, a `while` with a real condition).
 */
export function loopPasses(cmd: For | ArithFor | While, frame: SourceFrame): number | null {
  if (isInfinite(cmd, frame)) return Infinity;
  if (cmd.type === 'While') return null;
  if (cmd.type === 'ArithFor') return arithPasses(cmd, frame);
  if (cmd.items === null) return null;
  let total = 0;
  for (const w of cmd.items) {
    const n = wordPasses(w);
    if (n === null) return null;
    total += n;
  }
  return total;
}

/** The passes of a loop nested in `outer`'s loops: they multiply, and an unknown count anywhere leaves the total unknown. */
export function nestedPasses(outer: { loop: boolean; loopPasses: number | null }, passes: number | null): number | null {
  if (!outer.loop) return passes;
  if (outer.loopPasses === null || passes === null) return null;
  return outer.loopPasses * passes;
}
