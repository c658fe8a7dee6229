/**
 * Proves a JavaScript one-liner (`node -e`/`-p`) only reads and prints. Globals are chain-checked
 * (`console.log`, `JSON.parse`, `Object.keys`, `process.argv`…), `require` only takes a literal
 * `fs`/`path`/`os` (used through listed functions) or a relative `.json` file; the properties of
 * values may be any name but those that reach code (`constructor`, `__proto__`, `call`…), and a
 * computed property must be a literal. `this`, `Function`, `eval`, `globalThis`, `import`,
 * `process.binding`, `child_process`: not proven.
 */
import { isDunder, notProven, ProofBuilder, READABLE_VARIABLES, type Proof } from './proof.js';
import { javascriptTokens, type JsToken } from './javascript-tokens.js';

const KEYWORDS = new Set([
  'const',
  'let',
  'var',
  'if',
  'else',
  'for',
  'of',
  'in',
  'while',
  'do',
  'return',
  'true',
  'false',
  'null',
  'undefined',
  'new',
  'typeof',
  'instanceof',
  'function',
  'break',
  'continue',
  'try',
  'catch',
  'finally',
  'throw',
  'void',
  'delete',
  'NaN',
  'Infinity',
]);

/** Property names that reach code or the module system from any value. */
const DENIED = new Set([
  'constructor',
  'prototype',
  'caller',
  'callee',
  'arguments',
  'call',
  'apply',
  'bind',
  'mainModule',
  'binding',
  'dlopen',
  'require',
  'module',
  'exports',
  'globalThis',
  'global',
  'eval',
  'Function',
  'Reflect',
  'Proxy',
  'import',
]);
const denied = (name: string): boolean => DENIED.has(name) || isDunder(name) || name.startsWith('_');

/** Globals with the properties that may be used (`''`: the global itself, as a value). */
const GLOBALS: Readonly<Record<string, readonly string[]>> = {
  console: ['log', 'error', 'info', 'warn', 'dir', 'table', 'debug'],
  JSON: ['parse', 'stringify'],
  Object: ['keys', 'values', 'entries', 'fromEntries', 'assign', 'freeze', 'hasOwn'],
  Array: ['isArray', 'from', 'of'],
  Math: ['abs', 'ceil', 'floor', 'round', 'max', 'min', 'pow', 'sqrt', 'random', 'trunc', 'sign', 'log', 'log2', 'log10', 'exp', 'PI', 'E'],
  Number: ['', 'isInteger', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'MAX_SAFE_INTEGER'],
  String: ['', 'fromCharCode'],
  Boolean: [''],
  Date: ['', 'now', 'parse', 'UTC'],
  Set: [''],
  Map: [''],
  parseInt: [''],
  parseFloat: [''],
  isNaN: [''],
  isFinite: [''],
  encodeURIComponent: [''],
  decodeURIComponent: [''],
  Buffer: ['from', 'concat', 'isBuffer', 'byteLength'],
  process: [
    'version',
    'versions',
    'platform',
    'arch',
    'argv',
    'pid',
    'exit',
    'exitCode',
    'cwd',
    'uptime',
    'memoryUsage',
    'hrtime',
    'release',
    'stdout.write',
    'stderr.write',
    'stdin',
    'stdin.on',
    'stdin.setEncoding',
    'stdin.resume',
    'env',
  ],
};

/** What `require('…')` may load, with the functions that may be used. `fs`'s take a path, read here. */
const MODULES: Readonly<Record<string, readonly string[]>> = {
  fs: ['readFileSync', 'existsSync', 'readdirSync', 'statSync', 'lstatSync'],
  path: ['join', 'resolve', 'basename', 'dirname', 'extname', 'relative', 'normalize', 'sep', 'parse', 'isAbsolute'],
  os: ['homedir', 'platform', 'type', 'release', 'arch', 'cpus', 'hostname', 'EOL', 'tmpdir', 'totalmem', 'freemem', 'uptime', 'endianness', 'loadavg'],
};

/** Names the code may not take as its own variables: every global of this Node, and the module scope's. */
const GLOBAL_NAMES: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(globalThis),
  'require',
  'module',
  'exports',
  'WebSocket',
  'fetch',
  'navigator',
  'Deno',
  'Bun',
]);

type Binding = { kind: 'module'; module: string } | { kind: 'local' };

export function proveJavaScript(code: string): Proof {
  const tokens = javascriptTokens(code);
  if (tokens === null) return notProven('the JavaScript code could not be read');
  const bindings = collectLocals(tokens);
  const proof = new ProofBuilder();
  const brackets: string[] = [];
  for (let i = 0; i < tokens.length;) {
    const t = tokens[i];
    if (t.kind === 'op' && (t.text === '(' || t.text === '{' || t.text === '[')) {
      if (t.text === '[' && !memberOrArray(tokens, i, brackets)) return notProven('a property computed at run time');
      brackets.push(t.text);
    } else if (t.kind === 'op' && (t.text === ')' || t.text === '}' || t.text === ']')) brackets.pop();
    const step = checkAt(tokens, i, bindings, proof);
    if (typeof step === 'string') return notProven(step);
    i = step;
  }
  return proof.done();
}

const valueEnd = (t: JsToken | undefined): boolean =>
  t !== undefined && (t.kind === 'name' || t.kind === 'string' || t.kind === 'number' || t.text === ')' || t.text === ']' || t.text === '?.');

/** `x[…]` must be a literal, non-denied key; `{ [k]: v }` (a computed key, in patterns too) is refused. */
function memberOrArray(tokens: JsToken[], i: number, brackets: string[]): boolean {
  const prev = tokens[i - 1];
  if (valueEnd(prev) && !(prev.kind === 'name' && KEYWORDS.has(prev.text) && !['true', 'false', 'null', 'undefined'].includes(prev.text))) {
    const key = tokens[i + 1];
    if (tokens[i + 2]?.text !== ']') return false;
    if (key?.kind === 'number') return true;
    return key?.kind === 'string' && typeof key.value === 'string' && !denied(key.value);
  }
  return !(brackets[brackets.length - 1] === '{' && (prev?.text === '{' || prev?.text === ','));
}

function checkAt(tokens: JsToken[], i: number, bindings: Map<string, Binding>, proof: ProofBuilder): number | string {
  const t = tokens[i];
  if (t.kind === 'string') {
    if (typeof t.value === 'string' && denied(t.value)) return `the string ${t.text} names something that reaches code`;
    // `{ '\x63onstructor': F } = …`: a key whose value is not read here may be any name.
    if (t.value === null && tokens[i + 1]?.text === ':') return `the key ${t.text} is not read here`;
    return i + 1;
  }
  if (t.kind === 'op' && (t.text === '.' || t.text === '?.')) {
    const name = tokens[i + 1];
    if (t.text === '?.' && name?.kind === 'op') return i + 1;
    if (name?.kind !== 'name' || denied(name.text)) return `the property \`.${name?.text ?? ''}\` reaches code`;
    return i + 2;
  }
  if (t.kind !== 'name') return i + 1;
  const name = t.text;
  if (name === 'require') return checkRequire(tokens, i, bindings, proof);
  if (denied(name)) return `\`${name}\` reaches code`;
  // An object literal's key (`{ a: 1 }`), not a reference.
  if (tokens[i + 1]?.text === ':' && (tokens[i - 1]?.text === '{' || tokens[i - 1]?.text === ',')) return i + 1;
  if (KEYWORDS.has(name)) return i + 1;
  if (Object.prototype.hasOwnProperty.call(GLOBALS, name)) return checkChain(tokens, i, name, GLOBALS[name], proof);
  const b = bindings.get(name);
  // `const fs = require('fs')`: the declaration itself (checkRequire checks the value).
  if (b?.kind === 'module' && ['const', 'let', 'var'].includes(tokens[i - 1]?.text ?? '') && tokens[i + 1]?.text === '=') return i + 1;
  if (b?.kind === 'module') return checkChain(tokens, i, b.module, MODULES[b.module], proof);
  if (b?.kind === 'local') return i + 1;
  return `\`${name}\` is not a name known to be pure`;
}

/** `ROOT.a.b…`: the longest listed prefix (or the root itself where `''` is listed), then properties of values. */
function checkChain(tokens: JsToken[], i: number, root: string, allowed: readonly string[], proof: ProofBuilder): number | string {
  const parts: string[] = [];
  let j = i + 1;
  while ((tokens[j]?.text === '.' || tokens[j]?.text === '?.') && tokens[j + 1]?.kind === 'name') {
    parts.push(tokens[j + 1].text);
    j += 2;
  }
  let k = parts.length;
  while (k > 0 && !allowed.includes(parts.slice(0, k).join('.'))) k--;
  if (k === 0 && !allowed.includes('')) return `\`${[root, ...parts].join('.')}\` is not known to be pure`;
  const chain = [root, ...parts.slice(0, k)].join('.');
  const after = i + 1 + 2 * k;
  if (chain === 'process.env') return environmentRead(tokens, after, parts.slice(k), proof);
  if (root === 'fs' && k > 0 && !fsRead(tokens, after, parts[0], proof)) return `\`fs.${parts[0]}\` with options that may open for writing`;
  const bad = parts.slice(k).find(denied);
  if (bad !== undefined) return `the property \`.${bad}\` reaches code`;
  return j;
}

/** `process.env.HOME`, `process.env['HOME']`: a readable name; anything else is the whole environment. */
function environmentRead(tokens: JsToken[], after: number, rest: string[], proof: ProofBuilder): number | string {
  if (rest.length > 0) {
    if (!READABLE_VARIABLES.has(rest[0])) return `reads the environment variable ${rest[0]}`;
    if (rest.slice(1).some(denied)) return 'a property that reaches code';
    return after + 2 * rest.length;
  }
  const key = tokens[after + 1];
  if (tokens[after]?.text === '[' && key?.kind === 'string' && tokens[after + 2]?.text === ']') {
    if (typeof key.value !== 'string' || !READABLE_VARIABLES.has(key.value)) return `reads the environment variable ${key.text}`;
    return after + 3;
  }
  proof.wholeEnvironment = true;
  return after;
}

/**
 * `fs.readFileSync('x')`: a literal path is read; `0` is stdin; anything else is a path built at
 * run time. Options other than an encoding literal are refused (`{flag: 'w'}` truncates): false.
 */
function fsRead(tokens: JsToken[], after: number, fn: string, proof: ProofBuilder): boolean {
  if (tokens[after]?.text !== '(') return true;
  const end = closingParen(tokens, after);
  const second = tokens.slice(after + 1, end).findIndex((t, k, a) => t.text === ',' && depthAt(a, k) === 0);
  if (fn === 'readFileSync' && second >= 0) {
    const rest = tokens.slice(after + 2 + second, end);
    if (!(rest.length === 1 && rest[0].kind === 'string')) return false;
  }
  const arg = tokens[after + 1];
  const single = tokens[after + 2]?.text === ',' || tokens[after + 2]?.text === ')';
  if (single && arg?.kind === 'number' && arg.text === '0' && fn === 'readFileSync') return true;
  const path = single && arg?.kind === 'string' && typeof arg.value === 'string' ? arg.value : null;
  proof.reads.push({ path, ...(fn === 'readdirSync' ? { list: true } : {}) });
  return true;
}

function closingParen(tokens: JsToken[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    if ('([{'.includes(tokens[j].text) && tokens[j].kind === 'op') depth++;
    else if (')]}'.includes(tokens[j].text) && tokens[j].kind === 'op' && --depth === 0) return j;
  }
  return tokens.length;
}

/** Bracket depth before token `k` of a call's argument tokens. */
function depthAt(tokens: JsToken[], k: number): number {
  let depth = 0;
  for (let j = 0; j < k; j++) {
    if ('([{'.includes(tokens[j].text) && tokens[j].kind === 'op') depth++;
    else if (')]}'.includes(tokens[j].text) && tokens[j].kind === 'op') depth--;
  }
  return depth;
}

/** `require('fs')`, `require('./x.json')`: the only loads proven. */
function checkRequire(tokens: JsToken[], i: number, bindings: Map<string, Binding>, proof: ProofBuilder): number | string {
  const arg = tokens[i + 2];
  if (tokens[i + 1]?.text !== '(' || arg?.kind !== 'string' || typeof arg.value !== 'string' || tokens[i + 3]?.text !== ')')
    return '`require` of something other than a literal';
  const name = arg.value.replace(/^node:/, '');
  if (/^\.\.?\//.test(name) && name.endsWith('.json')) {
    proof.requiredJson.push(name);
    proof.reads.push({ path: name });
    return i + 4;
  }
  if (!Object.prototype.hasOwnProperty.call(MODULES, name)) return `\`require('${arg.value}')\` is not a module known to be pure`;
  // `const fs = require('fs')` binds the module (checked at each use); `require('fs').readFileSync(…)` uses it now.
  const declared = tokens[i - 1]?.text === '=' && tokens[i - 2]?.kind === 'name' && ['const', 'let', 'var'].includes(tokens[i - 3]?.text ?? '');
  if (declared) {
    bindings.set(tokens[i - 2].text, { kind: 'module', module: name });
    return i + 4;
  }
  if (tokens[i + 4]?.text !== '.') return `\`require('${arg.value}')\` used other than through its functions`;
  const r = checkChain(tokens, i + 3, name, MODULES[name], proof);
  return r;
}

/**
 * Variables the code declares: `const`/`let`/`var` names (patterns included, keys excepted),
 * parameters of arrows and functions, `catch (e)`. A global's name is never one.
 */
function collectLocals(tokens: JsToken[]): Map<string, Binding> {
  const bindings = new Map<string, Binding>();
  const local = (t: JsToken | undefined, next: JsToken | undefined) => {
    if (
      t?.kind === 'name' &&
      next?.text !== ':' &&
      !KEYWORDS.has(t.text) &&
      !GLOBAL_NAMES.has(t.text) &&
      !Object.prototype.hasOwnProperty.call(GLOBALS, t.text) &&
      !denied(t.text)
    )
      bindings.set(t.text, { kind: 'local' });
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'name' && ['const', 'let', 'var'].includes(t.text)) {
      let depth = 0;
      for (let j = i + 1; j < tokens.length; j++) {
        const x = tokens[j].text;
        if (x === '{' || x === '[') depth++;
        else if (x === '}' || x === ']') depth--;
        else if (depth === 0 && (x === '=' || x === ';' || x === 'of' || x === 'in' || x === ')')) {
          if (x !== '=') break;
          // `const a = 1, b = 2`: skip the value to the next declarator.
          j = skipExpression(tokens, j + 1);
          if (tokens[j]?.text !== ',') break;
          continue;
        } else local(tokens[j], tokens[j + 1]);
      }
    } else if (t.text === '=>') {
      if (tokens[i - 1]?.kind === 'name') local(tokens[i - 1], t);
      else if (tokens[i - 1]?.text === ')')
        for (let j = i - 2, d = 0; j >= 0 && !(d === 0 && tokens[j].text === '('); j--) {
          if (tokens[j].text === ')') d++;
          else if (tokens[j].text === '(') d--;
          local(tokens[j], tokens[j + 1]);
        }
    } else if ((t.text === 'function' || t.text === 'catch') && tokens.length > i + 1) {
      let j = i + 1;
      if (tokens[j].kind === 'name') local(tokens[j++], undefined);
      if (tokens[j]?.text === '(') for (j++; j < tokens.length && tokens[j].text !== ')'; j++) local(tokens[j], tokens[j + 1]);
    }
  }
  // `var fs = require('fs')` binds the module for every use, those before it in a loop too.
  for (let i = 0; i + 6 < tokens.length; i++) {
    const [decl, name, eq, req, open, arg, close] = tokens.slice(i, i + 7);
    if (!['const', 'let', 'var'].includes(decl.text) || name.kind !== 'name' || eq.text !== '=' || req.text !== 'require') continue;
    const module = typeof arg.value === 'string' ? arg.value.replace(/^node:/, '') : '';
    if (open.text === '(' && close.text === ')' && Object.prototype.hasOwnProperty.call(MODULES, module)) bindings.set(name.text, { kind: 'module', module });
  }
  return bindings;
}

function skipExpression(tokens: JsToken[], j: number): number {
  let depth = 0;
  for (; j < tokens.length; j++) {
    const x = tokens[j].text;
    if ('([{'.includes(x) && tokens[j].kind === 'op') depth++;
    else if (')]}'.includes(x) && tokens[j].kind === 'op') {
      if (depth === 0) return j;
      depth--;
    } else if (depth === 0 && (x === ',' || x === ';')) return j;
  }
  return j;
}
