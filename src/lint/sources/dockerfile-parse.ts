/**
 * A Dockerfile read into instructions the way BuildKit's parser reads it: parser directives
 * (`# escape=`` ` changes the continuation character) at the top, comment and blank lines
 * dropped, continued lines joined with the escape character and the line break removed (even
 * inside quotes: Docker does it before any quoting is read), comment and blank lines inside a
 * continued instruction dropped, and heredoc bodies (`<<EOF` in RUN, COPY, ADD) read raw from the
 * lines after the instruction. Every character of an instruction keeps its file offset.
 */
import { MappedTextBuilder, type MappedText } from '../source-text.js';
import { sliceMapped } from './argv-text.js';

export interface Heredoc {
  /** The delimiter with its quotes removed (`"EOF"` → `EOF`). */
  readonly name: string;
  /** `<<-`: leading tabs are stripped from the body lines and the delimiter line. */
  readonly chomp: boolean;
  /** File range of the body: the raw lines between the instruction and the delimiter line, line breaks included. */
  readonly bodyStart: number;
  readonly bodyEnd: number;
  /** File offset of the delimiter word on its line (after any tabs). */
  readonly nameAt: number;
}

export interface Instruction {
  /** Upper-cased keyword (`RUN`). */
  readonly keyword: string;
  /** File offset of the keyword. */
  readonly start: number;
  /** File offset of the end of the instruction's first line, for a finding that points at it. */
  readonly firstLineEnd: number;
  /** The arguments after the keyword, continuations joined, trimmed (builder flags still in). */
  readonly args: MappedText;
  readonly heredocs: readonly Heredoc[];
}

export interface ParsedDockerfile {
  readonly instructions: Instruction[];
  readonly escape: string;
  /** An instruction whose heredoc never ends (BuildKit refuses the whole file). */
  readonly unterminated?: { readonly keyword: string; readonly name: string; readonly start: number; readonly end: number };
}

interface Line {
  readonly start: number;
  /** End of the content: before the line break and any `\r` before it. */
  readonly end: number;
  /** Start of the next line. */
  readonly next: number;
}

function splitLines(file: string): Line[] {
  const lines: Line[] = [];
  let s = file.charCodeAt(0) === 0xfeff ? 1 : 0; // a byte-order mark before the first line is dropped
  while (s < file.length) {
    const nl = file.indexOf('\n', s);
    const next = nl < 0 ? file.length : nl + 1;
    let end = nl < 0 ? file.length : nl;
    while (end > s && file[end - 1] === '\r') end--;
    lines.push({ start: s, end, next });
    s = next;
  }
  return lines;
}

const SPACE = /\s/;
const DIRECTIVE = /^([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$/;
/** Instructions whose line may open heredocs; ONBUILD's trigger may be one of them. */
const HEREDOC_KEYWORDS = new Set(['RUN', 'COPY', 'ADD']);

function skipSpace(file: string, i: number, end: number): number {
  while (i < end && SPACE.test(file[i]!)) i++;
  return i;
}

/** Where a line's continuation character starts, if the line ends with one (not escaped itself; trailing blanks allowed). */
function continuationAt(file: string, start: number, end: number, escape: string): number {
  let e = end;
  while (e > start && (file[e - 1] === ' ' || file[e - 1] === '\t')) e--;
  if (e === start || file[e - 1] !== escape) return -1;
  if (e - 1 > start && file[e - 2] === escape) return -1;
  return e - 1;
}

export function parseDockerfile(file: string): ParsedDockerfile {
  const lines = splitLines(file);
  const instructions: Instruction[] = [];
  let escape = '\\';
  let directives = true;
  const seen = new Set<string>();
  let i = 0;
  while (i < lines.length) {
    const first = lines[i]!;
    const s = skipSpace(file, first.start, first.end);
    if (directives) {
      const m = file[s] === '#' ? DIRECTIVE.exec(file.slice(skipSpace(file, s + 1, first.end), first.end)) : null;
      const key = m?.[1]!.toLowerCase();
      if (m && (key === 'escape' || key === 'syntax' || key === 'check') && !seen.has(key)) {
        seen.add(key);
        if (key === 'escape' && (m[2] === '`' || m[2] === '\\')) escape = m[2];
      } else directives = false;
    }
    i++;
    if (file[s] === '#') continue;
    const b = new MappedTextBuilder();
    let cont = continuationAt(file, s, first.end, escape);
    b.verbatim(file.slice(s, cont < 0 ? first.end : cont), s);
    if (cont < 0 && b.length === 0) continue;
    while (cont >= 0 && i < lines.length) {
      const l = lines[i++]!;
      const t = skipSpace(file, l.start, l.end);
      // Docker drops comment lines and blank lines inside a continued instruction.
      if (t === l.end || file[t] === '#') continue;
      cont = continuationAt(file, l.start, l.end, escape);
      b.verbatim(file.slice(l.start, cont < 0 ? l.end : cont), l.start);
    }
    const line = b.build();
    const kw = /^\s*(\S+)\s*/.exec(line.text);
    if (!kw) continue;
    const keyword = kw[1]!.toUpperCase();
    const args = trimmed(sliceMapped(line, kw[0].length, line.text.length));
    const heredocs: Heredoc[] = [];
    if (opensHeredocs(keyword, args.text)) {
      for (const h of heredocWords(line.text)) {
        const found = readBody(file, lines, i, h.name, h.chomp);
        if (!found) {
          return { instructions, escape, unterminated: { keyword, name: h.name, start: s, end: first.end } };
        }
        heredocs.push(found.heredoc);
        i = found.nextLine;
      }
    }
    instructions.push({ keyword, start: s, firstLineEnd: first.end, args, heredocs });
  }
  return { instructions, escape };
}

function trimmed(m: MappedText): MappedText {
  const from = m.text.length - m.text.trimStart().length;
  const to = m.text.trimEnd().length;
  return to <= from ? sliceMapped(m, 0, 0) : sliceMapped(m, from, to);
}

/** RUN/COPY/ADD (or ONBUILD of one) in shell form, with `<<` somewhere in it. */
function opensHeredocs(keyword: string, args: string): boolean {
  let kw = keyword;
  let rest = args;
  if (kw === 'ONBUILD') {
    const m = /^(\S+)\s*([\s\S]*)$/.exec(stripFlags(args));
    if (!m) return false;
    kw = m[1]!.toUpperCase();
    rest = m[2]!;
  }
  if (!HEREDOC_KEYWORDS.has(kw) || !rest.includes('<<')) return false;
  return !isJsonArray(stripFlags(rest));
}

function isJsonArray(s: string): boolean {
  if (!s.trimStart().startsWith('[')) return false;
  try {
    return Array.isArray(JSON.parse(s));
  } catch {
    return false;
  }
}

/**
 * Where the command starts after leading builder flags (`--mount=type=cache,target=/x`,
 * `--network=none`): words starting with `--`, quotes and escapes read inside them; a bare `--`
 * ends them.
 */
export function flagsEnd(s: string, escape = '\\'): number {
  let i = 0;
  for (;;) {
    while (i < s.length && SPACE.test(s[i]!)) i++;
    if (i >= s.length || s[i] !== '-' || s[i + 1] !== '-') return Math.min(i, s.length);
    const wordStart = i;
    let quote = '';
    while (i < s.length && (quote || !SPACE.test(s[i]!))) {
      const c = s[i]!;
      if (c === escape) i++;
      else if (quote && c === quote) quote = '';
      else if (!quote && (c === '"' || c === "'")) quote = c;
      i++;
    }
    if (s.slice(wordStart, i) === '--') return Math.min(skipSpace(s, i, s.length), s.length);
  }
}

export function stripFlags(s: string): string {
  return s.slice(flagsEnd(s));
}

/** The heredocs a line opens, in order: its words (quotes kept) that read `[n]<<[-]WORD`. */
function heredocWords(line: string): { name: string; chomp: boolean }[] {
  const out: { name: string; chomp: boolean }[] = [];
  for (const w of rawWords(line)) {
    const m = /^\d*<<(-?)\s*([^<]*)$/.exec(w);
    if (!m || m[2] === '') continue;
    const name = unquoteSingleWord(m[2]!);
    if (name !== null) out.push({ name, chomp: m[1] === '-' });
  }
  return out;
}

/** Whether a RUN's whole command is one heredoc (`RUN <<EOF`): its body is then the script itself. */
export function isLoneHeredoc(command: string): boolean {
  const m = /^\d*<<-?\s*([^<]*)$/.exec(command);
  return m !== null && m[1] !== '' && unquoteSingleWord(m[1]!) !== null;
}

/** Words split at blanks outside quotes, quotes and backslashes kept. */
function rawWords(line: string): string[] {
  const words: string[] = [];
  let w = '';
  let quote = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (!quote && SPACE.test(c)) {
      if (inWord) words.push(w);
      w = '';
      inWord = false;
      continue;
    }
    inWord = true;
    w += c;
    if (c === '\\' && quote !== "'" && i + 1 < line.length) w += line[++i];
    else if (quote && c === quote) quote = '';
    else if (!quote && (c === '"' || c === "'")) quote = c;
  }
  if (inWord) words.push(w);
  return words;
}

/** A heredoc delimiter with quotes and backslashes removed, or null when it is not a single word. */
function unquoteSingleWord(raw: string): string | null {
  let out = '';
  let quote = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (!quote && SPACE.test(c)) return null;
    if (c === '\\' && quote !== "'" && i + 1 < raw.length) out += raw[++i];
    else if (quote && c === quote) quote = '';
    else if (!quote && (c === '"' || c === "'")) quote = c;
    else out += c;
  }
  return out === '' ? null : out;
}

function readBody(file: string, lines: Line[], from: number, name: string, chomp: boolean): { heredoc: Heredoc; nextLine: number } | null {
  const bodyStart = lines[from]?.start ?? file.length;
  for (let j = from; j < lines.length; j++) {
    const l = lines[j]!;
    let t = l.start;
    if (chomp) while (t < l.end && file[t] === '\t') t++;
    if (file.slice(t, l.end) === name) return { heredoc: { name, chomp, bodyStart, bodyEnd: l.start, nameAt: t }, nextLine: j + 1 };
  }
  return null;
}
