/**
 * End finders on a text: given where a quoted string, substitution or expansion opens, the index
 * just after where it closes. Shared by the input preparation (which must skip them to find
 * heredocs) and the word scanner (which cuts words into parts with them). An unclosed construct
 * runs to `limit` (arithEnd answers -1 instead, as it does for `$( (…) … )`).
 */

/** A backquote substitution: i is the opening backquote. */
export function backtickEnd(t: string, i: number, limit: number): number {
  for (let j = i + 1; j < limit; j++) {
    if (t[j] === '\\') j++;
    else if (t[j] === '`') return j + 1;
  }
  return limit;
}

/** `$'…'`: i is the opening quote. */
export function ansiEnd(t: string, i: number, limit: number): number {
  for (let j = i + 1; j < limit; j++) {
    if (t[j] === '\\') j++;
    else if (t[j] === "'") return j + 1;
  }
  return limit;
}

/** `"…"`: i is the opening quote. */
export function dqEnd(t: string, i: number, limit: number): number {
  let j = i + 1;
  while (j < limit) {
    const c = t[j];
    if (c === '\\') j += 2;
    else if (c === '"') return j + 1;
    else if (c === '`') j = backtickEnd(t, j, limit);
    else if (c === '$' && t[j + 1] === '(') j = parenEnd(t, j + 1, limit);
    else if (c === '$' && t[j + 1] === '{') j = braceEnd(t, j, limit);
    else j++;
  }
  return limit;
}

/**
 * Index after the bracket that closes the one at `start` (`(` or `{`), skipping quotes,
 * backquotes, `$'…'`, nested `${…}` and `$(…)`, and (in parentheses) comments.
 */
function nestedEnd(t: string, start: number, limit: number, open: string, close: string): number {
  let depth = 0;
  let j = start;
  let wordStart = true;
  while (j < limit) {
    const c = t[j];
    if (c === '\\') {
      j += 2;
      wordStart = false;
      continue;
    }
    if (c === '#' && wordStart && depth > 0 && open === '(') {
      while (j < limit && t[j] !== '\n') j++;
      continue;
    }
    if (c === open) {
      depth++;
      j++;
    } else if (c === close) {
      depth--;
      j++;
      if (depth === 0) return j;
    } else if (c === "'") {
      const k = t.indexOf("'", j + 1);
      j = k < 0 || k >= limit ? limit : k + 1;
    } else if (c === '"') j = dqEnd(t, j, limit);
    else if (c === '`') j = backtickEnd(t, j, limit);
    else if (c === '$' && t[j + 1] === "'") j = ansiEnd(t, j + 1, limit);
    else if (c === '$' && t[j + 1] === '{' && open !== '{') j = braceEnd(t, j, limit);
    else if (c === '$' && t[j + 1] === '(' && open !== '(') j = parenEnd(t, j + 1, limit);
    else j++;
    wordStart = /[\s;&|()<>]/.test(c);
  }
  return limit;
}

/** Index after the `)` matching the `(` at i, skipping quotes, substitutions and comments. */
export function parenEnd(t: string, i: number, limit: number): number {
  return nestedEnd(t, i, limit, '(', ')');
}

/** `${…}` starting at i (the `$`): index after the matching `}`. */
export function braceEnd(t: string, i: number, limit: number): number {
  return nestedEnd(t, i + 1, limit, '{', '}');
}

/** `$((…))` starting at i (the `$`): index after `))`, or -1 when it is `$( (…) … )` instead. */
export function arithEnd(t: string, i: number, limit: number): number {
  let depth = 0;
  let lastClose = -2;
  let j = i + 1;
  while (j < limit) {
    const c = t[j];
    if (c === '\\') j += 2;
    else if (c === '(') {
      depth++;
      j++;
    } else if (c === ')') {
      depth--;
      if (depth === 0) return lastClose === j - 1 ? j + 1 : -1;
      if (depth === 1) lastClose = j;
      j++;
    } else if (c === "'") {
      const k = t.indexOf("'", j + 1);
      j = k < 0 || k >= limit ? limit : k + 1;
    } else if (c === '"') j = dqEnd(t, j, limit);
    else if (c === '`') j = backtickEnd(t, j, limit);
    else if (c === '$' && t[j + 1] === '{') j = braceEnd(t, j, limit);
    else j++;
  }
  return -1;
}
