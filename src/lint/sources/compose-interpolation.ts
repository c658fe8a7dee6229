/**
 * Compose interpolation: before anything runs, compose replaces `${VAR}`, `${VAR:-default}`,
 * `${VAR?err}`… and `$VAR` with values from the environment or `.env`, and `$$` with `$`. The
 * values are not known here, so each reference becomes a dynamic piece (a variable the analyser
 * has no value for), never a guessed harmless value.
 */
import { MappedTextBuilder, type MappedText } from '../source-text.js';
import { isDynamic, sliceMapped, type WordPiece } from './argv-text.js';
import { ShellQuotes, unknownWord } from './unknown-word.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/**
 * The pieces of a compose value: literal text (with `$$` read as `$`) and dynamic pieces for
 * references. `avoid` is text the names must not occur in (the code itself), so a dynamic name
 * cannot collide with a variable the code sets.
 */
export function interpolate(value: MappedText, avoid: string): WordPiece[] {
  const t = value.text;
  const pieces: WordPiece[] = [];
  let lit = 0;
  const flush = (to: number): void => {
    if (to > lit) pieces.push(sliceMapped(value, lit, to));
  };
  // File offset just past the value character at index j.
  const after = (j: number): number => value.offsets[j]! + 1;
  let i = 0;
  while (i < t.length) {
    if (t[i] !== '$') {
      i++;
      continue;
    }
    if (t[i + 1] === '$') {
      flush(i);
      pieces.push(new MappedTextBuilder().synthetic('$', value.offsets[i]!, after(i + 1)).build());
      i += 2;
      lit = i;
      continue;
    }
    let close = -1;
    let name: string | undefined;
    if (t[i + 1] === '{') {
      close = matchingBrace(t, i + 2);
      name = NAME.exec(t.slice(i + 2))?.[0];
    } else {
      name = NAME.exec(t.slice(i + 1))?.[0];
      if (name) close = i + name.length;
    }
    // `$` before anything else, or a `${` never closed (compose refuses it), stays as written.
    if (close < 0) {
      i++;
      continue;
    }
    flush(i);
    pieces.push({ dynamic: dynamicName(name ?? 'VALUE', avoid), start: value.offsets[i]!, end: after(close) });
    i = close + 1;
    lit = i;
  }
  flush(t.length);
  return pieces;
}

/** Index of the `}` closing a `${` whose body starts at `from` (defaults may nest `${…}`), or -1. */
function matchingBrace(t: string, from: number): number {
  let depth = 1;
  for (let j = from; j < t.length; j++) {
    if (t[j] === '$' && t[j + 1] === '{') {
      depth++;
      j++;
    } else if (t[j] === '}' && --depth === 0) return j;
  }
  return -1;
}

function dynamicName(name: string, avoid: string): string {
  let n = `__compose_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  while (avoid.includes(n)) n += '_';
  return n;
}

/**
 * The pieces as one shell text. A dynamic piece is written `${name}` (unknown words) where it
 * stands outside single quotes, and `'"${name}"'` inside them, where `${…}` would be read as
 * literal text although compose puts a value there.
 */
export function shellText(pieces: readonly WordPiece[]): MappedText {
  const b = new MappedTextBuilder();
  const quotes = new ShellQuotes();
  for (const p of pieces) {
    if (isDynamic(p)) b.synthetic(unknownWord(p.dynamic, quotes), p.start, p.end);
    else {
      b.mapped(p);
      quotes.feed(p.text);
    }
  }
  return b.build();
}
