/**
 * Text handed to the analyser, with the file offset every character of it came from. A source
 * (a Dockerfile RUN, a YAML block scalar, a Makefile recipe) rarely hands bash the file's bytes
 * unchanged: indentation is stripped, `$$` becomes `$`, continuations are joined, quotes and
 * escapes are decoded. Each character keeps the offset of the file character it stands for, so a
 * finding's span maps back to an exact line and column.
 */

export interface MappedText {
  /** What the shell is given. */
  readonly text: string;
  /** File offset of each character of `text`, and one more entry for its end (length `text.length + 1`). */
  readonly offsets: Int32Array;
}

/** Builds a MappedText piece by piece. */
export class MappedTextBuilder {
  private readonly parts: string[] = [];
  private readonly map: number[] = [];
  private endAt = -1;

  /** File text copied unchanged; it starts at file offset `at`. */
  verbatim(text: string, at: number): this {
    this.parts.push(text);
    for (let i = 0; i < text.length; i++) this.map.push(at + i);
    this.endAt = at + text.length;
    return this;
  }

  /**
   * Text that stands for the file range [at, end) without being a copy of it (`$` for `$$`, a
   * quoted argv word for a JSON string): its first character maps to `at`, the others to `at`
   * too, unless it is as long as the range, when it maps one to one.
   */
  synthetic(text: string, at: number, end: number = at): this {
    this.parts.push(text);
    const oneToOne = text.length === end - at;
    for (let i = 0; i < text.length; i++) this.map.push(oneToOne ? at + i : at);
    this.endAt = end;
    return this;
  }

  /** Text whose characters' file offsets are known one by one (`offsets.length >= text.length`). */
  mapped(piece: MappedText): this {
    this.parts.push(piece.text);
    for (let i = 0; i < piece.text.length; i++) this.map.push(piece.offsets[i]!);
    this.endAt = piece.offsets[piece.text.length] ?? this.endAt;
    return this;
  }

  get length(): number {
    return this.map.length;
  }

  build(): MappedText {
    const offsets = new Int32Array(this.map.length + 1);
    offsets.set(this.map);
    offsets[this.map.length] = this.endAt >= 0 ? this.endAt : (this.map[this.map.length - 1] ?? 0);
    return { text: this.parts.join(''), offsets };
  }
}

/** A MappedText whose text is file[start, end) unchanged. */
export function verbatimText(file: string, start: number, end: number): MappedText {
  const offsets = new Int32Array(end - start + 1);
  for (let i = 0; i <= end - start; i++) offsets[i] = start + i;
  return { text: file.slice(start, end), offsets };
}

/**
 * Map a decoded value (a YAML scalar, a JSON string) back onto the file range [start, end) it was
 * read from. The value is the range with some characters dropped (quotes, indentation, the
 * backslash of an escape) or replaced (a folded line break read as a space), so each value
 * character is matched to the next equal file character within a short reach; one with no match
 * there (a decoded `\n`) takes the current position and consumes nothing.
 */
export function alignValue(file: string, start: number, end: number, value: string, reach = 6): MappedText {
  const offsets = new Int32Array(value.length + 1);
  let p = start;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    let q = p;
    const limit = Math.min(end, p + reach);
    // Indentation can be longer than the reach: a run of spaces after a line break is skipped whole.
    while (q < end && file[q] !== c && (q < limit || (file[q] === ' ' && file[q - 1] !== undefined && /[ \n]/.test(file[q - 1]!)))) q++;
    if (q < end && file[q] === c) {
      offsets[i] = q;
      p = q + 1;
    } else offsets[i] = Math.min(p, end);
  }
  offsets[value.length] = Math.min(p, end);
  return { text: value, offsets };
}

/** 1-based line and column (UTF-16 code units) of file offsets, from a table of line starts. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly file: string) {
    for (let i = 0; i < file.length; i++) if (file.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  /** The 1-based line holding `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  position(offset: number): { line: number; column: number } {
    const line = this.lineOf(offset);
    return { line, column: offset - this.starts[line - 1]! + 1 };
  }

  /** The text of a 1-based line, without its line break. */
  lineText(line: number): string {
    const s = this.starts[line - 1];
    if (s === undefined) return '';
    const e = this.starts[line] ?? this.file.length + 1;
    return this.file.slice(s, e - 1).replace(/\r$/, '');
  }

  get lineCount(): number {
    return this.starts.length;
  }
}
