/**
 * A tokenizer for Perl one-liners (`perl -ne`, `-lane`, `-pe`). Perl's grammar decides by what
 * came before whether `/` starts a regex, `%` a hash, `*` a glob, `<` a readline, `&` a sub call;
 * so does this: after a term they are operators, elsewhere the other reading. Strings and regexes
 * are read with their interpolation, and code in them (`@{[ … ]}`, `${\ …}`, `$h{system 1}`,
 * `(?{ … })`, `s///e`) makes the whole unreadable (null). Heredocs, POD, backquotes, `$^X`-style
 * variables, symbolic references (`${"name"}`, `&$f`, `*{…}`) are not read either.
 */

export type PerlTokenKind = 'name' | 'var' | 'number' | 'string' | 'regex' | 'readline' | 'op';

export interface PerlToken {
  kind: PerlTokenKind;
  /** A name (`print`, `List::Util`), a variable with its sigil (`$_`, `@F`, `%ENV`), an operator… */
  text: string;
  /** Environment variables named inside a string or regex (`"$ENV{HOME}"`). */
  env?: string[];
}

const OPS = [
  '<=>',
  '**=',
  '||=',
  '&&=',
  '//=',
  '...',
  '->',
  '=>',
  '=~',
  '!~',
  '..',
  '**',
  '++',
  '--',
  '&&',
  '||',
  '//',
  '==',
  '!=',
  '<=',
  '>=',
  '.=',
  '+=',
  '-=',
  '*=',
  '/=',
  'x=',
  '%=',
  '|=',
  '^=',
  '<<',
  '>>',
];
const SINGLE = new Set('()[]{};,=+-.!~?:<>|^\\/%*&'.split(''));
const SPECIAL_VARS = new Set(['_', '/', '\\', ',', '.', ';', '!', '&', '|', '"', '@', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
const QUOTE_LIKE = new Set(['q', 'qq', 'qw', 'm', 'qr', 's', 'tr', 'y']);
const PAIRS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

function isTerm(t: PerlToken | undefined): boolean {
  if (t === undefined) return false;
  if (t.kind === 'var' || t.kind === 'number' || t.kind === 'string' || t.kind === 'readline') return true;
  return t.kind === 'op' && (t.text === ')' || t.text === ']' || t.text === '}');
}

export function perlTokens(code: string): PerlToken[] | null {
  const out: PerlToken[] = [];
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < code.length && code[i] !== '\n') i++;
      continue;
    }
    if (c === '=' && (i === 0 || code[i - 1] === '\n') && /[A-Za-z]/.test(code[i + 1] ?? '')) return null; // POD
    const prev = out[out.length - 1];
    const end = readToken(code, i, prev, out);
    if (end < 0) return null;
    i = end;
  }
  return out;
}

/** Reads the token at `i` into `out`; the index after it, or -1. */
function readToken(code: string, i: number, prev: PerlToken | undefined, out: PerlToken[]): number {
  const c = code[i];
  const rest = code.slice(i);
  if (c === '$' || c === '@' || (c === '%' && !isTerm(prev))) return readVariable(code, i, out);
  const name = /^[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*/.exec(rest);
  if (name) {
    const after = code[i + name[0].length];
    if (QUOTE_LIKE.has(name[0]) && after !== undefined && !/[\w\s,;)=]/.test(after) && !(after === '=' && code[i + name[0].length + 1] === '>'))
      return readQuoteLike(code, i + name[0].length, name[0], out);
    out.push({ kind: 'name', text: name[0] });
    return i + name[0].length;
  }
  const num = /^(?:0[xX][0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9_]+)?(?:[eE][-+]?[0-9]+)?)/.exec(rest);
  if (num) {
    out.push({ kind: 'number', text: num[0] });
    return i + num[0].length;
  }
  if (c === "'") return readDelimited(code, i + 1, "'", 'q', out);
  if (c === '"') return readDelimited(code, i + 1, '"', 'qq', out);
  if (c === '/' && !isTerm(prev)) return readDelimited(code, i + 1, '/', 'm', out);
  if (c === '<' && !isTerm(prev)) {
    // Not `<$fh>`: no handle is opened, so `$fh` would be a name (`"ARGV"` opens what <> does).
    const m = /^<(STDIN)?>/.exec(rest);
    if (!m) return -1; // `<*.c>` globs, `<<EOF` heredocs, `<$fh>`
    out.push({ kind: 'readline', text: m[0] });
    return i + m[0].length;
  }
  if ((c === '*' || c === '&') && !isTerm(prev) && !rest.startsWith('&&') && !rest.startsWith('**')) return -1; // globs, sub calls
  const op = OPS.find((o) => rest.startsWith(o)) ?? (SINGLE.has(c) ? c : undefined);
  if (op === undefined) return -1;
  out.push({ kind: 'op', text: op });
  return i + op.length;
}

/** `$x`, `$_`, `$/`, `@F`, `%h`, `$#a`: no `${…}`, `$$x`, `$^W`, `$main::x`. */
function readVariable(code: string, i: number, out: PerlToken[]): number {
  const sigil = code[i];
  let j = i + 1;
  if (sigil === '$' && code[j] === '#') j++;
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(code.slice(j));
  if (name) {
    if (code.startsWith('::', j + name[0].length)) return -1;
    out.push({ kind: 'var', text: code.slice(i, j + name[0].length) });
    return j + name[0].length;
  }
  if (sigil === '$' && j === i + 1 && SPECIAL_VARS.has(code[j])) {
    out.push({ kind: 'var', text: '$' + code[j] });
    return j + 1;
  }
  return -1;
}

/** `q(…)`, `qq{…}`, `m!…!`, `s{…}{…}`, `tr/…/…/`: from the delimiter at `i`. */
function readQuoteLike(code: string, i: number, op: string, out: PerlToken[]): number {
  while (code[i] === ' ') i++;
  const open = code[i];
  if (open === undefined || open === '#' || /[\w\s]/.test(open)) return -1;
  return readDelimited(code, i + 1, open, op, out);
}

function readDelimited(code: string, start: number, open: string, op: string, out: PerlToken[]): number {
  const first = readPart(code, start, open);
  if (first === null) return -1;
  let end = first.end;
  const parts = [first.text];
  if (op === 's' || op === 'tr' || op === 'y') {
    let from = end;
    let open2 = open;
    if (PAIRS[open] !== undefined) {
      while (/\s/.test(code[from] ?? '')) from++;
      open2 = code[from];
      from++;
    }
    const second = readPart(code, from, open2);
    if (second === null) return -1;
    parts.push(second.text);
    end = second.end;
  }
  const flags = /^[a-z]*/.exec(code.slice(end))![0];
  if (op === 's' && flags.includes('e')) return -1; // the replacement is code
  const env: string[] = [];
  const interpolates = !(op === 'q' || op === 'qw' || op === 'tr' || op === 'y' || open === "'");
  if (interpolates && parts.some((p) => !safeInterpolation(p, env))) return -1;
  out.push({ kind: op === 'q' || op === 'qq' || op === 'qw' ? 'string' : 'regex', text: code.slice(start - 1, end + flags.length), env });
  return end + flags.length;
}

/** The body up to the closing delimiter (nested pairs counted); null when not closed. */
function readPart(code: string, start: number, open: string): { text: string; end: number } | null {
  const close = PAIRS[open] ?? open;
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === open && close !== open) depth++;
    else if (c === close) {
      if (depth === 0) return { text: code.slice(start, i), end: i + 1 };
      depth--;
    }
  }
  return null;
}

/**
 * Interpolation that runs no code: `$x`, `@x`, `$x[1]`, `$x{key}`, `$x->{key}`, `$1`, and no
 * `(?{…})`. Environment variables named (`$ENV{HOME}`) are collected.
 */
function safeInterpolation(text: string, env: string[]): boolean {
  if (/\(\?\??\{/.test(text)) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c !== '$' && c !== '@') continue;
    const next = text[i + 1];
    if (next === '{' || next === '$' || next === '^' || next === ':') return false;
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1));
    if (!name) continue; // `$)`, `$` at the end of a pattern, `@` alone: not a variable
    if (text.startsWith('::', i + 1 + name[0].length)) return false;
    let j = i + 1 + name[0].length;
    for (;;) {
      if (text.startsWith('->', j) && (text[j + 2] === '[' || text[j + 2] === '{')) j += 2;
      const sub = /^(?:\[-?\d+\]|\[\$[A-Za-z_]\w*\]|\{\w+\}|\{\$[A-Za-z_]\w*\})/.exec(text.slice(j));
      if (!sub) break;
      if (name[0] === 'ENV' && j === i + 1 + name[0].length) {
        if (sub[0].startsWith('{$')) return false;
        env.push(sub[0].slice(1, -1));
      }
      j += sub[0].length;
    }
    // A subscript we did not read (`$h{system 1}`, `$a[f()]`) would be code.
    if (text[j] === '[' || text[j] === '{') return false;
    i = j - 1;
  }
  return true;
}
