/**
 * When a command cannot be parsed, a parser's error recovery may swallow whole commands into the
 * broken region. As a second reading we cut the text at command separators that are not quoted,
 * escaped or nested (`;`, `&`, `|`, newlines) and analyse each piece on its own, so a dangerous
 * command after a broken one is still seen, whichever front end is in use.
 */
export interface Segment {
  start: number;
  text: string;
}

/** At most this many pieces are analysed again. */
export const MAX_SEGMENTS = 200;

export function commandSegments(source: string): Segment[] {
  const out: Segment[] = [];
  let start = 0;
  let depth = 0; // $( … ) and ( … )
  let quote: '"' | "'" | '`' | null = null;
  const push = (end: number) => {
    const text = source.slice(start, end);
    if (text.trim() !== '' && out.length < MAX_SEGMENTS) out.push({ start, text });
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (quote) {
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (ch === ';' || ch === '&' || ch === '|' || ch === '\n')) {
      push(i);
      start = i + 1;
    }
  }
  push(source.length);
  return out;
}
