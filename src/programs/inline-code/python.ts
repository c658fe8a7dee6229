/**
 * Proves a Python one-liner (`python3 -c CODE`) only reads and prints. Every name must be a
 * whitelisted builtin, a keyword, a module imported from the list below used through one of its
 * listed attributes, or a variable the code assigns; every attribute of a value must be a known
 * pure method. `open` must name its file in a literal and open it in a read mode. Anything else —
 * `os.system`, `getattr`, `globals()`, a dunder, `open(p, 'w')`, an unlisted module — is not proven.
 */
import { isDunder, notProven, ProofBuilder, READABLE_VARIABLES, type Proof } from './proof.js';
import { pythonTokens, type PyToken } from './python-tokens.js';
import { uncheckedWord } from './python-raw.js';

/** Keywords a read-and-print one-liner needs (no def, class, global, yield, async). */
const KEYWORDS = new Set([
  'if',
  'elif',
  'else',
  'for',
  'in',
  'while',
  'break',
  'continue',
  'pass',
  'not',
  'and',
  'or',
  'is',
  'None',
  'True',
  'False',
  'lambda',
  'with',
  'as',
  'try',
  'except',
  'finally',
  'raise',
  'assert',
  'del',
  'import',
  'from',
]);

/** Builtins that compute or print. `open` is checked apart (a literal path, a read mode). */
const PURE_BUILTINS = new Set([
  'print',
  'len',
  'sum',
  'min',
  'max',
  'sorted',
  'reversed',
  'enumerate',
  'zip',
  'range',
  'map',
  'filter',
  'list',
  'dict',
  'set',
  'frozenset',
  'tuple',
  'str',
  'int',
  'float',
  'bool',
  'bytes',
  'abs',
  'round',
  'any',
  'all',
  'repr',
  'ascii',
  'isinstance',
  'hex',
  'oct',
  'bin',
  'chr',
  'ord',
  'divmod',
  'pow',
  'iter',
  'next',
  'hash',
  'format',
  'slice',
  'callable',
  'complex',
  'Exception',
  'ValueError',
  'KeyError',
  'IndexError',
  'TypeError',
  'OSError',
  'IOError',
  'FileNotFoundError',
  'StopIteration',
  'SystemExit',
  'KeyboardInterrupt',
  'AttributeError',
  'RuntimeError',
  'ZeroDivisionError',
  'UnicodeDecodeError',
]);

/**
 * Every other builtin name: never taken as a variable of the code, even when the code seems to
 * assign it (`print(eval=1)` does not make a later `eval(…)` harmless).
 */
const OTHER_BUILTINS = new Set([
  'eval',
  'exec',
  'compile',
  'getattr',
  'setattr',
  'delattr',
  'hasattr',
  'globals',
  'locals',
  'vars',
  'dir',
  'breakpoint',
  'help',
  'memoryview',
  'object',
  'type',
  'super',
  'classmethod',
  'staticmethod',
  'property',
  'exit',
  'quit',
  'copyright',
  'credits',
  'license',
  'id',
  'issubclass',
  'bytearray',
  'aiter',
  'anext',
  'open',
  'BaseException',
  'ImportError',
  'ModuleNotFoundError',
  // Python 2 evaluates what `input()` reads; `python` may be Python 2, whose other builtins follow.
  'input',
  'execfile',
  'reload',
  'file',
  'raw_input',
  'apply',
]);

/**
 * Modules that may be imported, with the attributes that may be used (dotted below the module).
 * No wildcard: a module's attributes include the modules it imports (`json.codecs.open`).
 */
const MODULES: Readonly<Record<string, readonly string[]>> = {
  json: ['load', 'loads', 'dump', 'dumps', 'JSONDecodeError'],
  sys: [
    'version',
    'version_info',
    'platform',
    'argv',
    'stdin',
    'stdin.read',
    'stdin.readline',
    'stdin.readlines',
    'stdout.write',
    'stderr.write',
    'stdout.flush',
    'exit',
    'maxsize',
    'executable',
    'byteorder',
    'prefix',
    'base_prefix',
    'hexversion',
    'implementation.name',
    'getrecursionlimit',
    'getdefaultencoding',
  ],
  os: ['getcwd', 'sep', 'linesep', 'name', 'getpid', 'cpu_count', 'curdir', 'pardir', 'environ', 'environ.get', 'getenv', ...osPath('path.')],
  'os.path': osPath(''),
  re: [
    'compile',
    'match',
    'search',
    'findall',
    'finditer',
    'sub',
    'subn',
    'split',
    'fullmatch',
    'escape',
    'I',
    'IGNORECASE',
    'M',
    'MULTILINE',
    'S',
    'DOTALL',
    'X',
    'VERBOSE',
  ],
  math: [
    'floor',
    'ceil',
    'sqrt',
    'log',
    'log2',
    'log10',
    'exp',
    'pow',
    'pi',
    'e',
    'inf',
    'isnan',
    'fsum',
    'prod',
    'gcd',
    'factorial',
    'comb',
    'perm',
    'trunc',
    'fabs',
    'isclose',
    'hypot',
  ],
  tomllib: ['load', 'loads'],
  ast: ['parse', 'dump', 'literal_eval', 'unparse', 'get_docstring'],
  platform: ['python_version', 'system', 'machine', 'release', 'node', 'python_implementation', 'version'],
  collections: ['Counter', 'defaultdict', 'OrderedDict', 'deque'],
  itertools: [
    'chain',
    'groupby',
    'islice',
    'count',
    'product',
    'permutations',
    'combinations',
    'accumulate',
    'zip_longest',
    'repeat',
    'takewhile',
    'dropwhile',
  ],
  functools: ['reduce'],
  statistics: ['mean', 'median', 'stdev', 'pstdev', 'variance', 'mode'],
  string: ['ascii_letters', 'ascii_lowercase', 'ascii_uppercase', 'digits', 'punctuation', 'hexdigits', 'whitespace'],
  textwrap: ['dedent', 'indent', 'wrap', 'fill', 'shorten'],
  datetime: [
    'datetime',
    'datetime.now',
    'datetime.utcnow',
    'datetime.fromtimestamp',
    'datetime.fromisoformat',
    'date',
    'date.today',
    'timedelta',
    'timezone',
    'timezone.utc',
  ],
  time: ['time', 'strftime', 'gmtime', 'localtime', 'monotonic', 'perf_counter'],
  hashlib: ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'blake2b'],
  base64: ['b64encode', 'b64decode', 'urlsafe_b64encode', 'urlsafe_b64decode', 'b32encode', 'b32decode'],
  csv: ['reader', 'DictReader'],
  pprint: ['pprint', 'pformat'],
  shlex: ['split', 'quote', 'join'],
  unicodedata: ['name', 'category', 'normalize'],
};

function osPath(prefix: string): string[] {
  return [
    'join',
    'exists',
    'isfile',
    'isdir',
    'islink',
    'basename',
    'dirname',
    'splitext',
    'split',
    'abspath',
    'normpath',
    'relpath',
    'isabs',
    'getsize',
    'getmtime',
    'realpath',
    'sep',
  ].map((a) => prefix + a);
}

/** Every `module.attr…` a one-liner may use, by full dotted name. */
const CHAINS: ReadonlySet<string> = new Set(Object.entries(MODULES).flatMap(([m, attrs]) => attrs.map((a) => `${m}.${a}`)));

/** Attributes of values (strings, lists, dicts, files opened for reading, matches, dates, hashes) that only compute. */
const VALUE_ATTRIBUTES = new Set([
  'strip',
  'lstrip',
  'rstrip',
  'split',
  'rsplit',
  'splitlines',
  'join',
  'upper',
  'lower',
  'title',
  'capitalize',
  'casefold',
  'swapcase',
  'startswith',
  'endswith',
  'replace',
  'find',
  'rfind',
  'index',
  'rindex',
  'count',
  'format',
  'encode',
  'decode',
  'isdigit',
  'isalpha',
  'isalnum',
  'isspace',
  'isupper',
  'islower',
  'isnumeric',
  'zfill',
  'ljust',
  'rjust',
  'center',
  'partition',
  'rpartition',
  'expandtabs',
  'removeprefix',
  'removesuffix',
  'append',
  'extend',
  'insert',
  'pop',
  'remove',
  'clear',
  'copy',
  'sort',
  'reverse',
  'keys',
  'values',
  'items',
  'get',
  'setdefault',
  'update',
  'add',
  'discard',
  'union',
  'intersection',
  'difference',
  'issubset',
  'issuperset',
  'read',
  'readline',
  'readlines',
  'close',
  'group',
  'groups',
  'groupdict',
  'start',
  'end',
  'span',
  'match',
  'search',
  'findall',
  'finditer',
  'sub',
  'fullmatch',
  'isoformat',
  'strftime',
  'year',
  'month',
  'day',
  'hour',
  'minute',
  'second',
  'timestamp',
  'weekday',
  'total_seconds',
  'days',
  'seconds',
  'hexdigest',
  'digest',
  'most_common',
  'major',
  'minor',
  'micro',
  'real',
  'imag',
  'is_integer',
  'bit_length',
]);

/** The lists, for tests that check a proof against Python's own parser (test/programs/inline-code/python-ast.test.ts). */
export const PYTHON_WHITELIST = {
  builtins: [...PURE_BUILTINS, 'open'],
  modules: MODULES,
  attributes: [...VALUE_ATTRIBUTES],
} as const;

/** `open` modes that only read. */
const READ_MODE = /^[rbt]+$/;
/** `open` keyword arguments that do not change what is opened or how. */
const OPEN_KEYWORDS = new Set(['mode', 'encoding', 'errors', 'newline']);

type Binding = { kind: 'module'; path: string } | { kind: 'local' };

/** Proves `code` only reads and prints (see the module comment). */
export function provePython(code: string): Proof {
  const tokens = pythonTokens(code);
  if (tokens === null) return notProven('the Python code could not be read');
  const bindings = new Map<string, Binding>();
  const imported = readImports(tokens, bindings);
  if (typeof imported === 'string') return notProven(imported);
  collectLocals(tokens, bindings);
  const proof = new ProofBuilder();
  for (const m of imported) proof.imports.add(m);
  for (let i = 0; i < tokens.length;) {
    const step = checkAt(tokens, i, bindings, proof);
    if (typeof step === 'string') return notProven(step);
    i = step;
  }
  const modules = new Set([...bindings].filter(([, b]) => b.kind === 'module').map(([name]) => name));
  const raw = uncheckedWord(code, tokens, GUARDED_WORDS, modules);
  if (raw !== null) return notProven(raw);
  return proof.done();
}

/**
 * Words that may stand in the raw text only where the walk read them as code (python-raw.ts):
 * every builtin that is not pure, `import`, and the codec calls (a codec name imports a module).
 */
const GUARDED_WORDS: ReadonlySet<string> = new Set([...OTHER_BUILTINS, 'import', 'encode', 'decode']);

/** Encodings and error handlers Python has built in or already loaded: no codec module is looked up by a name the code chooses. */
const CODECS = new Set(['utf-8', 'utf8', 'utf_8', 'ascii', 'us-ascii', 'latin-1', 'latin1', 'latin_1', 'iso-8859-1', 'iso8859-1', 'utf-8-sig', 'utf_8_sig']);
const ERROR_HANDLERS = new Set(['strict', 'ignore', 'replace', 'backslashreplace', 'surrogateescape', 'surrogatepass', 'xmlcharrefreplace']);

/**
 * The encoding and error-handler arguments of a call (`.encode(…)`, `str(b, …)`, `open(…,
 * encoding=…)`): each a literal on the lists above, positional from `first` on (encoding, then
 * errors) or by keyword. A codec lookup imports a module by the name it is given
 * (`.encode('idna')` imports `encodings.idna`, which imports `stringprep`).
 */
function checkCodecArguments(args: PyToken[][], first: number): string | null {
  for (const [k, arg] of args.entries()) {
    const keyword = arg.length >= 2 && arg[0].kind === 'name' && arg[1].text === '=' ? arg[0].text : null;
    if (keyword === null && k < first) continue;
    const role = keyword ?? (['encoding', 'errors'][k - first] as string | undefined) ?? null;
    const value = keyword === null ? arg : arg.slice(2);
    const literal = value.length === 1 && value[0].kind === 'string' && typeof value[0].value === 'string' ? value[0].value.toLowerCase() : null;
    if (role === 'encoding' && literal !== null && CODECS.has(literal)) continue;
    if (role === 'errors' && literal !== null && ERROR_HANDLERS.has(literal)) continue;
    return role === null
      ? 'a call with more arguments than known'
      : `the ${role} ${literal === null ? 'is not a literal' : JSON.stringify(literal)} is not a codec known to import nothing`;
  }
  return null;
}

/** `.encode(…)`/`.decode(…)`, `str(…)`/`bytes(…)`: called right there, with known codecs; the index after the name, or why not. */
function checkCodecCall(tokens: PyToken[], name: number, first: number): number | string {
  if (tokens[name + 1]?.text !== '(') return `\`${tokens[name].text}\` used other than as a call: its codec cannot be checked`;
  const args = topLevelArguments(tokens, name + 1);
  if (args === null) return `\`${tokens[name].text}(…)\` is not closed`;
  return checkCodecArguments(args, first) ?? name + 1;
}

/** Checks the token at `i` and what it takes with it; the index after, or why it is not proven. */
function checkAt(tokens: PyToken[], i: number, bindings: Map<string, Binding>, proof: ProofBuilder): number | string {
  const t = tokens[i];
  if (t.kind === 'op') {
    if (t.text !== '.') return i + 1;
    const attr = tokens[i + 1];
    if (attr?.kind !== 'name' || !VALUE_ATTRIBUTES.has(attr.text)) return `the attribute \`.${attr?.text ?? ''}\` is not known to be pure`;
    if (attr.text === 'encode' || attr.text === 'decode') return checkCodecCall(tokens, i + 1, 0);
    return i + 2;
  }
  if (t.kind !== 'name') return i + 1;
  const name = t.text;
  if (isDunder(name)) return `\`${name}\` reaches the interpreter's internals`;
  if (name === 'import') return skipImport(tokens, i);
  if (name === 'from') return skipFromImport(tokens, i);
  if (KEYWORDS.has(name)) return i + 1;
  if (name === 'open') return checkOpen(tokens, i, proof);
  if ((name === 'str' || name === 'bytes') && tokens[i + 1]?.text === '(') return checkCodecCall(tokens, i, 1);
  if (PURE_BUILTINS.has(name)) return i + 1;
  if (OTHER_BUILTINS.has(name)) return `\`${name}\` is not a builtin known to be pure`;
  const b = bindings.get(name);
  if (b?.kind === 'module') return checkChain(tokens, i, b.path, proof);
  if (b?.kind === 'local') return i + 1;
  return `\`${name}\` is not a name known to be pure`;
}

/** `module.attr.attr…`: the longest listed prefix, then value attributes; environment reads by name. */
function checkChain(tokens: PyToken[], i: number, base: string, proof: ProofBuilder): number | string {
  const baseLength = base.split('.').length;
  const parts = base.split('.');
  let j = i + 1;
  while (tokens[j]?.text === '.' && tokens[j + 1]?.kind === 'name') {
    parts.push(tokens[j + 1].text);
    j += 2;
  }
  let k = parts.length;
  while (k >= baseLength && !CHAINS.has(parts.slice(0, k).join('.'))) k--;
  if (k < baseLength) return `\`${parts.join('.')}\` is not a module attribute known to be pure`;
  const chain = parts.slice(0, k).join('.');
  const rest = parts.slice(k);
  const after = i + 1 + 2 * (k - baseLength);
  if (chain === 'os.environ' || chain === 'os.environ.get' || chain === 'os.getenv') {
    const env = environmentRead(tokens, after, chain, rest, proof);
    if (env !== null) return env;
  }
  const bad = rest.find((r) => !VALUE_ATTRIBUTES.has(r));
  if (bad !== undefined) return `the attribute \`.${bad}\` is not known to be pure`;
  const codec = rest.findIndex((r) => r === 'encode' || r === 'decode');
  if (codec >= 0 && codec !== rest.length - 1) return `\`.${rest[codec]}\` used other than as a call: its codec cannot be checked`;
  if (codec >= 0) return checkCodecCall(tokens, j - 1, 0);
  return j;
}

/**
 * `os.environ['HOME']`, `os.environ.get('HOME')`, `os.getenv('HOME')`: one variable by name, which
 * must be one everybody has and no one keeps secrets in. Anything else reads the whole
 * environment (null: the caller goes on). The index after a named read, or why not proven.
 */
function environmentRead(tokens: PyToken[], after: number, chain: string, rest: string[], proof: ProofBuilder): number | string | null {
  const open = chain === 'os.environ' ? '[' : '(';
  const name = tokens[after + 1];
  if (rest.length === 0 && tokens[after]?.text === open && name?.kind === 'string') {
    if (name.value === null || name.value === undefined || !READABLE_VARIABLES.has(name.value)) return `reads the environment variable ${name.text}`;
    return after + 2;
  }
  proof.wholeEnvironment = true;
  return null;
}

/** `open(PATH[, MODE], encoding=…)`: PATH a literal (else a run-time path), MODE a read mode. */
function checkOpen(tokens: PyToken[], i: number, proof: ProofBuilder): number | string {
  if (tokens[i + 1]?.text !== '(') return '`open` used other than as a call';
  const args = topLevelArguments(tokens, i + 1);
  if (args === null) return '`open(…)` is not closed';
  const [path, ...others] = args;
  const literal = path.length === 1 && path[0].kind === 'string';
  proof.reads.push({ path: literal ? (path[0].value ?? null) : null });
  for (const [k, arg] of others.entries()) {
    const keyword = arg.length >= 2 && arg[0].kind === 'name' && arg[1].text === '=' ? arg[0].text : null;
    if (keyword !== null && !OPEN_KEYWORDS.has(keyword)) return `\`open(…, ${keyword}=…)\` is not known to be harmless`;
    if (keyword === null && k > 0) return '`open` with positional arguments after the mode';
    const codec = keyword === 'encoding' || keyword === 'errors' ? checkCodecArguments([arg], 1) : null;
    if (codec !== null) return codec;
    if (keyword === 'mode' || (keyword === null && k === 0)) {
      const mode = keyword === null ? arg : arg.slice(2);
      if (mode.length !== 1 || mode[0].kind !== 'string' || typeof mode[0].value !== 'string' || !READ_MODE.test(mode[0].value))
        return '`open` with a mode that may write';
    }
  }
  return i + 1; // the arguments are checked as any other tokens
}

/** The top-level arguments of the call whose `(` is at `open`, as token lists; null when unclosed. */
function topLevelArguments(tokens: PyToken[], open: number): PyToken[][] | null {
  const args: PyToken[][] = [[]];
  let depth = 0;
  for (let j = open + 1; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.kind === 'op' && '([{'.includes(t.text)) depth++;
    if (t.kind === 'op' && ')]}'.includes(t.text)) {
      if (depth === 0) return args[args.length - 1].length === 0 ? args.slice(0, -1) : args;
      depth--;
    }
    if (depth === 0 && t.text === ',') args.push([]);
    else args[args.length - 1].push(t);
  }
  return null;
}

/** A name an import may bind: not a keyword or builtin, which the walk would take for what it usually is. */
function bindable(name: string): boolean {
  return !KEYWORDS.has(name) && !PURE_BUILTINS.has(name) && !OTHER_BUILTINS.has(name);
}

/** `import a.b as c, d`: binds names to listed modules; the module names imported, or why not proven. */
function readImports(tokens: PyToken[], bindings: Map<string, Binding>): string[] | string {
  const modules: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'name' || (t.text !== 'import' && t.text !== 'from')) continue;
    if (t.text === 'from') {
      const r = fromImport(tokens, i, bindings);
      if (typeof r === 'string') return r;
      modules.push(r.module.split('.')[0]);
      i = r.end - 1;
      continue;
    }
    if (tokens[i - 1]?.text === 'from' || (i >= 2 && tokens[i - 2]?.text === 'from')) continue;
    let j = i + 1;
    for (;;) {
      const m = dottedName(tokens, j);
      if (m === null) return '`import` of something that is not a module name';
      if (!Object.prototype.hasOwnProperty.call(MODULES, m.name)) return `\`import ${m.name}\`: not a module known to be pure`;
      modules.push(m.name.split('.')[0]);
      j = m.end;
      if (tokens[j]?.text === 'as' && tokens[j + 1]?.kind === 'name') {
        if (!bindable(tokens[j + 1].text)) return `\`import … as ${tokens[j + 1].text}\` rebinds a builtin`;
        bindings.set(tokens[j + 1].text, { kind: 'module', path: m.name });
        j += 2;
      } else {
        const top = m.name.split('.')[0];
        if (!Object.prototype.hasOwnProperty.call(MODULES, top)) return `\`import ${m.name}\` binds \`${top}\`, not a module known to be pure`;
        bindings.set(top, { kind: 'module', path: top });
      }
      if (tokens[j]?.text !== ',') break;
      j++;
    }
    i = j - 1;
  }
  return modules;
}

/** `from M import a [as b], …`: each name must be a listed attribute of M (then it is that chain). */
function fromImport(tokens: PyToken[], i: number, bindings: Map<string, Binding>): { module: string; end: number } | string {
  const m = dottedName(tokens, i + 1);
  if (m === null || tokens[m.end]?.text !== 'import') return '`from` other than `from MODULE import NAME`';
  if (!Object.prototype.hasOwnProperty.call(MODULES, m.name)) return `\`from ${m.name} import …\`: not a module known to be pure`;
  let j = m.end + 1;
  const paren = tokens[j]?.text === '(';
  if (paren) j++;
  for (;;) {
    const n = tokens[j];
    if (n?.kind !== 'name') return '`from … import` of something that is not a name';
    const chain = `${m.name}.${n.text}`;
    const isModule = Object.prototype.hasOwnProperty.call(MODULES, chain);
    if (!CHAINS.has(chain) && !isModule) return `\`from ${m.name} import ${n.text}\`: not known to be pure`;
    let local = n.text;
    j++;
    if (tokens[j]?.text === 'as' && tokens[j + 1]?.kind === 'name') {
      local = tokens[j + 1].text;
      j += 2;
    }
    if (!bindable(local)) return `\`from … import … as ${local}\` rebinds a builtin`;
    bindings.set(local, { kind: 'module', path: chain });
    if (tokens[j]?.text !== ',') break;
    j++;
  }
  if (paren) {
    if (tokens[j]?.text !== ')') return '`from … import (…` not closed';
    j++;
  }
  return { module: m.name, end: j };
}

function dottedName(tokens: PyToken[], j: number): { name: string; end: number } | null {
  if (tokens[j]?.kind !== 'name') return null;
  const parts = [tokens[j].text];
  j++;
  while (tokens[j]?.text === '.' && tokens[j + 1]?.kind === 'name') {
    parts.push(tokens[j + 1].text);
    j += 2;
  }
  return { name: parts.join('.'), end: j };
}

/** Import statements were read before: the walk steps over exactly `import a.b [as c], …`. */
function skipImport(tokens: PyToken[], i: number): number {
  let j = i + 1;
  for (;;) {
    const m = dottedName(tokens, j);
    if (m === null) return j;
    j = m.end;
    if (tokens[j]?.text === 'as' && tokens[j + 1]?.kind === 'name') j += 2;
    if (tokens[j]?.text !== ',') return j;
    j++;
  }
}

/** Likewise `from M import a [as b], …` (readImports checked it). */
function skipFromImport(tokens: PyToken[], i: number): number {
  const m = dottedName(tokens, i + 1);
  if (m === null) return i + 1;
  let j = m.end + 1;
  const paren = tokens[j]?.text === '(';
  if (paren) j++;
  for (;;) {
    if (tokens[j]?.kind !== 'name') return j;
    j++;
    if (tokens[j]?.text === 'as' && tokens[j + 1]?.kind === 'name') j += 2;
    if (tokens[j]?.text !== ',') break;
    j++;
  }
  return paren && tokens[j]?.text === ')' ? j + 1 : j;
}

/**
 * Names the code assigns (`x = …`, `a, b = …`, `for x in`, `as x`, `lambda x:`, `x := …`, keyword
 * argument names): variables of the code. A builtin name is never one (see OTHER_BUILTINS).
 */
function collectLocals(tokens: PyToken[], bindings: Map<string, Binding>): void {
  const local = (t: PyToken | undefined) => {
    if (t?.kind === 'name' && !KEYWORDS.has(t.text) && !OTHER_BUILTINS.has(t.text) && !PURE_BUILTINS.has(t.text) && !bindings.has(t.text))
      bindings.set(t.text, { kind: 'local' });
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'op' && (t.text === '=' || t.text === ':=' || /^[-+*/%&|^]=$|^(\*\*|\/\/|<<|>>)=$/.test(t.text))) {
      for (let j = i - 1; j >= 0 && (tokens[j].kind === 'name' || ',()[]*'.includes(tokens[j].text)); j--) {
        if (tokens[j].kind === 'name' && tokens[j - 1]?.text !== '.') local(tokens[j]);
        if (tokens[j].kind === 'name' && KEYWORDS.has(tokens[j].text)) break;
      }
    } else if (t.kind === 'name' && (t.text === 'for' || t.text === 'lambda')) {
      const stop = t.text === 'for' ? 'in' : ':';
      for (let j = i + 1; j < tokens.length && tokens[j].text !== stop; j++) local(tokens[j]);
    } else if (t.kind === 'name' && t.text === 'as') local(tokens[i + 1]);
  }
}
