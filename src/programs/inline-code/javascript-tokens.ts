/**
 * A tokenizer for JavaScript one-liners (`node -e`/`-p`): names, numbers, punctuators, string
 * literals, template literals (their `${…}` read as tokens of their own) and regular-expression
 * literals where an expression may start. A backslash outside a string (`\u0065val` is `eval`),
 * a non-ASCII name, `#private`, or anything else it does not know gives null.
 */

export type JsTokenKind = 'name' | 'number' | 'string' | 'template' | 'regex' | 'op';

export interface JsToken {
  kind: JsTokenKind;
  text: string;
  /** A string literal's value when its escapes are simple; null otherwise. */
  value?: string | null;
}

const PUNCTUATORS = [
  '>>>=',
  '...',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '**',
  '<<',
  '>>',
];
const SINGLE = new Set('{}()[];,<>+-*/%&|^!~?:=.'.split(''));
const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0', '`': '`', $: '$' };

/** After these a `/` starts a regular expression, not a division. */
function regexAllowed(prev: JsToken | undefined): boolean {
  if (prev === undefined) return true;
  if (prev.kind === 'op') return !(prev.text === ')' || prev.text === ']' || prev.text === '}');
  return prev.kind === 'name' && ['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw'].includes(prev.text);
}

export function javascriptTokens(code: string): JsToken[] | null {
  const out: JsToken[] = [];
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    if (/\s/.test(c) && c.charCodeAt(0) < 128) {
      i++;
      continue;
    }
    if (code.startsWith('//', i)) {
      while (i < code.length && code[i] !== '\n') i++;
      continue;
    }
    if (code.startsWith('/*', i)) {
      const end = code.indexOf('*/', i + 2);
      if (end < 0) return null;
      i = end + 2;
      continue;
    }
    if (c === "'" || c === '"') {
      const s = readQuoted(code, i, c);
      if (s === null) return null;
      out.push({ kind: 'string', text: code.slice(i, s.end), value: s.value });
      i = s.end;
      continue;
    }
    if (c === '`') {
      const end = readTemplate(code, i, out);
      if (end < 0) return null;
      i = end;
      continue;
    }
    if (c === '/' && regexAllowed(out[out.length - 1])) {
      const end = readRegex(code, i);
      if (end < 0) return null;
      out.push({ kind: 'regex', text: code.slice(i, end) });
      i = end;
      continue;
    }
    const name = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(code.slice(i));
    if (name) {
      out.push({ kind: 'name', text: name[0] });
      i += name[0].length;
      continue;
    }
    const num = /^(?:[0-9][0-9A-Za-z_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9][0-9_]*)/.exec(code.slice(i));
    if (num) {
      out.push({ kind: 'number', text: num[0] });
      i += num[0].length;
      continue;
    }
    const op = PUNCTUATORS.find((p) => code.startsWith(p, i)) ?? (SINGLE.has(c) ? c : undefined);
    if (op === undefined) return null;
    out.push({ kind: 'op', text: op });
    i += op.length;
  }
  return out;
}

function readQuoted(code: string, start: number, quote: string): { end: number; value: string | null } | null {
  let value: string | null = '';
  for (let i = start + 1; i < code.length; i++) {
    const c = code[i];
    if (c === quote) return { end: i + 1, value };
    if (c === '\n') return null;
    if (c === '\\') {
      const next = code[i + 1];
      if (next === undefined) return null;
      value = value !== null && next in SIMPLE_ESCAPES ? value + SIMPLE_ESCAPES[next] : null;
      i++;
      continue;
    }
    if (value !== null) value += c;
  }
  return null;
}

/** A template literal: its text is a `template` token; each `${…}` is pushed as `(` tokens `)`. */
function readTemplate(code: string, start: number, out: JsToken[]): number {
  const prev = out[out.length - 1];
  // A tag (`String.raw\`…\``, `f\`…\``) calls a function with the parts: not proven.
  if (prev !== undefined && (prev.kind === 'name' || prev.text === ')' || prev.text === ']')) return -1;
  out.push({ kind: 'template', text: '`' });
  for (let i = start + 1; i < code.length; i++) {
    const c = code[i];
    if (c === '`') return i + 1;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '$' && code[i + 1] === '{') {
      let depth = 1;
      let j = i + 2;
      for (; j < code.length && depth > 0; j++) {
        if (code[j] === '{') depth++;
        else if (code[j] === '}') depth--;
        else if ('`\'"/'.includes(code[j])) return -1; // nested literals: not read here
      }
      if (depth !== 0) return -1;
      const inner = javascriptTokens(code.slice(i + 2, j - 1));
      if (inner === null) return -1;
      out.push({ kind: 'op', text: '(' }, ...inner, { kind: 'op', text: ')' });
      i = j - 1;
    }
  }
  return -1;
}

function readRegex(code: string, start: number): number {
  let inClass = false;
  for (let i = start + 1; i < code.length; i++) {
    const c = code[i];
    if (c === '\n') return -1;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) {
      const flags = /^[a-z]*/.exec(code.slice(i + 1))![0];
      return i + 1 + flags.length;
    }
  }
  return -1;
}
