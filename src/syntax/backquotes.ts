/**
 * Backquote substitutions, read the way bash reads them. tree-sitter-bash reads `` `id` `rm x` ``
 * as one substitution and does not see `` \` `` nested inside one. bash scans from a backquote to
 * the next unescaped one and, inside, drops the backslash before `$`, `` ` `` and `\`; the
 * result is parsed as a script of its own.
 */
import type { Span, WordPart } from './ast.js';

export interface BackquotePiece {
  /** Literal text between substitutions, or the unescaped body of one. */
  kind: 'text' | 'subst';
  text: string;
  span: Span;
}

/** Split the text of a backquote node into substitutions and the text between them. */
export function backquotePieces(raw: string, offset: number): BackquotePiece[] | null {
  const out: BackquotePiece[] = [];
  let i = 0;
  let textStart = 0;
  while (i < raw.length) {
    if (raw[i] === '\\') {
      i += 2;
      continue;
    }
    if (raw[i] !== '`') {
      i++;
      continue;
    }
    if (i > textStart) out.push({ kind: 'text', text: raw.slice(textStart, i), span: { start: offset + textStart, end: offset + i } });
    let j = i + 1;
    for (; j < raw.length && raw[j] !== '`'; j++) if (raw[j] === '\\') j++;
    if (j >= raw.length) return null; // unterminated: leave it to the parser's own reading
    out.push({ kind: 'subst', text: unescapeBackquoteBody(raw.slice(i + 1, j)), span: { start: offset + i, end: offset + j + 1 } });
    i = j + 1;
    textStart = i;
  }
  if (textStart < raw.length) out.push({ kind: 'text', text: raw.slice(textStart), span: { start: offset + textStart, end: offset + raw.length } });
  return out;
}

/** The command text of a backquote body: bash drops the backslash before `$`, `` ` `` and `\`. */
export function unescapeBackquoteBody(body: string): string {
  return body.includes('\\') ? body.replace(/\\([$`\\])/g, '$1') : body;
}

/** Does the node text need the careful reading (several substitutions, or escaped backquotes)? */
export function needsBackquoteReading(raw: string): boolean {
  return raw.startsWith('`') && (raw.includes('\\`') || /`[^`]*`[^`]*`/.test(raw));
}

export type ParseText = (text: string, offset: number, span: Span) => WordPart & { type: 'CmdSubst' };
