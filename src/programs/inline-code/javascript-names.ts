/**
 * What a JavaScript one-liner may name (javascript.ts): the globals and modules with the members
 * that only compute, read or print, the property names that reach code, and the names no variable
 * of the code may take.
 */
import { isDunder } from './proof.js';

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
export const denied = (name: string): boolean => DENIED.has(name) || isDunder(name) || name.startsWith('_');

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
 * scope's names, the listed globals and the denied names. A variable of such a name makes the
 * code's own reading of the name depend on scopes; refusing it keeps every name meaning one thing.
 */
export const RESERVED_BINDINGS: ReadonlySet<string> = new Set([
  ...BUILTIN_MODULES,
  ...Object.getOwnPropertyNames(globalThis),
  ...Object.keys(GLOBALS),
  ...DENIED,
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
