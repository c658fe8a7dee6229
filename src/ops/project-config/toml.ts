/**
 * Enough TOML to know which keys a file sets (cargo's `.cargo/config.toml`, rustup's
 * `rust-toolchain.toml`): tables `[a.b]` and `[[a.b]]`, dotted and quoted keys, inline tables
 * (`build = { rustc-wrapper = "x" }`), arrays, basic/literal/multi-line strings, comments.
 * Values are kept as text (strings decoded). Anything else is a parse error, and callers then
 * take the strict answer: a key hidden by syntax we misread must not pass as absent.
 */
import type { FileProbe } from './file-probe.js';
import type { RepoCode } from './types.js';

export interface TomlEntry {
  /** Full key path, e.g. ['build', 'rustc-wrapper'] or ['target', 'x86_64-unknown-linux-gnu', 'runner']. */
  path: string[];
  /** Decoded string, or the raw text of any other value (arrays, numbers, booleans). */
  value: string;
  line: number;
}

export type TomlParse = { entries: TomlEntry[]; error: null } | { entries: TomlEntry[]; error: { line: number; reason: string } };

class TomlError extends Error {}

const fail = (reason: string): never => {
  throw new TomlError(reason);
};

const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\', e: '\x1b' };

/** A cursor over the text (position and line) and the entries read so far; failures throw TomlError. */
class TomlReader {
  i = 0;
  line = 1;
  readonly entries: TomlEntry[] = [];

  constructor(private readonly text: string) {}

  get done(): boolean {
    return this.i >= this.text.length;
  }

  peek(k = 0): string {
    return this.text[this.i + k] ?? '';
  }

  skipBlank(newlines: boolean): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (c === '\n' && newlines) {
        this.i++;
        this.line++;
      } else if (c === '#') {
        while (this.i < this.text.length && this.peek() !== '\n') this.i++;
      } else return;
    }
  }

  /** `[a.b]` or `[[a.b]]`: the table's key path. */
  tableHeader(): string[] {
    const array = this.peek(1) === '[';
    this.i += array ? 2 : 1;
    const table = this.key();
    if (this.peek() !== ']' || (array && this.peek(1) !== ']')) fail('bad table header');
    this.i += array ? 2 : 1;
    return table;
  }

  /** `key = value` in `table`, recorded at the line the key starts on. */
  keyValue(table: string[]): void {
    const at = this.line;
    const k = this.key();
    if (this.peek() !== '=') fail('expected =');
    this.i++;
    const v = this.value([...table, ...k], at);
    this.entries.push({ path: [...table, ...k], value: v, line: at });
  }

  private basicString(): string {
    const { text } = this;
    const multi = text.startsWith('"""', this.i);
    this.openString(multi);
    let s = '';
    for (;;) {
      if (this.i >= text.length) fail('unterminated string');
      if (multi ? text.startsWith('"""', this.i) && this.peek(3) !== '"' : this.peek() === '"') {
        this.i += multi ? 3 : 1;
        return s;
      }
      const c = text[this.i++];
      if (c === '\n') {
        if (!multi) fail('newline in string');
        this.line++;
        s += c;
      } else if (c === '\\') s += this.escape(multi);
      else s += c;
    }
  }

  /** Past the opening quote(s); a newline right after a multi-line opening is not part of the string. */
  private openString(multi: boolean): void {
    this.i += multi ? 3 : 1;
    if (multi && this.peek() === '\n') {
      this.i++;
      this.line++;
    }
  }

  /** The escape after a backslash in a basic string: what it stands for. */
  private escape(multi: boolean): string {
    const { text } = this;
    const e = text[this.i++];
    if (e in ESCAPES) return ESCAPES[e];
    if (e === 'u' || e === 'U') {
      const len = e === 'u' ? 4 : 8;
      const hex = text.slice(this.i, this.i + len);
      if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== len) fail('bad unicode escape');
      this.i += len;
      return String.fromCodePoint(parseInt(hex, 16));
    }
    if (multi && (e === '\n' || e === ' ' || e === '\t' || e === '\r')) {
      // line-ending backslash: trim whitespace up to the next non-blank
      this.i--;
      while (/[ \t\r\n]/.test(this.peek())) {
        if (this.peek() === '\n') this.line++;
        this.i++;
      }
      return '';
    }
    return fail('bad escape');
  }

  private literalString(): string {
    const { text } = this;
    const multi = text.startsWith("'''", this.i);
    this.openString(multi);
    const end = multi ? "'''" : "'";
    let j = text.indexOf(end, this.i);
    if (j < 0) fail('unterminated string');
    if (multi) while (text[j + 3] === "'") j++;
    const s = text.slice(this.i, j);
    if (!multi && s.includes('\n')) fail('newline in string');
    this.line += s.split('\n').length - 1;
    this.i = j + end.length;
    return s;
  }

  private key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipBlank(false);
      const c = this.peek();
      if (c === '"') parts.push(this.basicString());
      else if (c === "'") parts.push(this.literalString());
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.i, this.i + 256));
        if (!m) fail('bad key');
        parts.push(m![0]);
        this.i += m![0].length;
      }
      this.skipBlank(false);
      if (this.peek() !== '.') return parts;
      this.i++;
    }
  }

  private value(prefix: string[], startLine: number): string {
    this.skipBlank(false);
    const c = this.peek();
    if (c === '"') return this.basicString();
    if (c === "'") return this.literalString();
    if (c === '[') return this.array(prefix);
    if (c === '{') return this.inlineTable(prefix, startLine);
    const m = /^[A-Za-z0-9_.:+-]+(?:[ T][0-9:.+Z-]+)?/.exec(this.text.slice(this.i, this.i + 256));
    if (!m) fail('bad value');
    this.i += m![0].length;
    return m![0];
  }

  /** `[a, b, ...]` as written (inline tables in it still record their keys). */
  private array(prefix: string[]): string {
    const start = this.i;
    this.i++;
    for (;;) {
      this.skipBlank(true);
      if (this.peek() === ']') {
        this.i++;
        return this.text.slice(start, this.i);
      }
      this.value([...prefix], this.line);
      this.skipBlank(true);
      if (this.peek() === ',') this.i++;
      else if (this.peek() !== ']') fail('bad array');
    }
  }

  /** `{ k = v, ... }` as written; each key is recorded under `prefix` at `startLine`. */
  private inlineTable(prefix: string[], startLine: number): string {
    const start = this.i;
    this.i++;
    this.skipBlank(false);
    if (this.peek() === '}') {
      this.i++;
      return '{}';
    }
    for (;;) {
      const k = this.key();
      if (this.peek() !== '=') fail('expected =');
      this.i++;
      const v = this.value([...prefix, ...k], this.line);
      this.entries.push({ path: [...prefix, ...k], value: v, line: startLine });
      this.skipBlank(false);
      if (this.peek() === ',') {
        this.i++;
        continue;
      }
      if (this.peek() === '}') {
        this.i++;
        return this.text.slice(start, this.i);
      }
      fail('bad inline table');
    }
  }
}

export function parseToml(text: string): TomlParse {
  const r = new TomlReader(text);
  let table: string[] = [];
  try {
    for (;;) {
      r.skipBlank(true);
      if (r.done) return { entries: r.entries, error: null };
      if (r.peek() === '[') table = r.tableHeader();
      else r.keyValue(table);
      r.skipBlank(false);
      if (!r.done && r.peek() !== '\n') fail('junk after value');
    }
  } catch (e) {
    if (e instanceof TomlError) return { entries: r.entries, error: { line: r.line, reason: e.message } };
    throw e;
  }
}

/**
 * The entries of a TOML configuration file. A file that is missing gives none; one that cannot be
 * read, or that holds syntax this reader does not know, gives none and a problem saying so (the
 * caller then asks: what it could not read may name a program).
 */
export function readTomlConfig(probe: FileProbe, file: string, tool: string, problems: RepoCode[]): TomlEntry[] {
  const r = probe.read(file);
  if (r.kind === 'missing') return [];
  if (r.kind === 'error') {
    problems.push({ kind: 'unknown', where: file, what: `${tool} configuration that could not be read (${r.reason})` });
    return [];
  }
  const parsed = parseToml(r.text);
  if (parsed.error) {
    problems.push({ kind: 'unknown', where: `${file}:${parsed.error.line}`, what: `${tool} configuration shellgate cannot read (${parsed.error.reason})` });
    return [];
  }
  return parsed.entries;
}
