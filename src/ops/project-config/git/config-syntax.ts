/**
 * Git's configuration file syntax, read the way git's own parser (config.c, git_parse_source)
 * reads it, character by character: `[section]`, `[section "sub"]` (subsection case-sensitive,
 * `\"` and `\\` escaped), the deprecated `[section.sub]` (lowercased), a key on the same line as
 * its header (`[core] fsmonitor = x`), several headers on one line, `#`/`;` comments, quoted
 * values with `\n \t \b \" \\` escapes, backslash-newline continuations, CRLF line ends, a UTF-8
 * byte order mark, trailing blanks trimmed. Section and key names are case-insensitive.
 *
 * Where git would stop with "bad config line" the result carries the line: git dies there, but a
 * reading that differs from git's by one character could hide a key, so callers take the strict
 * answer rather than trust the entries read so far.
 */

export interface GitConfigEntry {
  /** `section.key` or `section.subsection.key`: section and key lowercased, subsection as git keeps it. */
  name: string;
  section: string;
  /** null when there is none. */
  subsection: string | null;
  key: string;
  /** null for a key with no `=` (boolean true). */
  value: string | null;
  line: number;
}

export interface GitConfigParse {
  entries: GitConfigEntry[];
  /** Line where git's parser would fail, or null. */
  errorLine: number | null;
}

/** git's sane_ctype isspace: space, tab, newline, carriage return (not \v or \f). */
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isAlpha = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isKeyChar = (c: string): boolean => isAlpha(c) || (c >= '0' && c <= '9') || c === '-';

/** Split a full variable name like git's parse_config_key: section up to the first dot, key after the last. */
export function splitConfigName(name: string): { section: string; subsection: string | null; key: string } | null {
  const first = name.indexOf('.');
  const last = name.lastIndexOf('.');
  if (first <= 0 || last === name.length - 1) return null;
  return {
    section: name.slice(0, first).toLowerCase(),
    subsection: first === last ? null : name.slice(first + 1, last),
    key: name.slice(last + 1).toLowerCase(),
  };
}

/**
 * Normalise a name given on the command line (`git -c Core.Pager=x`, GIT_CONFIG_KEY_0): section
 * and key are case-insensitive, the subsection is not.
 */
export function normaliseConfigName(name: string): string | null {
  const parts = splitConfigName(name);
  if (!parts) return null;
  return parts.subsection === null ? `${parts.section}.${parts.key}` : `${parts.section}.${parts.subsection}.${parts.key}`;
}

/** A cursor over the text the way git's get_next_char reads it: CRLF as LF, lines counted. */
class GitConfigReader {
  i = 0;
  line = 1;
  eof = false;

  constructor(private readonly text: string) {
    // U+FEFF at the very start is skipped.
    if (text.charCodeAt(0) === 0xfeff) this.i = 1;
  }

  // get_next_char: CRLF reads as LF; past the end it keeps answering '\n' with eof set.
  next(): string {
    const { text } = this;
    if (this.i >= text.length) {
      this.eof = true;
      return '\n';
    }
    let c = text[this.i++];
    if (c === '\r' && text[this.i] === '\n') {
      c = '\n';
      this.i++;
    }
    if (c === '\n') this.line++;
    return c;
  }

  /** get_base_var: the section name after `[`, up to `]`; null where git fails. */
  baseVar(): string | null {
    let name = '';
    for (;;) {
      const c = this.next();
      if (this.eof) return null;
      if (c === ']') return name;
      if (isSpace(c)) return this.extendedBase(name, c);
      if (!isKeyChar(c) && c !== '.') return null;
      name += c.toLowerCase();
    }
  }

  // [section "subsection"]: after the blank, a quoted name, then `]` right after the quote.
  private extendedBase(name: string, c: string): string | null {
    do {
      if (c === '\n') return null;
      c = this.next();
    } while (isSpace(c));
    if (c !== '"') return null;
    name += '.';
    for (;;) {
      let d = this.next();
      if (d === '\n') return null;
      if (d === '"') break;
      if (d === '\\') {
        d = this.next();
        if (d === '\n') return null;
      }
      name += d;
    }
    return this.next() === ']' ? name : null;
  }

  /**
   * get_value after the first letter `c` of a key: the key (lowercased) and its value, null for
   * none (no `=`); undefined where git fails.
   */
  keyAndValue(c: string): { key: string; value: string | null } | undefined {
    let key = c.toLowerCase();
    let d: string;
    for (;;) {
      d = this.next();
      if (this.eof || !isKeyChar(d)) break;
      key += d.toLowerCase();
    }
    while (d === ' ' || d === '\t') d = this.next();
    if (d === '\n') return { key, value: null };
    if (d !== '=') return undefined;
    const value = this.parseValue();
    return value === null ? undefined : { key, value };
  }

  /** parse_value: quotes, escapes, comments and continuations; trailing blanks trimmed; null where git fails. */
  private parseValue(): string | null {
    let quote = false;
    let comment = false;
    let value = '';
    let trimLen = 0;
    for (;;) {
      let c = this.next();
      if (c === '\n') {
        if (quote) return null;
        return trimLen ? value.slice(0, trimLen) : value;
      }
      if (comment) continue;
      if (isSpace(c) && !quote) {
        if (!trimLen) trimLen = value.length;
        if (value.length) value += c;
        continue;
      }
      if (!quote && (c === ';' || c === '#')) {
        comment = true;
        continue;
      }
      if (trimLen) trimLen = 0;
      if (c === '\\') {
        c = this.next();
        switch (c) {
          case '\n':
            continue;
          case 't':
            c = '\t';
            break;
          case 'b':
            c = '\b';
            break;
          case 'n':
            c = '\n';
            break;
          case '\\':
          case '"':
            break;
          default:
            return null; // git rejects unknown escapes
        }
        value += c;
        continue;
      }
      if (c === '"') {
        quote = !quote;
        continue;
      }
      value += c;
    }
  }
}

/** git_parse_source: headers, comments and `key [= value]` lines, in one pass. */
export function parseGitConfig(text: string): GitConfigParse {
  const entries: GitConfigEntry[] = [];
  const r = new GitConfigReader(text);
  const fail = (): GitConfigParse => ({ entries, errorLine: r.line });
  let base = '';
  let comment = false;
  for (;;) {
    const c = r.next();
    if (c === '\n') {
      if (r.eof) return { entries, errorLine: null };
      comment = false;
      continue;
    }
    if (comment) continue;
    if (isSpace(c)) continue;
    if (c === '#' || c === ';') {
      comment = true;
      continue;
    }
    if (c === '[') {
      const name = r.baseVar();
      if (name === null || name.length < 1) return fail();
      base = name + '.';
      continue;
    }
    if (!isAlpha(c)) return fail();
    const entryLine = r.line;
    const kv = r.keyAndValue(c);
    if (kv === undefined) return fail();
    const name = base + kv.key;
    const parts = splitConfigName(name);
    entries.push({
      name,
      section: parts?.section ?? '',
      subsection: parts?.subsection ?? null,
      key: parts?.key ?? kv.key,
      value: kv.value,
      line: entryLine,
    });
  }
}
