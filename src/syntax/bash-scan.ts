/**
 * Where bash ends a quoted string, a substitution or an expansion, read with bash's own rules
 * (parse.y: parse_matched_pair, parse_comsub, parse_arith_cmd, read_a_line). Our parser uses them
 * for the extents it does not parse as commands (`${…}` operands, arithmetic, backquotes), and the
 * tree-sitter front end where tree-sitter-bash reads a construct differently from bash.
 *
 * Every function reads forward once (linear in the text it covers) and returns -1 when the
 * construct is not closed before `end`. These are not a parser: they find extents, not commands;
 * what lies inside a command text is parsed again by the front end.
 */

export interface ScanOptions {
  /** Collects the backslash-newline pairs bash removes before reading (their backslash's index). */
  joins?: number[];
  /**
   * Ends already found, by start and kind (see remember): a reader that skips a construct and
   * then reads inside it finds the nested ends here instead of skipping them again, which keeps
   * deep nesting linear.
   */
  memo?: Map<number, number>;
}

const enum Kind {
  CommandParen = 1,
  CommandBrace,
  ArithParens,
  Brace,
  Backquote,
  Bracket,
}

function recalled(o: ScanOptions, i: number, kind: Kind): number | undefined {
  return o.memo?.get(i * 8 + kind);
}

function remember(o: ScanOptions, i: number, kind: Kind, end: number): number {
  o.memo?.set(i * 8 + kind, end);
  return end;
}

const NONE: ScanOptions = {};

/** Reserved words after which a command may start again (`if x; then CMD`). */
const COMMAND_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', '!', '{', 'time', 'coproc']);

/** `'…'` opened at i: no escapes inside. Returns the index past the closing quote. */
export function skipSingle(s: string, i: number, end = s.length): number {
  const j = s.indexOf("'", i + 1);
  return j < 0 || j >= end ? -1 : j + 1;
}

/** `$'…'` opened at i (the `$`): a backslash escapes any character, the quote included. */
export function skipAnsiC(s: string, i: number, end = s.length): number {
  for (let j = i + 2; j < end; j++) {
    if (s[j] === '\\') j++;
    else if (s[j] === "'") return j + 1;
  }
  return -1;
}

/** `` `…` `` opened at i: ends at the next backquote not escaped by a backslash. */
export function skipBackquote(s: string, i: number, end = s.length, o: ScanOptions = NONE): number {
  const known = recalled(o, i, Kind.Backquote);
  if (known !== undefined) return known;
  for (let j = i + 1; j < end; j++) {
    if (s[j] === '\\') {
      if (s[j + 1] === '\n') o.joins?.push(j);
      j++;
    } else if (s[j] === '`') return remember(o, i, Kind.Backquote, j + 1);
  }
  return -1;
}

/** `"…"` opened at i. Inside, substitutions nest and may hold quotes of their own. */
export function skipDouble(s: string, i: number, end = s.length, o: ScanOptions = NONE): number {
  let j = i + 1;
  while (j < end) {
    const c = s[j];
    if (c === '\\') {
      if (s[j + 1] === '\n') o.joins?.push(j);
      j += 2;
    } else if (c === '"') return j + 1;
    else if (c === '`') {
      j = skipBackquote(s, j, end, o);
      if (j < 0) return -1;
    } else if (c === '$') {
      j = skipDollar(s, j, end, o, true);
      if (j < 0) return -1;
    } else j++;
  }
  return -1;
}

/** Does `${` at i open bash 5.3's command substitution in the current shell (`${ cmd; }`, `${|cmd;}`)? */
export function isFunsub(s: string, i: number): boolean {
  const c = s[i + 2];
  return c === ' ' || c === '\t' || c === '\n' || c === '|';
}

/**
 * Whatever starts with the `$` at i: `$(…)`, `$((…))`, `${…}`, `$[…]`, and outside double quotes
 * `$'…'` and `$"…"`. Returns the index past it (i + 1 for a lone `$`).
 */
export function skipDollar(s: string, i: number, end: number, o: ScanOptions, inDouble: boolean): number {
  const next = s[i + 1];
  if (next === '(') {
    // `$((`: the parser matches parentheses from the `$(` (parse_comsub, P_ARITH); whether it is
    // arithmetic is decided when it is expanded (isArithmetic).
    const close = s[i + 2] === '(' ? skipArithParens(s, i + 1, end, o) : skipCommand(s, i + 2, ')', end, o);
    return close < 0 ? -1 : close + 1;
  }
  if (next === '{') {
    if (isFunsub(s, i)) {
      const close = skipCommand(s, i + 2, '}', end, o);
      return close < 0 ? -1 : close + 1;
    }
    return skipBrace(s, i, end, o);
  }
  if (next === '[') return skipBracket(s, i + 1, end, o);
  if (inDouble) return i + 1;
  if (next === "'") return skipAnsiC(s, i, end);
  if (next === '"') return skipDouble(s, i + 1, end, o);
  return i + 1;
}

/**
 * `${…}` opened at i (the `$`), as the parser reads it: quotes and substitutions inside are
 * matched, even inside double quotes, and the first `}` outside them ends it.
 */
export function skipBrace(s: string, i: number, end = s.length, o: ScanOptions = NONE): number {
  const known = recalled(o, i, Kind.Brace);
  if (known !== undefined) return known;
  let j = i + 2;
  while (j < end) {
    const c = s[j];
    if (c === '}') return remember(o, i, Kind.Brace, j + 1);
    j = skipQuotedOrSubstitution(s, j, end, o);
    if (j < 0) return -1;
  }
  return -1;
}

/** `[…]` opened at i (of `$[`): nested brackets count, quotes and substitutions are skipped. */
export function skipBracket(s: string, i: number, end: number, o: ScanOptions = NONE): number {
  const known = recalled(o, i, Kind.Bracket);
  if (known !== undefined) return known;
  let depth = 0;
  let j = i;
  while (j < end) {
    const c = s[j];
    if (c === '[') {
      depth++;
      j++;
    } else if (c === ']') {
      if (--depth === 0) return remember(o, i, Kind.Bracket, j + 1);
      j++;
    } else {
      j = skipQuotedOrSubstitution(s, j, end, o);
      if (j < 0) return -1;
    }
  }
  return -1;
}

/**
 * The matched pair of an arithmetic `((` whose first `(` is at i: parentheses count from there,
 * quotes and substitutions are skipped. Returns the index of the `)` that matches the one at i.
 */
export function skipArithParens(s: string, i: number, end: number, o: ScanOptions = NONE): number {
  const known = recalled(o, i, Kind.ArithParens);
  if (known !== undefined) return known;
  let depth = 0;
  let j = i;
  while (j < end) {
    const c = s[j];
    if (c === '(') {
      // Remember the ends of nested pairs too: isArithmetic asks for the inner one.
      if (depth > 0) {
        const inner = skipArithParens(s, j, end, o);
        if (inner < 0) return -1;
        j = inner + 1;
        continue;
      }
      depth++;
      j++;
    } else if (c === ')') {
      if (--depth === 0) return remember(o, i, Kind.ArithParens, j);
      j++;
    } else {
      j = skipQuotedOrSubstitution(s, j, end, o);
      if (j < 0) return -1;
    }
  }
  return -1;
}

/** One step inside a matched pair: skip a quoted string or substitution at j, or one character. */
function skipQuotedOrSubstitution(s: string, j: number, end: number, o: ScanOptions): number {
  const c = s[j];
  if (c === '\\') {
    if (s[j + 1] === '\n') o.joins?.push(j);
    return j + 2;
  }
  if (c === "'") return skipSingle(s, j, end);
  if (c === '"') return skipDouble(s, j, end, o);
  if (c === '`') return skipBackquote(s, j, end, o);
  if (c === '$') return skipDollar(s, j, end, o, false);
  if ((c === '<' || c === '>') && s[j + 1] === '(') {
    const close = skipCommand(s, j + 2, ')', end, o);
    return close < 0 ? -1 : close + 1;
  }
  return j + 1;
}

/**
 * Is the `((` at i an arithmetic command or expansion for bash? bash reads a matched pair from the
 * second `(`; unless a `)` follows it directly, `((a) …)` is a subshell inside a subshell
 * (parse_arith_cmd), and `$((a) …)` a command substitution (subst.c, chk_arithsub).
 */
export function isArithmetic(s: string, i: number, end = s.length, o: ScanOptions = NONE): boolean {
  const inner = skipArithParens(s, i + 1, end, o);
  return inner >= 0 && s[inner + 1] === ')';
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  quoted: boolean;
}

const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

/**
 * Command text from i up to the unmatched `close` (`)` ends `$(…)`, `}` ends `${ …; }`); with no
 * close, to `end`. Knows comments, case patterns, here-documents and nested subshells. Returns the
 * index of the closing character (`end` when there is no close), or -1.
 */
export function skipCommand(s: string, i: number, close: ')' | '}' | null, end = s.length, o: ScanOptions = NONE): number {
  const kind = close === ')' ? Kind.CommandParen : Kind.CommandBrace;
  if (close !== null) {
    const known = recalled(o, i, kind);
    if (known !== undefined) return known;
    const found = scanCommand(s, i, close, end, o);
    return found < 0 ? -1 : remember(o, i, kind, found);
  }
  return scanCommand(s, i, close, end, o);
}

// eslint-disable-next-line max-lines-per-function -- one loop over characters whose branches share its state (depth, open cases, word and command start): split, each piece would take and return all of it
function scanCommand(s: string, i: number, close: ')' | '}' | null, end: number, o: ScanOptions): number {
  let depth = 0;
  let wordStart = true;
  let commandStart = true;
  const cases: number[] = [];
  const heredocs: PendingHeredoc[] = [];
  let j = i;
  while (j < end) {
    const c = s[j];
    if (c === '\n') {
      j++;
      wordStart = commandStart = true;
      if (heredocs.length > 0) {
        j = skipHeredocBodies(s, j, end, heredocs, o);
        heredocs.length = 0;
      }
      continue;
    }
    if (c === ' ' || c === '\t') {
      j++;
      wordStart = true;
      continue;
    }
    if (c === '#' && wordStart) {
      const nl = s.indexOf('\n', j);
      if (nl < 0 || nl >= end) return close === null ? end : -1;
      j = nl;
      continue;
    }
    if (c === '(' && s[j + 1] === '(' && isArithmetic(s, j, end, o)) {
      j = skipArithParens(s, j + 1, end, o) + 2;
      wordStart = false;
      commandStart = false;
      continue;
    }
    if (c === '(') {
      depth++;
      j++;
      wordStart = commandStart = true;
      continue;
    }
    if (c === ')') {
      j++;
      wordStart = commandStart = true;
      // At a case's own depth, `)` ends a pattern.
      if (cases.length > 0 && cases[cases.length - 1] === depth) continue;
      if (depth === 0) {
        if (close === ')') return j - 1;
        continue;
      }
      depth--;
      continue;
    }
    if (c === '}' && close === '}' && depth === 0 && commandStart) return j;
    if (c === '<' && s[j + 1] === '<' && s[j + 2] !== '<') {
      j = readHeredocOperator(s, j, end, heredocs);
      wordStart = false;
      continue;
    }
    if (c === ';' || c === '&' || c === '|') {
      j++;
      wordStart = commandStart = true;
      continue;
    }
    if ((c === '<' || c === '>') && s[j + 1] !== '(') {
      j++;
      wordStart = true;
      commandStart = false;
      continue;
    }
    if (wordStart && commandStart) {
      let k = j;
      while (k < end && !WORD_END.has(s[k]) && /[A-Za-z!{]/.test(s[k])) k++;
      const word = s.slice(j, k);
      if (k > j && (k >= end || WORD_END.has(s[k]))) {
        if (word === 'case') cases.push(depth);
        else if (word === 'esac' && cases.length > 0 && cases[cases.length - 1] === depth) cases.pop();
        commandStart = COMMAND_KEYWORDS.has(word) || (word === 'in' && cases.length > 0);
        wordStart = false;
        j = k;
        continue;
      }
    }
    const next = skipQuotedOrSubstitution(s, j, end, o);
    if (next < 0) return -1;
    j = next;
    wordStart = false;
    commandStart = false;
  }
  return close === null ? end : -1;
}

/** `<<WORD` or `<<-WORD` at i: remember the delimiter; returns the index past the word. */
function readHeredocOperator(s: string, i: number, end: number, out: PendingHeredoc[]): number {
  let j = i + 2;
  const stripTabs = s[j] === '-';
  if (stripTabs) j++;
  while (j < end && (s[j] === ' ' || s[j] === '\t')) j++;
  let delimiter = '';
  let quoted = false;
  while (j < end && !WORD_END.has(s[j])) {
    const c = s[j];
    if (c === '\\') {
      quoted = true;
      delimiter += s[j + 1] ?? '';
      j += 2;
    } else if (c === "'" || c === '"') {
      quoted = true;
      const close = s.indexOf(c, j + 1);
      const stop = close < 0 || close >= end ? end : close;
      delimiter += s.slice(j + 1, stop);
      j = stop + 1;
    } else {
      delimiter += c;
      j++;
    }
  }
  if (delimiter !== '') out.push({ delimiter, stripTabs, quoted });
  return Math.min(j, end);
}

/**
 * Here-document bodies starting at i, one after another: each ends at a line equal to its
 * delimiter. In a body with an unquoted delimiter a backslash-newline joins lines first
 * (read_a_line), so `x\` + `EOF` is not the end.
 */
function skipHeredocBodies(s: string, i: number, end: number, pending: PendingHeredoc[], o: ScanOptions): number {
  let j = i;
  for (const h of pending) {
    while (j < end) {
      let line = '';
      let k = j;
      while (k < end && s[k] !== '\n') {
        if (!h.quoted && s[k] === '\\') {
          if (s[k + 1] === '\n') {
            o.joins?.push(k);
            k += 2;
            continue;
          }
          line += s.slice(k, k + 2);
          k += 2;
          continue;
        }
        line += s[k];
        k++;
      }
      const next = Math.min(k + 1, end);
      j = next;
      if ((h.stripTabs ? line.replace(/^\t+/, '') : line) === h.delimiter) break;
    }
  }
  return j;
}
