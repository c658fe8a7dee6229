/**
 * What a sed script does besides editing the stream: the commands that run a shell (`e`,
 * `s///e`), write files (`w`, `W`, `s///w`) or read them (`r`, `R`). The script is read with
 * GNU sed's grammar (addresses with `I`/`M` flags, `\%re%` delimiters, `addr,+N`, `first~step`,
 * `!`, blocks, labels, `a`/`i`/`c` text, comments); anything the reader does not understand makes
 * the whole script unknown rather than guessed harmless.
 */

export interface SedEffects {
  exec: boolean;
  writes: string[];
  reads: string[];
  /** Why the script could not be read (an unknown command, an unterminated `s`); null when read. */
  unknown: string | null;
}

/** Commands that take no argument. */
const PLAIN = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);

/** A cursor over the script, with the pieces of GNU sed's grammar that commands share. */
class SedReader {
  i = 0;
  readonly n: number;

  constructor(readonly script: string) {
    this.n = script.length;
  }

  blank(): void {
    while (this.i < this.n && (this.script[this.i] === ' ' || this.script[this.i] === '\t')) this.i++;
  }

  /** The rest of the line (file names, labels of `:`, `e` commands). */
  toEol(): string {
    const end = this.script.indexOf('\n', this.i);
    const s = this.script.slice(this.i, end < 0 ? this.n : end);
    this.i = end < 0 ? this.n : end;
    return s;
  }

  /** Skip up to (not past) the end of the line or one of `stops`. */
  skipUntil(stops: string): void {
    while (this.i < this.n && this.script[this.i] !== '\n' && !stops.includes(this.script[this.i])) this.i++;
  }

  digits(): void {
    while (/[0-9]/.test(this.script[this.i] ?? '')) this.i++;
  }

  /** A regular expression up to the unescaped `delim` (bracket expressions may hold it). */
  regex(delim: string): boolean {
    const { script, n } = this;
    while (this.i < n) {
      const c = script[this.i];
      if (c === '\\') {
        this.i += 2;
        continue;
      }
      if (c === delim) {
        this.i++;
        return true;
      }
      if (c === '\n' && delim !== '\n') return false;
      if (c === '[') {
        const end = this.bracketEnd(this.i + 1);
        if (end < 0) return false;
        this.i = end + 1;
        continue;
      }
      this.i++;
    }
    return false;
  }

  /** Where the bracket expression whose body starts at `j` ends (its `]`), or -1. */
  private bracketEnd(j: number): number {
    const { script, n } = this;
    if (script[j] === '^') j++;
    if (script[j] === ']') j++;
    while (j < n && script[j] !== ']') {
      if (script[j] === '[' && /[:.=]/.test(script[j + 1] ?? '')) {
        const close = script.indexOf(script[j + 1] + ']', j + 2);
        if (close < 0) return -1;
        j = close + 2;
      } else if (script[j] === '\n') return -1;
      else j++;
    }
    return j >= n ? -1 : j;
  }

  /** Replacement text of `s` up to the unescaped `delim`. */
  replacement(delim: string): boolean {
    while (this.i < this.n) {
      const c = this.script[this.i];
      if (c === '\\') this.i += 2;
      else if (c === delim) {
        this.i++;
        return true;
      } else if (c === '\n') return false;
      else this.i++;
    }
    return false;
  }

  address(): boolean | 'none' {
    const c = this.script[this.i];
    if (c === undefined) return 'none';
    if (/[0-9]/.test(c)) {
      this.digits();
      if (this.script[this.i] === '~') {
        this.i++;
        this.digits();
      }
      return true;
    }
    if (c === '$') {
      this.i++;
      return true;
    }
    if (c === '/' || c === '\\') {
      let delim = '/';
      if (c === '\\') {
        delim = this.script[this.i + 1];
        if (delim === undefined || delim === '\n' || delim === '\\') return false;
        this.i++;
      }
      this.i++;
      if (!this.regex(delim)) return false;
      while (this.script[this.i] === 'I' || this.script[this.i] === 'M') this.i++; // address flags
      return true;
    }
    return 'none';
  }

  /** The addresses before a command (none, one, or a range) and its `!`: why they are bad, or null. */
  addresses(): string | null {
    const first = this.address();
    if (first === false) return 'an unterminated address';
    if (first === true) {
      this.blank();
      if (this.script[this.i] === ',') {
        this.i++;
        this.blank();
        if (this.script[this.i] === '+' || this.script[this.i] === '~') {
          this.i++;
          if (!/[0-9]/.test(this.script[this.i] ?? '')) return 'a bad address';
          this.digits();
        } else if (this.address() !== true) return 'a bad address range';
      }
    }
    this.blank();
    while (this.script[this.i] === '!' || this.script[this.i] === ' ' || this.script[this.i] === '\t') this.i++;
    return null;
  }
}

/** Reads the argument of one command (the reader is just past its letter): why it fails, or null. */
type CommandReader = (r: SedReader, cmd: string, out: SedEffects) => string | null;

const skipTo =
  (stops: string): CommandReader =>
  (r) => {
    r.skipUntil(stops);
    return null;
  };

/** `r`/`R` read the named file, `w`/`W` write it. */
const fileCommand: CommandReader = (r, cmd, out) => {
  r.blank();
  const file = r.toEol();
  if (file === '') return `\`${cmd}\` without a file name`;
  (cmd === 'r' || cmd === 'R' ? out.reads : out.writes).push(file);
  return null;
};

/** `s/re/text/flags` (flag `e` runs the result, `w FILE` writes it) and `y/src/dst/`. */
const substitute: CommandReader = (r, cmd, out) => {
  const delim = r.script[r.i++];
  if (delim === undefined || delim === '\n' || delim === '\\') return `a bad \`${cmd}\` delimiter`;
  if (cmd === 's' ? !r.regex(delim) || !r.replacement(delim) : !r.replacement(delim) || !r.replacement(delim)) return `an unterminated \`${cmd}\``;
  if (cmd === 'y') return null;
  while (r.i < r.n) {
    const f = r.script[r.i];
    if (f === 'e') out.exec = true;
    else if (f === 'w') {
      r.i++;
      r.blank();
      const file = r.toEol();
      if (file === '') return '`s///w` without a file name';
      out.writes.push(file);
      break;
    } else if (!/[gpiImM0-9]/.test(f)) break;
    r.i++;
  }
  return null;
};

const COMMANDS: Record<string, CommandReader> = {
  ...Object.fromEntries([...PLAIN].map((c): [string, CommandReader] => [c, () => null])),
  // An optional exit code or line length.
  ...Object.fromEntries(
    ['q', 'Q', 'l', 'L'].map((c): [string, CommandReader] => [
      c,
      (r) => {
        r.blank();
        r.digits();
        return null;
      },
    ]),
  ),
  ':': (r) => {
    r.blank();
    // A label ends at a newline or a semicolon (GNU).
    r.skipUntil(';');
    return null;
  },
  b: skipTo(';}'),
  t: skipTo(';}'),
  T: skipTo(';}'),
  v: skipTo(';}'),
  ...Object.fromEntries(
    ['a', 'i', 'c'].map((c): [string, CommandReader] => [
      c,
      (r) => {
        // Text to the end of the line; a backslash at the end continues it (`a\` then lines).
        while (r.i < r.n && r.script[r.i] !== '\n') {
          if (r.script[r.i] === '\\') r.i++;
          r.i++;
        }
        return null;
      },
    ]),
  ),
  e: (r, _cmd, out) => {
    out.exec = true; // `e` runs the pattern space, `e CMD` runs CMD
    r.toEol();
    return null;
  },
  r: fileCommand,
  R: fileCommand,
  w: fileCommand,
  W: fileCommand,
  s: substitute,
  y: substitute,
};

export function sedScriptEffects(script: string): SedEffects {
  const out: SedEffects = { exec: false, writes: [], reads: [], unknown: null };
  const fail = (why: string): SedEffects => ({ ...out, unknown: why });
  const r = new SedReader(script);
  let depth = 0;
  while (r.i < r.n) {
    // Separators, blanks and comments between commands.
    const c0 = script[r.i];
    if (c0 === ' ' || c0 === '\t' || c0 === '\n' || c0 === ';') {
      r.i++;
      continue;
    }
    if (c0 === '#') {
      r.toEol();
      continue;
    }
    const bad = r.addresses();
    if (bad !== null) return fail(bad);
    const cmd = script[r.i++];
    if (cmd === undefined) return fail('an address with no command');
    if (cmd === '{') depth++;
    else if (cmd === '}') {
      if (--depth < 0) return fail('an unmatched `}`');
    } else {
      const read = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
      if (read === undefined) return fail(`the command \`${cmd}\``);
      const why = read(r, cmd, out);
      if (why !== null) return fail(why);
    }
  }
  if (depth !== 0) return fail('an unclosed `{`');
  return out;
}
