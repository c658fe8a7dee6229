/**
 * Repairs for places where tree-sitter-bash reads bash differently from bash. Each is small and
 * named for the input that shows it; the converter applies them while building our AST.
 */
import type { TSNode } from './ts-node.js';
import type { Word, WordPart } from '../ast.js';

/**
 * tree-sitter-bash does not know `<>`: it parses `<`, then an ERROR holding `>`; or, inside a
 * `{ …; }` group, an ERROR holding `<`, then `>`.
 */
export function isReadWriteRedirect(n: TSNode): boolean {
  if (n.type !== 'ERROR' || n.parent?.type !== 'file_redirect') return false;
  return (n.text === '>' && n.previousSibling?.type === '<') || (n.text === '<' && n.nextSibling?.type === '>');
}

/**
 * Words with no blank between them are one word for bash. tree-sitter sometimes splits one, as in
 * `rm$IFS-rf$IFS/` (it ends the first at a bare `$` and starts `IFS/` anew): join them again, and
 * turn the `$` + name across the cut back into the parameter expansion it is.
 */
export function joinAdjacentWords(words: Word[]): Word[] {
  const out: Word[] = [];
  for (const w of words) {
    const prev = out[out.length - 1];
    if (!prev || prev.span.end !== w.span.start) {
      out.push(w);
      continue;
    }
    const parts: WordPart[] = [...prev.parts];
    const last = parts[parts.length - 1];
    const first = w.parts[0];
    const name = first?.type === 'Literal' ? /^[A-Za-z_][A-Za-z0-9_]*/.exec(first.raw)?.[0] : undefined;
    if (last?.type === 'Literal' && last.raw.endsWith('$') && !last.raw.endsWith('\\$') && name) {
      const dollarAt = last.span.end - 1;
      if (last.raw.length > 1) parts[parts.length - 1] = { ...last, raw: last.raw.slice(0, -1), span: { start: last.span.start, end: dollarAt } };
      else parts.pop();
      const lit = first as Extract<WordPart, { type: 'Literal' }>;
      parts.push({ type: 'ParamExp', name, plain: true, inner: [], raw: '$' + name, span: { start: dollarAt, end: lit.span.start + name.length } });
      if (lit.raw.length > name.length)
        parts.push({ ...lit, raw: lit.raw.slice(name.length), span: { start: lit.span.start + name.length, end: lit.span.end } });
      parts.push(...w.parts.slice(1));
    } else parts.push(...w.parts);
    out[out.length - 1] = { type: 'Word', parts, raw: prev.raw + w.raw, span: { start: prev.span.start, end: w.span.end } };
  }
  return out;
}

/**
 * `` echo `date` `hostname` ``: tree-sitter reads both backquotes as one node, which the
 * backquote reading splits with the blank between them as a literal part. An unquoted blank
 * separates words, so the word is cut there.
 */
export function splitAtBlanks(words: Word[]): Word[] {
  const out: Word[] = [];
  for (const w of words) {
    if (!w.parts.some((p) => p.type === 'Literal' && /^\s+$/.test(p.raw))) {
      out.push(w);
      continue;
    }
    let parts: WordPart[] = [];
    const flush = () => {
      if (parts.length === 0) return;
      const span = { start: parts[0].span.start, end: parts[parts.length - 1].span.end };
      out.push({ type: 'Word', parts, raw: w.raw.slice(span.start - w.span.start, span.end - w.span.start), span });
      parts = [];
    };
    for (const p of w.parts) {
      if (p.type === 'Literal' && /^\s+$/.test(p.raw)) flush();
      else parts.push(p);
    }
    flush();
  }
  return out;
}
