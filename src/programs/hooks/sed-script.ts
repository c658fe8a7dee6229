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

export function sedScriptEffects(script: string): SedEffects {
  const out: SedEffects = { exec: false, writes: [], reads: [], unknown: null };
  let i = 0;
  const n = script.length;
  const fail = (why: string): SedEffects => ({ ...out, unknown: why });
  const blank = () => {
    while (i < n && (script[i] === ' ' || script[i] === '\t')) i++;
  };
  /** The rest of the line (file names, labels of `:`, `e` commands). */
  const toEol = (): string => {
    const end = script.indexOf('\n', i);
    const s = script.slice(i, end < 0 ? n : end);
    i = end < 0 ? n : end;
    return s;
  };
  /** A regular expression up to the unescaped `delim` (bracket expressions may hold it). */
  const regex = (delim: string): boolean => {
    while (i < n) {
      const c = script[i];
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === delim) {
        i++;
        return true;
      }
      if (c === '\n' && delim !== '\n') return false;
      if (c === '[') {
        let j = i + 1;
        if (script[j] === '^') j++;
        if (script[j] === ']') j++;
        while (j < n && script[j] !== ']') {
          if (script[j] === '[' && /[:.=]/.test(script[j + 1] ?? '')) {
            const close = script.indexOf(script[j + 1] + ']', j + 2);
            if (close < 0) return false;
            j = close + 2;
          } else if (script[j] === '\n') return false;
          else j++;
        }
        if (j >= n) return false;
        i = j + 1;
        continue;
      }
      i++;
    }
    return false;
  };
  /** Replacement text of `s` up to the unescaped `delim`. */
  const replacement = (delim: string): boolean => {
    while (i < n) {
      const c = script[i];
      if (c === '\\') i += 2;
      else if (c === delim) {
        i++;
        return true;
      } else if (c === '\n') return false;
      else i++;
    }
    return false;
  };
  const address = (): boolean | 'none' => {
    const c = script[i];
    if (c === undefined) return 'none';
    if (/[0-9]/.test(c)) {
      while (/[0-9]/.test(script[i] ?? '')) i++;
      if (script[i] === '~') {
        i++;
        while (/[0-9]/.test(script[i] ?? '')) i++;
      }
      return true;
    }
    if (c === '$') {
      i++;
      return true;
    }
    if (c === '/' || c === '\\') {
      let delim = '/';
      if (c === '\\') {
        delim = script[i + 1];
        if (delim === undefined || delim === '\n' || delim === '\\') return false;
        i++;
      }
      i++;
      if (!regex(delim)) return false;
      while (script[i] === 'I' || script[i] === 'M') i++; // address flags
      return true;
    }
    return 'none';
  };

  let depth = 0;
  while (i < n) {
    // Separators, blanks and comments between commands.
    const c0 = script[i];
    if (c0 === ' ' || c0 === '\t' || c0 === '\n' || c0 === ';') {
      i++;
      continue;
    }
    if (c0 === '#') {
      toEol();
      continue;
    }
    const first = address();
    if (first === false) return fail('an unterminated address');
    if (first === true) {
      blank();
      if (script[i] === ',') {
        i++;
        blank();
        if (script[i] === '+' || script[i] === '~') {
          i++;
          if (!/[0-9]/.test(script[i] ?? '')) return fail('a bad address');
          while (/[0-9]/.test(script[i] ?? '')) i++;
        } else if (address() !== true) return fail('a bad address range');
      }
    }
    blank();
    while (script[i] === '!' || script[i] === ' ' || script[i] === '\t') i++;
    const cmd = script[i++];
    if (cmd === undefined) return fail('an address with no command');
    if (cmd === '{') {
      depth++;
      continue;
    }
    if (cmd === '}') {
      if (--depth < 0) return fail('an unmatched `}`');
      continue;
    }
    if (PLAIN.has(cmd)) continue;
    if (cmd === 'q' || cmd === 'Q' || cmd === 'l' || cmd === 'L') {
      blank();
      while (/[0-9]/.test(script[i] ?? '')) i++;
      continue;
    }
    if (cmd === ':') {
      blank();
      // A label ends at a newline or a semicolon (GNU).
      while (i < n && script[i] !== '\n' && script[i] !== ';') i++;
      continue;
    }
    if (cmd === 'b' || cmd === 't' || cmd === 'T') {
      while (i < n && script[i] !== '\n' && script[i] !== ';' && script[i] !== '}') i++;
      continue;
    }
    if (cmd === 'v') {
      while (i < n && script[i] !== '\n' && script[i] !== ';' && script[i] !== '}') i++;
      continue;
    }
    if (cmd === 'a' || cmd === 'i' || cmd === 'c') {
      // Text to the end of the line; a backslash at the end continues it (`a\` then lines).
      while (i < n && script[i] !== '\n') {
        if (script[i] === '\\') i++;
        i++;
      }
      continue;
    }
    if (cmd === 'e') {
      out.exec = true; // `e` runs the pattern space, `e CMD` runs CMD
      toEol();
      continue;
    }
    if (cmd === 'r' || cmd === 'R' || cmd === 'w' || cmd === 'W') {
      blank();
      const file = toEol();
      if (file === '') return fail(`\`${cmd}\` without a file name`);
      (cmd === 'r' || cmd === 'R' ? out.reads : out.writes).push(file);
      continue;
    }
    if (cmd === 's' || cmd === 'y') {
      const delim = script[i++];
      if (delim === undefined || delim === '\n' || delim === '\\') return fail(`a bad \`${cmd}\` delimiter`);
      if (cmd === 's' ? !regex(delim) || !replacement(delim) : !replacement(delim) || !replacement(delim)) return fail(`an unterminated \`${cmd}\``);
      if (cmd === 'y') continue;
      while (i < n) {
        const f = script[i];
        if (f === 'e') out.exec = true;
        else if (f === 'w') {
          i++;
          blank();
          const file = toEol();
          if (file === '') return fail('`s///w` without a file name');
          out.writes.push(file);
          break;
        } else if (!/[gpiImM0-9]/.test(f)) break;
        i++;
      }
      continue;
    }
    return fail(`the command \`${cmd}\``);
  }
  if (depth !== 0) return fail('an unclosed `{`');
  return out;
}
