/**
 * What a JavaScript one-liner may name (javascript.ts): the globals and modules with the members
 * that only compute, read or print, the property names that reach code, and the names no variable
 * of the code may take.
 */
import { createRequire } from 'node:module';
import { isDunder } from './proof.js';

/**
 * Members of built-in values that only compute, read or print: the methods and properties of
 * strings, arrays, numbers, maps, sets, dates, regexes, buffers, errors, promises, iterators, file
 * stats and input streams that take no code but the callbacks the code itself defines. A member of
 * a value the code computed is used only if it is listed here or named in GLOBALS/MODULES, or if no
 * built-in value holds a function under that name (then it is data: a field of parsed JSON, an
 * own property of the code's objects, a getter such as `size`). `constructor`, `call`, `bind`,
 * `__proto__` and every other method a built-in has and this list does not name are refused.
 */
const HARMLESS_MEMBERS = new Set([
  // every value
  ...'length name message stack code cause toString toLocaleString valueOf toJSON hasOwnProperty propertyIsEnumerable'.split(' '),
  // strings
  ...'at charAt charCodeAt codePointAt concat endsWith includes indexOf lastIndexOf localeCompare match matchAll normalize'.split(' '),
  ...'padEnd padStart repeat replace replaceAll search slice split startsWith substring substr toLowerCase toUpperCase'.split(' '),
  ...'toLocaleLowerCase toLocaleUpperCase trim trimStart trimEnd trimLeft trimRight isWellFormed toWellFormed'.split(' '),
  // arrays
  ...'entries every fill filter find findIndex findLast findLastIndex flat flatMap forEach join keys map pop push'.split(' '),
  ...'reduce reduceRight reverse shift some sort splice unshift values toReversed toSorted toSpliced with'.split(' '),
  // numbers, dates, regexes
  ...'toFixed toPrecision toExponential getTime getFullYear getMonth getDate getDay getHours getMinutes getSeconds'.split(' '),
  ...'getMilliseconds getUTCFullYear getUTCMonth getUTCDate getUTCDay getUTCHours getUTCMinutes getUTCSeconds'.split(' '),
  ...'getUTCMilliseconds getTimezoneOffset toISOString toUTCString toDateString toTimeString toLocaleDateString'.split(' '),
  ...'toLocaleTimeString test exec source flags global ignoreCase multiline lastIndex'.split(' '),
  // maps and sets
  ...'get set has delete clear add size'.split(' '),
  // buffers
  ...'byteLength subarray equals compare readUInt8 readUInt16LE readUInt16BE readUInt32LE readUInt32BE readInt32LE'.split(' '),
  // promises and iterators
  ...'then catch finally next done value'.split(' '),
  // file stats and directory entries (fs.statSync, readdirSync with withFileTypes)
  ...'isFile isDirectory isSymbolicLink isFIFO isSocket isBlockDevice isCharacterDevice'.split(' '),
  // an input stream (process.stdin)
  ...'on once setEncoding resume pause read isTTY'.split(' '),
]);

/** Globals with the members that may be used (`''`: the global itself, as a value). */
export const GLOBALS: Readonly<Record<string, readonly string[]>> = {
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
  undefined: [''],
  NaN: [''],
  Infinity: [''],
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

/**
 * Modules that may be loaded (`require('fs')`, or the global of the same name that node's eval
 * mode gives for every builtin module), with the members that may be used. `fs`'s functions take
 * a path, which is read (javascript.ts checks their arguments); they are only ever called.
 */
export const MODULES: Readonly<Record<string, readonly string[]>> = {
  fs: ['readFileSync', 'existsSync', 'readdirSync', 'statSync', 'lstatSync'],
  path: ['join', 'resolve', 'basename', 'dirname', 'extname', 'relative', 'normalize', 'sep', 'parse', 'isAbsolute'],
  os: ['homedir', 'platform', 'type', 'release', 'arch', 'cpus', 'hostname', 'EOL', 'tmpdir', 'totalmem', 'freemem', 'uptime', 'endianness', 'loadavg'],
};

/**
 * Node's builtin modules without a `/` (each is a global in eval mode), as data so that the list
 * does not depend on the node running shellgate: node 20's `builtinModules`, and those of newer
 * versions as far as known (the node that runs the command may be newer).
 */
const BUILTIN_MODULES = [
  ...'assert async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns domain events fs http http2 https'.split(' '),
  ...'inspector module net os path perf_hooks process punycode querystring readline repl stream string_decoder sys timers tls trace_events'.split(' '),
  ...'tty url util v8 vm wasi worker_threads zlib sqlite test sea quic'.split(' '),
];

/**
 * Names no variable, parameter or function of the code may take: every builtin module (a global
 * in eval mode), every global of this node and a few of newer ones or other runtimes, the module
 * scope's names, the listed globals and the names that reach code from a value. A variable of such a name makes the
 * code's own reading of the name depend on scopes; refusing it keeps every name meaning one thing.
 */
export const RESERVED_BINDINGS: ReadonlySet<string> = new Set([
  ...BUILTIN_MODULES,
  ...Object.getOwnPropertyNames(globalThis),
  ...Object.keys(GLOBALS),
  // names that reach code from a value, and the module system's
  ...'constructor prototype caller callee arguments call apply bind mainModule binding dlopen eval Function Reflect Proxy import globalThis global'.split(' '),
  'require',
  'module',
  'exports',
  '__filename',
  '__dirname',
  'arguments',
  'await',
  'yield',
  'let',
  'async',
  'of',
  'WebSocket',
  'fetch',
  'navigator',
  'Deno',
  'Bun',
  'Iterator',
  'Float16Array',
  'CloseEvent',
  'CustomEvent',
  'Navigator',
  'localStorage',
  'sessionStorage',
  'Storage',
]);

/**
 * Every name under which a built-in value of this node holds a function: the methods of the
 * prototypes, constructors and namespaces reachable from the globals, and the accessors of
 * functions themselves (`caller`, `arguments`). Reading one gives code to call; a name that is
 * only ever data or a getter of data (`size`, `description`, `type`) gives none.
 */
function builtinMethodNames(): Set<string> {
  const names = new Set<string>();
  const seen = new Set<object>();
  const visit = (v: unknown, depth: number): void => {
    if ((typeof v !== 'object' && typeof v !== 'function') || v === null || seen.has(v)) return;
    seen.add(v);
    for (let o: object | null = v; o !== null; o = Object.getPrototypeOf(o) as object | null) {
      for (const n of Object.getOwnPropertyNames(o)) {
        // values only, never a getter: reading one could have effects in shellgate's own process
        const d = Object.getOwnPropertyDescriptor(o, n);
        if (!d || !('value' in d)) continue;
        if (typeof d.value === 'function') names.add(n);
        if (depth > 0) visit(d.value, depth - 1);
      }
    }
  };
  visit(globalThis, 2);
  // the classes of the values GLOBALS and MODULES hand out (process.stdin is a socket, a tty or a
  // file stream; fs gives stats and directory entries), with every member their chains have
  // (loaded here, not imported: the playground's browser bundle has no such modules, and never
  // gets here since it has no JavaScript parser either)
  const load = createRequire(import.meta.url);
  const classes = {
    'node:net': ['Socket'],
    'node:tty': ['ReadStream', 'WriteStream'],
    'node:fs': ['ReadStream', 'WriteStream', 'Stats', 'Dirent'],
    'node:stream': ['Readable', 'Writable', 'Duplex'],
    'node:events': ['EventEmitter'],
  };
  for (const [module, names] of Object.entries(classes)) {
    const exports = load(module) as Record<string, unknown>;
    for (const n of names) visit(exports[n], 1);
  }
  // values the listed functions return, whose prototypes no global names
  for (const x of [(function* () {})(), (async function* () {})(), [][Symbol.iterator](), new Map().entries(), ''.matchAll(/x/g)]) visit(x, 1);
  for (const n of Object.getOwnPropertyNames(Function.prototype)) if (!('value' in Object.getOwnPropertyDescriptor(Function.prototype, n)!)) names.add(n);
  names.add('callee'); // arguments.callee: the running function itself
  return names;
}

/** Computed on the first inline JavaScript seen, not when shellgate starts. */
let builtinMethods: Set<string> | null = null;
/** Members GLOBALS and MODULES list: harmless wherever they are found. */
const LISTED = new Set([...Object.values(GLOBALS), ...Object.values(MODULES)].flat().flatMap((m) => m.split('.')));

/** May the code use a member of this name on a value it computed? */
export function harmlessMember(name: string): boolean {
  if (name.startsWith('_') || isDunder(name)) return false;
  return HARMLESS_MEMBERS.has(name) || LISTED.has(name) || !(builtinMethods ??= builtinMethodNames()).has(name);
}
