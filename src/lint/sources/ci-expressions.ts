/**
 * Template expressions a CI system pastes into a script before the shell reads it (GitHub's
 * `${{ … }}`, GitLab's `$[[ … ]]`). Their values are not in the file, so each one is replaced by a
 * shell variable reference that nothing sets: the analyser treats it as an unknown word instead of
 * reading the expression's own text (or a harmless guess) as code.
 */
import { MappedTextBuilder, type MappedText } from '../source-text.js';
import { ShellQuotes, unknownWord } from './unknown-word.js';

export interface CiExpression {
  /** The text between the delimiters, untrimmed. */
  readonly inner: string;
  /** File range of the whole expression, delimiters included. */
  readonly start: number;
  readonly end: number;
}

export interface Substituted {
  readonly code: MappedText;
  readonly expressions: CiExpression[];
}

const CLOSE: Record<string, string> = { '${{': '}}', '$[[': ']]' };

/** The code with every `open … close` expression replaced by `${<name>_<n>}`, and the expressions found. */
export function substituteExpressions(code: MappedText, open: '${{' | '$[[', prefix: string): Substituted {
  const close = CLOSE[open]!;
  const text = code.text;
  const name = freshName(text, prefix);
  const out = new MappedTextBuilder();
  const expressions: CiExpression[] = [];
  let copied = 0;
  let from = 0;
  const quotes = new ShellQuotes();
  for (;;) {
    const s = text.indexOf(open, from);
    if (s < 0) break;
    const e = closingAt(text, s + open.length, close);
    // An unterminated expression is a template error the CI system reports; its text is left as is.
    if (e < 0) break;
    const start = code.offsets[s]!;
    const end = code.offsets[e - 1]! + 1;
    out.mapped(slice(code, copied, s));
    quotes.feed(text.slice(copied, s));
    out.synthetic(unknownWord(`${name}_${expressions.length + 1}`, quotes), start, end);
    expressions.push({ inner: text.slice(s + open.length, e - close.length), start, end });
    copied = from = e;
  }
  if (expressions.length === 0) return { code, expressions };
  out.mapped(slice(code, copied, text.length));
  return { code: out.build(), expressions };
}

/**
 * The index just past the `close` that ends an expression whose body starts at `from`, or -1.
 * Single-quoted string literals (`'}}'`, with `''` for a quote) do not end it, as in GitHub's
 * expression reader.
 */
function closingAt(text: string, from: number, close: string): number {
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "'") inString = !inString;
    else if (!inString && text.startsWith(close, i)) return i + close.length;
  }
  return -1;
}

/** A variable name no part of the script spells, so the script cannot set or read it by accident. */
export function freshName(text: string, prefix: string): string {
  let name = prefix;
  while (text.includes(name)) name += '_';
  return name;
}

/** Characters [from, to) of a MappedText, with their offsets and the offset of their end. */
export function slice(code: MappedText, from: number, to: number): MappedText {
  return { text: code.text.slice(from, to), offsets: code.offsets.slice(from, to + 1) };
}
