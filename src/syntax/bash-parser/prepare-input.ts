/**
 * Preparing the input: the pre-pass over the source before bash-parser sees it. bash-parser 0.5.0
 * does not read heredoc bodies (it parses them as commands and drops the delimiter) and reads
 * `&>` as `&` + `>`; both are blanked here and recorded, so the converter can rebuild them from
 * the source. A character is only ever replaced by a space, so bash-parser's locations still
 * point into the source.
 */
import { ansiEnd, arithEnd, backtickEnd, braceEnd } from './scan-ends.js';

/** A heredoc found by the pre-pass; all offsets are into the source. */
export interface HeredocInfo {
  op: '<<' | '<<-';
  /** Where `<<` starts: how the converter finds this heredoc again from bash-parser's token. */
  opStart: number;
  delimStart: number;
  delimEnd: number;
  /** Any quoting in the delimiter: the body is then literal text. */
  quoted: boolean;
  /** The body, without the delimiter line; it runs to the end when that line is missing. */
  bodyStart: number;
  bodyEnd: number;
}

const WORD_END = /[\s;&|<>()]/;

/**
 * Prepare the text for bash-parser, keeping every offset:
 * - find heredocs outside quotes, comments and arithmetic (also inside `$(…)`) and blank their
 *   bodies (every character but newlines becomes a space), so bash-parser sees empty lines;
 * - bash-parser reads `&>file` as `&` (background) then `>file`: the `&` of `&>`/`&>>` is
 *   blanked and its position remembered, so the redirect gets its real operator back.
 */
export function prepareInput(source: string): { text: string; heredocs: HeredocInfo[]; ampRedirects: Set<number> } {
  if (!source.includes('<<') && !source.includes('&>')) return { text: source, heredocs: [], ampRedirects: new Set<number>() };
  const p = new InputPreparer(source);
  p.top(0, null);
  p.finish();
  return { text: p.chars.join(''), heredocs: p.heredocs, ampRedirects: p.ampRedirects };
}

/** The pre-pass's state: the text being blanked, and what it found. */
class InputPreparer {
  readonly chars: string[];
  readonly heredocs: HeredocInfo[] = [];
  readonly ampRedirects = new Set<number>();
  /** Heredocs whose bodies start at the next newline. */
  private pending: HeredocInfo[] = [];

  constructor(private readonly source: string) {
    this.chars = source.split('');
  }

  /** Reads (and blanks) the bodies of the pending heredocs from `from`, the line after their operators; returns where the next line starts. */
  private readBodies(from: number): number {
    const source = this.source;
    const n = this.source.length;
    let pos = from;
    for (const h of this.pending) {
      h.bodyStart = pos;
      h.bodyEnd = n;
      const delim = unquoteDelimiter(source.slice(h.delimStart, h.delimEnd));
      let next = n;
      while (pos < n) {
        let nl = source.indexOf('\n', pos);
        if (nl < 0) nl = n;
        let line = source.slice(pos, nl);
        if (h.op === '<<-') line = line.replace(/^\t+/, '');
        if (line === delim) {
          h.bodyEnd = pos;
          next = Math.min(nl + 1, n);
          break;
        }
        pos = nl + 1;
      }
      if (pos >= n) next = n;
      for (let k = h.bodyStart; k < next && k < n; k++) if (this.chars[k] !== '\n') this.chars[k] = ' ';
      pos = next;
    }
    this.pending = [];
    return pos;
  }

  /** Scan unquoted shell text from i until `closer` (')' for `$(`) or the end; returns the index after. */
  top(start: number, closer: string | null): number {
    const source = this.source;
    const n = this.source.length;
    let i = start;
    let depth = 0;
    let wordStart = true;
    while (i < n) {
      const c = source[i];
      if (c === '\\') {
        i += 2;
        wordStart = false;
        continue;
      }
      if (c === '\n') {
        i = this.pending.length > 0 ? this.readBodies(i + 1) : i + 1;
        wordStart = true;
        continue;
      }
      if (c === '#' && wordStart) {
        while (i < n && source[i] !== '\n') i++;
        continue;
      }
      if (c === "'") {
        const j = source.indexOf("'", i + 1);
        i = j < 0 ? n : j + 1;
      } else if (c === '"') {
        i = this.dq(i + 1);
      } else if (c === '`') {
        i = backtickEnd(source, i, n);
      } else if (c === '$' && source[i + 1] === "'") {
        i = ansiEnd(source, i + 1, n);
      } else if (c === '$' && source.startsWith('((', i + 1)) {
        const end = arithEnd(source, i, n);
        i = end > 0 ? end : this.top(i + 2, ')');
      } else if (c === '$' && source[i + 1] === '(') {
        i = this.top(i + 2, ')');
      } else if (c === '$' && source[i + 1] === '{') {
        i = braceEnd(source, i, n);
      } else if (c === '<' && source[i + 1] === '<' && source[i + 2] !== '<') {
        i = this.heredocOp(i);
      } else if (c === '&' && source[i + 1] === '>' && !/[<>&]/.test(source[i - 1] ?? '')) {
        this.chars[i] = ' ';
        this.ampRedirects.add(i + 1);
        i++;
      } else if (c === '(') {
        depth++;
        i++;
      } else if (c === ')') {
        i++;
        if (depth === 0 && closer === ')') return i;
        depth = Math.max(0, depth - 1);
      } else {
        i++;
      }
      wordStart = /[\s;&|()<>]/.test(c);
    }
    return i;
  }

  /** Scans the inside of a double-quoted string from `start`; returns the index after its closing quote. */
  private dq(start: number): number {
    const source = this.source;
    const n = this.source.length;
    let i = start;
    while (i < n) {
      const c = source[i];
      if (c === '\\') i += 2;
      else if (c === '"') return i + 1;
      else if (c === '`') i = backtickEnd(source, i, n);
      else if (c === '$' && source.startsWith('((', i + 1)) {
        const end = arithEnd(source, i, n);
        i = end > 0 ? end : this.top(i + 2, ')');
      } else if (c === '$' && source[i + 1] === '(') i = this.top(i + 2, ')');
      else if (c === '$' && source[i + 1] === '{') i = braceEnd(source, i, n);
      else i++;
    }
    return i;
  }

  /** A `<<` or `<<-` at i: records the heredoc (its body comes after the line); returns the index after the delimiter word. */
  private heredocOp(i: number): number {
    const source = this.source;
    const n = this.source.length;
    const dash = source[i + 2] === '-';
    let j = i + (dash ? 3 : 2);
    while (j < n && (source[j] === ' ' || source[j] === '\t')) j++;
    const delimStart = j;
    while (j < n && !WORD_END.test(source[j])) {
      const c = source[j];
      if (c === '\\') j += 2;
      else if (c === "'") {
        const k = source.indexOf("'", j + 1);
        j = k < 0 ? n : k + 1;
      } else if (c === '"') {
        const k = source.indexOf('"', j + 1);
        j = k < 0 ? n : k + 1;
      } else j++;
    }
    j = Math.min(j, n);
    if (j === delimStart) return j; // `<<` with no word: a syntax error; leave it to the parser
    const h: HeredocInfo = {
      op: dash ? '<<-' : '<<',
      opStart: i,
      delimStart,
      delimEnd: j,
      quoted: /['"\\]/.test(source.slice(delimStart, j)),
      bodyStart: n,
      bodyEnd: n,
    };
    this.heredocs.push(h);
    this.pending.push(h);
    return j;
  }

  /** After the whole text: bodies still pending run to the end. */
  finish(): void {
    if (this.pending.length > 0) this.readBodies(this.source.length);
  }
}

function unquoteDelimiter(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\' && i + 1 < raw.length) out += raw[++i];
    else if (c !== "'" && c !== '"') out += c;
  }
  return out;
}
