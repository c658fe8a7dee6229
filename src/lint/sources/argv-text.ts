/**
 * Argument vectors as shell text. A Dockerfile exec form (`RUN ["sh", "-c", "…"]`) or a compose
 * list (`command: ["npm", "start"]`) runs a program with exact words and no shell; handed to the
 * analyser as a command line of single-quoted words, bash reads back exactly those words. Each
 * word's characters keep the file offsets of the characters they were decoded from.
 */
import { MappedTextBuilder, type MappedText } from '../source-text.js';
import { decodeJsonString, jsonStringEnd } from './json-string.js';

/**
 * A value nobody can know before it runs (a compose `${VAR}`), standing for file range [start, end):
 * written as a reference to a variable named `name`, which the analyser has no value for.
 */
export interface DynamicPiece {
  readonly dynamic: string;
  readonly start: number;
  readonly end: number;
}

export type WordPiece = MappedText | DynamicPiece;

export interface ArgvWord {
  readonly pieces: readonly WordPiece[];
  /** File offsets the opening and closing quote stand for (the JSON string's own quotes, or the value's ends). */
  readonly open: number;
  readonly close: number;
}

export function isDynamic(p: WordPiece): p is DynamicPiece {
  return (p as DynamicPiece).dynamic !== undefined;
}

/** `'word' 'word' …`: `'` inside a word is `'\''`, a dynamic piece is `'"${name}"'` (one word, any content). */
export function argvText(words: readonly ArgvWord[]): MappedText {
  const b = new MappedTextBuilder();
  words.forEach((w, i) => {
    if (i > 0) b.synthetic(' ', w.open);
    b.synthetic("'", w.open);
    for (const p of w.pieces) {
      if (isDynamic(p)) {
        b.synthetic(`'"\${${p.dynamic}}"'`, p.start, p.end);
        continue;
      }
      for (let k = 0; k < p.text.length; k++) {
        const c = p.text[k]!;
        if (c === "'") b.synthetic(`'\\''`, p.offsets[k]!, p.offsets[k]! + 1);
        else b.synthetic(c, p.offsets[k]!, p.offsets[k]! + 1);
      }
    }
    b.synthetic("'", w.close, w.close + 1);
  });
  return b.build();
}

/** file[from, to) of a MappedText, the end entry being just past its last character. */
export function sliceMapped(m: MappedText, from: number, to: number): MappedText {
  const text = m.text.slice(from, to);
  const offsets = new Int32Array(text.length + 1);
  offsets.set(m.offsets.subarray(from, from + text.length));
  offsets[text.length] = text.length > 0 ? offsets[text.length - 1]! + 1 : (m.offsets[from] ?? 0);
  return { text, offsets };
}

/**
 * A JSON array of strings (`["sh", "-c", "echo hi"]`) read from mapped text, each string decoded with
 * the offset of the source character each decoded character comes from (an escape maps to its
 * backslash). `null` when the text is not a JSON array; `'not-strings'` when it is one holding
 * something other than strings (which Docker refuses).
 */
export function jsonStringArray(src: MappedText): ArgvWord[] | 'not-strings' | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(src.text);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  if (!parsed.every((v) => typeof v === 'string')) return 'not-strings';
  // The text is valid JSON holding only strings, so every `"` outside a string opens the next one.
  const words: ArgvWord[] = [];
  const t = src.text;
  const at = (i: number) => src.offsets[i]!;
  for (let i = 0; words.length < parsed.length && i < t.length; i++) {
    if (t[i] !== '"') continue;
    const end = jsonStringEnd(t, i);
    const value = end < 0 ? null : decodeJsonString(t, i, end, at);
    if (value === null) return null;
    words.push({ pieces: [value], open: at(i), close: at(end - 1) });
    i = end - 1;
  }
  return words;
}
