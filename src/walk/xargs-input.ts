/**
 * What xargs makes of its input, when the input is known (a heredoc, a here-string, `echo … |`):
 * GNU xargs reads items separated by blanks and newlines, and removes quotes itself — `'a b'` and
 * `"a b"` are one item, a backslash escapes the next character; `-0` and `-d DELIM` split on one
 * character and keep quotes; `-I` (and `-i`, `--replace`) takes whole lines, leading blanks
 * dropped; `-E STR` (`-e`, `--eof`) ends the input at an item equal to STR. An unmatched quote stops
 * xargs with an error, after the items before it.
 *
 * Only a bounded number of items (runs, with `-I`) is followed: past it the caller must say so
 * (expansion-limit), never judge a cut-down list.
 */
import type { Arg } from './types.js';

/** At most this many xargs invocations are built from known input (`-I`: one per line). */
export const MAX_XARGS_RUNS = 16;
/** At most this many items are passed to one invocation. */
export const MAX_XARGS_ITEMS = 4096;

export interface XargsItems {
  /** The items, or null when the input is not known. */
  items: string[] | null;
  /** More items than followed: the rest is not analysed. */
  cut: boolean;
}

export function xargsItems(stdin: string | null, args: Arg[], perLine: boolean): XargsItems {
  if (args.some((a) => a.dynamic || /^(-a|--arg-file)/.test(a.value))) return { items: null, cut: false };
  if (stdin === null) return { items: null, cut: false };
  const nul = args.some((a) => a.value === '-0' || a.value === '--null');
  const delimiter = delimiterOf(args);
  if (delimiter === undefined) return { items: null, cut: false };
  let items: string[];
  if (nul) items = stdin.split('\0');
  else if (delimiter !== null) items = stdin.split(delimiter);
  else items = quotedItems(stdin, perLine);
  if (!nul && delimiter === null) {
    const eof = eofString(args);
    if (eof !== null) {
      const at = items.indexOf(eof);
      if (at >= 0) items = items.slice(0, at);
    }
  }
  // Empty items: blanks produce none; -0/-d keep empty fields except a trailing one.
  if (nul || delimiter !== null) {
    if (items.length > 0 && items[items.length - 1] === '') items.pop();
  } else items = items.filter((x) => x !== '');
  const max = perLine ? MAX_XARGS_RUNS : MAX_XARGS_ITEMS;
  return { items: items.slice(0, max), cut: items.length > max };
}

/** `-d X` / `--delimiter=X`: the character; null without one; undefined when it cannot be read. */
function delimiterOf(args: Arg[]): string | null | undefined {
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    let d: string | undefined;
    if (v === '-d' || v === '--delimiter') d = args[i + 1]?.value;
    else if (v.startsWith('--delimiter=')) d = v.slice('--delimiter='.length);
    else if (/^-d./.test(v)) d = v.slice(2);
    else continue;
    if (d === undefined) return undefined;
    const escapes: Record<string, string> = {
      '\\n': '\n',
      '\\t': '\t',
      '\\0': '\0',
      '\\\\': '\\',
      '\\r': '\r',
      '\\v': '\v',
      '\\f': '\f',
      '\\a': '\x07',
      '\\b': '\b',
    };
    if (d.length === 1) return d;
    if (escapes[d] !== undefined) return escapes[d];
    const hex = /^\\x([0-9a-fA-F]{1,2})$/.exec(d) ?? /^\\0?([0-7]{1,3})$/.exec(d);
    if (hex) return String.fromCharCode(parseInt(hex[1], d[1] === 'x' ? 16 : 8));
    return undefined;
  }
  return null;
}

function eofString(args: Arg[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    if (v === '-E') return args[i + 1]?.value ?? null;
    if (/^-E./.test(v)) return v.slice(2);
    if (/^-e./.test(v)) return v.slice(2);
    if (v.startsWith('--eof=')) return v.slice(6);
  }
  return null;
}

/**
 * GNU xargs's default reading: blanks (or, per line, only newlines) separate items; quotes group,
 * a backslash escapes. An unmatched quote ends the input there.
 */
function quotedItems(text: string, perLine: boolean): string[] {
  const items: string[] = [];
  let cur = '';
  let started = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\n')
        return items; // unmatched quote: xargs stops with an error
      else cur += ch;
      continue;
    }
    if (ch === '\n' || (!perLine && (ch === ' ' || ch === '\t'))) {
      if (started) items.push(cur);
      cur = '';
      started = false;
      continue;
    }
    if (perLine && !started && (ch === ' ' || ch === '\t')) continue;
    started = true;
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '\\' && i + 1 < text.length) cur += text[++i];
    else cur += ch;
  }
  if (quote) return items;
  if (started) items.push(cur);
  return items;
}

/**
 * How xargs splits its input into items: by NUL (`-0`), by newline (`-I R`, `-d '\n'`: a whole
 * line, quotes and backslashes still removed), at blanks and newlines (the default, `-L`, `-n`),
 * or by another character.
 */
export type XargsSplit = 'nul' | 'newline' | 'blank' | 'other';

export function xargsSplit(args: Arg[], perLine: boolean): XargsSplit {
  if (args.some((a) => a.value === '-0' || a.value === '--null')) return 'nul';
  const delimiter = delimiterOf(args);
  if (delimiter === '\0') return 'nul';
  if (delimiter === '\n') return 'newline';
  if (delimiter !== null) return 'other';
  return perLine ? 'newline' : 'blank';
}

/**
 * Is every item exactly one printed name? With NUL on both sides; or a line per item from a
 * producer that escapes newlines in names (git). Split at blanks, or at newlines of a producer that
 * prints names raw, a name holding a blank or a newline (`a /etc/passwd`, a directory `a ` with
 * `etc/passwd` in it) becomes several items, one of which may be any path.
 */
export function itemsAreNames(split: XargsSplit, names: { separator: 'nul' | 'newline'; newlineSafe: boolean }): boolean {
  if (split === 'nul') return names.separator === 'nul';
  return split === 'newline' && names.separator === 'newline' && names.newlineSafe;
}
