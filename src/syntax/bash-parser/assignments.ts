/**
 * Assignment words: recognising `name=`, `name+=` and `name[…]=` in a word's raw text (bash-parser
 * knows only the first two), and converting an assignment into shellgate's Assignment.
 */
import type { Assignment, Word, WordPart } from '../ast.js';
import type { ConvertContext } from './context.js';
import { local, spanOf, type Frame } from './frame.js';
import { backtickEnd, dqEnd, parenEnd } from './scan-ends.js';
import type { BPNode } from './tree.js';
import { isExpansion, scanUnquoted } from './words.js';

export const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
export const SUBSCRIPT_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\[/;

/** For `name[…]=` / `name[…]+=`: the index of the `=`; else -1. The subscript may hold `]` in quotes or substitutions. */
export function subscriptEnd(raw: string): number {
  const m = SUBSCRIPT_ASSIGNMENT.exec(raw);
  if (!m) return -1;
  let depth = 0;
  for (let i = m[0].length - 1; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\') i++;
    else if (c === "'") {
      const k = raw.indexOf("'", i + 1);
      if (k < 0) return -1;
      i = k;
    } else if (c === '"') {
      const k = dqEnd(raw, i, raw.length);
      i = k - 1;
    } else if (c === '$' && raw[i + 1] === '(') i = parenEnd(raw, i + 1, raw.length) - 1;
    else if (c === '`') i = backtickEnd(raw, i, raw.length) - 1;
    else if (c === '[') depth++;
    else if (c === ']') {
      depth--;
      if (depth === 0) {
        const eq = raw[i + 1] === '+' ? i + 2 : i + 1;
        return raw[eq] === '=' ? eq : -1;
      }
    }
  }
  return -1;
}

/** `name=value`, `name+=value` or `name[subscript]=value`; only expansions of the subscript are kept. */
export function assignment(ctx: ConvertContext, f: Frame, n: BPNode): Assignment {
  const loc = local(f, n)!;
  const raw = f.text.slice(loc.start, loc.end);
  const span = spanOf(f, loc.start, loc.end);
  const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(raw);
  const name = m ? m[1] : '';
  let i = name.length;
  const subscript: WordPart[] = [];
  if (raw[i] === '[') {
    const eq = subscriptEnd(raw);
    let end = i; // the `]`
    if (eq >= 0) end = raw[eq - 1] === '+' ? eq - 2 : eq - 1;
    subscript.push(...scanUnquoted(ctx, f, loc.start + i + 1, loc.start + end, false).filter(isExpansion));
    i = end + 1;
  }
  const append = raw[i] === '+';
  if (append) i++;
  i++; // '='
  const vStart = loc.start + Math.min(i, raw.length);
  const value: Word = {
    type: 'Word',
    parts: scanUnquoted(ctx, f, vStart, loc.end, true),
    raw: f.text.slice(vStart, loc.end),
    span: spanOf(f, vStart, loc.end),
  };
  return { type: 'Assignment', name, append, value, array: null, subscript, span };
}
