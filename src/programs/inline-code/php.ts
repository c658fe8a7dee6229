/**
 * Proves a PHP one-liner (`php -r CODE`) only reads and prints. Every name is a listed function
 * that computes or prints (none that takes a callback: PHP calls a string by name, so
 * `array_map('system', …)` runs a command), a keyword or a constant; `file_get_contents` and `file`
 * take a literal local path (a stream wrapper — `http://`, `phar://`, `expect://` — is not
 * proven). Variable functions (`$f()`), strings called (`'system'()`), `->`, `::`, backquotes,
 * heredocs, `${…}`, `$$x`, `$_SERVER`, `$GLOBALS` are not read.
 */
import { notProven, ProofBuilder, READABLE_VARIABLES, type Proof } from './proof.js';

interface PhpToken {
  kind: 'name' | 'var' | 'number' | 'string' | 'op';
  text: string;
  /** A single-quoted or plain double-quoted string's value. */
  value?: string | null;
}

const OPS = ['===', '!==', '<=>', '??=', '**', '=>', '==', '!=', '<>', '<=', '>=', '&&', '||', '??', '.=', '+=', '-=', '*=', '/=', '++', '--'];
const SINGLE = new Set('()[]{};,=+-*/%.!<>?:@'.split(''));

function phpTokens(code: string): PhpToken[] | null {
  const out: PhpToken[] = [];
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    const rest = code.slice(i);
    if (/^\s/.test(c)) {
      i++;
    } else if (rest.startsWith('//') || (c === '#' && code[i + 1] !== '[')) {
      while (i < code.length && code[i] !== '\n') i++;
    } else if (rest.startsWith('/*')) {
      const end = code.indexOf('*/', i + 2);
      if (end < 0) return null;
      i = end + 2;
    } else if (rest.startsWith('?>') || rest.startsWith('<?') || rest.startsWith('<<<')) {
      return null;
    } else if (c === "'" || c === '"') {
      const s = readString(code, i, c);
      if (s === null) return null;
      out.push({ kind: 'string', text: code.slice(i, s.end), value: s.value });
      i = s.end;
    } else {
      const token = /^(?:\$[A-Za-z_]\w*|[A-Za-z_]\w*|[0-9][0-9._xXa-fA-F]*)/.exec(rest);
      const op = token ? undefined : (OPS.find((o) => rest.startsWith(o)) ?? (SINGLE.has(c) ? c : undefined));
      if (token) out.push({ kind: tokenKind(token[0]), text: token[0] });
      else if (op !== undefined) out.push({ kind: 'op', text: op });
      else return null; // `$$x`, `${`, `->`, `::`, `\`, backquotes, `&`
      i += token ? token[0].length : op!.length;
    }
  }
  return out;
}

function tokenKind(word: string): PhpToken['kind'] {
  if (word.startsWith('$')) return 'var';
  return /^[0-9]/.test(word) ? 'number' : 'name';
}

/** A string literal; a double-quoted one may interpolate `$name` only (no `{$…}`, `${…}`, `->`). */
function readString(code: string, start: number, quote: string): { end: number; value: string | null } | null {
  let value: string | null = '';
  for (let i = start + 1; i < code.length; i++) {
    const c = code[i];
    if (c === quote) return { end: i + 1, value };
    if (c === '\\') {
      const next = code[i + 1];
      value = value !== null && (next === quote || next === '\\') ? value + next : null;
      i++;
      continue;
    }
    if (quote === '"' && (c === '$' || (c === '{' && code[i + 1] === '$'))) {
      if (code[i + 1] === '{' || code[i + 1] === '$' || c === '{') return null;
      if (/^\$[A-Za-z_]\w*->/.test(code.slice(i)) || /^\$[A-Za-z_]\w*\[/.test(code.slice(i))) return null;
      value = null;
    }
    if (value !== null) value += c;
  }
  return null;
}

const FUNCTIONS = new Set([
  'echo',
  'print',
  'printf',
  'sprintf',
  'array_sum',
  'explode',
  'implode',
  'stream_get_contents',
  'json_decode',
  'json_encode',
  'count',
  'strlen',
  'trim',
  'rtrim',
  'ltrim',
  'str_replace',
  'strtoupper',
  'strtolower',
  'var_dump',
  'print_r',
  'var_export',
  'array_keys',
  'array_values',
  'array_unique',
  'sort',
  'rsort',
  'max',
  'min',
  'round',
  'floor',
  'ceil',
  'intval',
  'floatval',
  'str_repeat',
  'substr',
  'strpos',
  'number_format',
  'array_slice',
  'array_reverse',
  'range',
  'in_array',
  'is_array',
  'isset',
  'empty',
  'array_key_exists',
  'preg_match',
  'preg_match_all',
  'preg_split',
  'phpversion',
  'fgets',
  'date',
  'time',
  'md5',
  'sha1',
  'base64_encode',
  'base64_decode',
  'ucfirst',
  'lcfirst',
  'str_pad',
  'array_merge',
  'foreach',
  'as',
  'if',
  'else',
  'elseif',
  'for',
  'while',
  'array',
  'list',
  'exit',
  'die',
  'true',
  'false',
  'null',
  'and',
  'or',
  'PHP_EOL',
  'PHP_VERSION',
  'PHP_OS',
  'PHP_INT_MAX',
  'STDIN',
]);

/** Functions reading a file named by their first argument. */
const FILE_READERS = new Set(['file_get_contents', 'file']);

export function provePhp(code: string): Proof {
  const tokens = phpTokens(code);
  if (tokens === null) return notProven('the PHP code could not be read');
  const proof = new ProofBuilder();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const next = tokens[i + 1];
    // `$f()`, `'system'()`, `('sys'.'tem')()`, `$a[0]()`: a function named at run time.
    if ((t.kind === 'var' || t.kind === 'string' || t.text === ')' || t.text === ']') && next?.text === '(') return notProven('a function named at run time');
    if (t.kind === 'var' && ['$_SERVER', '$_ENV', '$GLOBALS', '$_COOKIE', '$_SESSION'].includes(t.text)) return notProven(`\`${t.text}\``);
    if (t.kind !== 'name') continue;
    const name = t.text;
    if (name === 'getenv') {
      const arg = tokens[i + 2];
      if (next?.text !== '(' || arg?.kind !== 'string' || tokens[i + 3]?.text !== ')') {
        proof.wholeEnvironment = true;
        continue;
      }
      if (typeof arg.value !== 'string' || !READABLE_VARIABLES.has(arg.value)) return notProven(`reads the environment variable ${arg.text}`);
      continue;
    }
    if (FILE_READERS.has(name)) {
      const why = fileRead(tokens, i, proof);
      if (why !== null) return notProven(why);
      continue;
    }
    if (!FUNCTIONS.has(name)) return notProven(`\`${t.text}\` is not a function known to be pure`);
  }
  return proof.done();
}

/** `file_get_contents('x')`: a local path is read; `php://stdin` is stdin; any other wrapper is not proven. */
function fileRead(tokens: PhpToken[], i: number, proof: ProofBuilder): string | null {
  const arg = tokens[i + 2];
  if (tokens[i + 1]?.text !== '(') return `\`${tokens[i].text}\` used other than as a call`;
  const literal = arg?.kind === 'string' && typeof arg.value === 'string' && (tokens[i + 3]?.text === ')' || tokens[i + 3]?.text === ',');
  if (!literal) {
    proof.reads.push({ path: null });
    return null;
  }
  const path = arg.value as string;
  if (path === 'php://stdin') return null;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) return `\`${path}\` is a stream wrapper`;
  proof.reads.push({ path });
  return null;
}
