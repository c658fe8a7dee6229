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

export function parseToml(text: string): TomlParse {
  const entries: TomlEntry[] = [];
  let i = 0;
  let line = 1;
  const peek = (k = 0) => text[i + k] ?? '';
  const fail = (reason: string): never => {
    throw new TomlError(reason);
  };
  const skipBlank = (newlines: boolean) => {
    for (;;) {
      const c = peek();
      if (c === ' ' || c === '\t' || c === '\r') i++;
      else if (c === '\n' && newlines) {
        i++;
        line++;
      } else if (c === '#') {
        while (i < text.length && peek() !== '\n') i++;
      } else return;
    }
  };
  const basicString = (): string => {
    const multi = text.startsWith('"""', i);
    i += multi ? 3 : 1;
    if (multi && peek() === '\n') {
      i++;
      line++;
    }
    let s = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      if (multi ? text.startsWith('"""', i) && peek(3) !== '"' : peek() === '"') {
        i += multi ? 3 : 1;
        return s;
      }
      const c = text[i++];
      if (c === '\n') {
        if (!multi) fail('newline in string');
        line++;
        s += c;
      } else if (c === '\\') {
        const e = text[i++];
        const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\', e: '\x1b' };
        if (e in simple) s += simple[e];
        else if (e === 'u' || e === 'U') {
          const len = e === 'u' ? 4 : 8;
          const hex = text.slice(i, i + len);
          if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== len) fail('bad unicode escape');
          s += String.fromCodePoint(parseInt(hex, 16));
          i += len;
        } else if (multi && (e === '\n' || e === ' ' || e === '\t' || e === '\r')) {
          // line-ending backslash: trim whitespace up to the next non-blank
          i--;
          while (/[ \t\r\n]/.test(peek())) {
            if (peek() === '\n') line++;
            i++;
          }
        } else fail('bad escape');
      } else s += c;
    }
  };
  const literalString = (): string => {
    const multi = text.startsWith("'''", i);
    i += multi ? 3 : 1;
    if (multi && peek() === '\n') {
      i++;
      line++;
    }
    const end = multi ? "'''" : "'";
    let j = text.indexOf(end, i);
    if (j < 0) fail('unterminated string');
    if (multi) while (text[j + 3] === "'") j++;
    const s = text.slice(i, j);
    if (!multi && s.includes('\n')) fail('newline in string');
    line += s.split('\n').length - 1;
    i = j + end.length;
    return s;
  };
  const key = (): string[] => {
    const parts: string[] = [];
    for (;;) {
      skipBlank(false);
      const c = peek();
      if (c === '"') parts.push(basicString());
      else if (c === "'") parts.push(literalString());
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i, i + 256));
        if (!m) fail('bad key');
        parts.push(m![0]);
        i += m![0].length;
      }
      skipBlank(false);
      if (peek() !== '.') return parts;
      i++;
    }
  };
  const value = (prefix: string[], startLine: number): string => {
    skipBlank(false);
    const c = peek();
    if (c === '"') return basicString();
    if (c === "'") return literalString();
    if (c === '[') {
      const start = i;
      i++;
      for (;;) {
        skipBlank(true);
        if (peek() === ']') {
          i++;
          return text.slice(start, i);
        }
        value([...prefix], line);
        skipBlank(true);
        if (peek() === ',') i++;
        else if (peek() !== ']') fail('bad array');
      }
    }
    if (c === '{') {
      const start = i;
      i++;
      skipBlank(false);
      if (peek() === '}') {
        i++;
        return '{}';
      }
      for (;;) {
        const k = key();
        if (peek() !== '=') fail('expected =');
        i++;
        const v = value([...prefix, ...k], line);
        entries.push({ path: [...prefix, ...k], value: v, line: startLine });
        skipBlank(false);
        if (peek() === ',') {
          i++;
          continue;
        }
        if (peek() === '}') {
          i++;
          return text.slice(start, i);
        }
        fail('bad inline table');
      }
    }
    const m = /^[A-Za-z0-9_.:+-]+(?:[ T][0-9:.+Z-]+)?/.exec(text.slice(i, i + 256));
    if (!m) fail('bad value');
    i += m![0].length;
    return m![0];
  };

  let table: string[] = [];
  try {
    for (;;) {
      skipBlank(true);
      if (i >= text.length) return { entries, error: null };
      if (peek() === '[') {
        const array = peek(1) === '[';
        i += array ? 2 : 1;
        table = key();
        if (peek() !== ']' || (array && peek(1) !== ']')) fail('bad table header');
        i += array ? 2 : 1;
      } else {
        const at = line;
        const k = key();
        if (peek() !== '=') fail('expected =');
        i++;
        const v = value([...table, ...k], at);
        entries.push({ path: [...table, ...k], value: v, line: at });
      }
      skipBlank(false);
      if (i < text.length && peek() !== '\n') fail('junk after value');
    }
  } catch (e) {
    if (e instanceof TomlError) return { entries, error: { line, reason: e.message } };
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
