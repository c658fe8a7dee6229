/**
 * The JavaScript prover over acorn's AST (issue 27, class 1): each way a hand tokenizer misread
 * `node -e` code — a builtin module shadowed by a local, a comment ended by U+2028, a regex read as
 * a division, HTML-like comments, a variable named `of` — and a property: whatever the prover
 * accepts, acorn's own reading holds no call outside the whitelist.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse, type Node } from 'acorn';
import { proveJavaScript } from '../../../src/programs/inline-code/javascript.js';

const proven = (code: string) => proveJavaScript(code).proven;

describe('the JavaScript prover', () => {
  it('does not take a builtin module or a global for a local the code declared', () => {
    for (const code of [
      "{ let fs = 1 } fs.rmSync('x')", // block-scoped: outside the block `fs` is the builtin again
      "(fs => 0)(1); fs.rmSync('x')",
      "function f(child_process) {} child_process.execSync('id')",
      'try {} catch (net) {} net.connect(1)',
      "const {a: fs} = {a: 1}; fs.rmSync('x')",
      "const [fs] = [1]; fs.rmSync('x')",
      "x => { let fs }; fs.rmSync('x')",
      "for (const fs of []) {} fs.rmSync('x')",
      'function fs() {}',
      'var process = 1',
      '{ let sqlite = 1 }', // a builtin of a newer node
      "const os = require('fs'); os.rmSync('x')",
      "var f = require('fs'); var f = 2; f.rmSync('x')",
      "let f = require('fs'); f = 1",
      "(f => f.rmSync('x'))(fs)", // a module passed as a value
      "const r = fs.readFileSync; r('x', {flag: 'w'})", // an fs function taken as a value
      "child_process.execSync('id')", // eval mode: every builtin module is a global
    ])
      expect(proven(code), code).toBe(false);
  });

  it('reads comments, regexes and divisions as node does', () => {
    expect(proven("// c\u2028fs.rmSync('x')")).toBe(false); // U+2028 ends a line comment
    expect(proven("// c\u2029fs.rmSync('x')")).toBe(false);
    expect(proven("const x = 1; x\n/fs.rmSync('x')/g")).toBe(false); // a division, not a regex
    expect(proven("const x = 1; if (x) {}/fs.rmSync('x')/")).toBe(true); // after a block, a regex
    expect(proven("const x = 1; (x)/fs.rmSync('x')/1")).toBe(false);
    expect(proven('x <!-- y')).toBe(false); // HTML-like comments: read differently by acorn and V8
    expect(proven("a = 1 /*\n*/ --> fs.rmSync('x')")).toBe(false);
    expect(proven('console.log(1) // c\u2028')).toBe(true);
  });

  it('checks computed keys wherever they are, a variable named `of` too', () => {
    for (const code of [
      "let of = 'constructor'; const a = {}; a[of]",
      'const k = 1; ({})[k]',
      "const x = {['const' + 'ructor']: 1}",
      "const {['constructor']: F} = ''",
      "const o = {}; o['constructor']",
      "const x = {'__proto__': 1}",
    ])
      expect(proven(code), code).toBe(false);
  });

  // `/a/v` is ES2024: an older node fails to parse it and may read the text again another way.
  it('refuses what is not a plain ES2022 script, and what it does not list', () => {
    for (const code of [
      'class A {}',
      "import('fs')",
      "import fs from 'fs'",
      'export {}',
      'await 1',
      'import.meta',
      'this',
      'function* g() {}',
      'x = 1',
      'console.log = 1',
    ])
      expect(proven(code), code).toBe(false);
  });

  it('keeps read-only one-liners proven', () => {
    for (const code of [
      "fs.readFileSync('a.txt', 'utf8')",
      "const f = require('fs'); f.readFileSync('x')",
      "const fs = require('fs'); fs.readdirSync('.')",
      "{ const fs = require('fs'); } fs.existsSync('x')",
      "fs.readFileSync(0, 'utf8')",
      'process.stdout.write(String(1))',
      '[1,2].map(x => x * 2).forEach(x => console.log(x))',
      'let i = 0; for (const x of [1]) i += x; console.log(i)',
      'function f(a) { return a + 1 } console.log(f(1))',
      'let x; x = 1; x++',
      'process.exitCode = 1',
      '#!/usr/bin/node\nconsole.log(1)',
    ])
      expect(proven(code), code).toBe(true);
    expect(proveJavaScript("console.log(fs.readFileSync('a.txt', 'utf8'), path.join('a', 'b'))")).toMatchObject({ proven: true, reads: [{ path: 'a.txt' }] });
  });
});

type AstNode = Node & { name?: string; value?: unknown; object?: AstNode; property?: AstNode; callee?: AstNode; arguments?: AstNode[]; computed?: boolean };

/** Names that reach code: a reference to one, a property of that name, or a string naming it. */
const CODE = new Set(['eval', 'Function', 'constructor', 'child_process']);
/** Functions that write or run, reached from `fs`, `child_process` or a `require`d module. */
const WRITES = new Set(['rmSync', 'writeFileSync', 'execSync']);

/**
 * acorn's own reading, independent of the prover's: a reference to a name of CODE, a `constructor`
 * member or key (by name or by string), `require` of anything but a listed module, or a writing function of `fs`
 * (the global of node's eval mode) or of a `require`d module.
 */
function reachesDanger(node: unknown, parent: AstNode | null = null, key = ''): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some((n) => reachesDanger(n, parent, key));
  const n = node as AstNode;
  const isPropertyName = (parent?.type === 'MemberExpression' && key === 'property' && !parent.computed) || (parent?.type === 'Property' && key === 'key');
  if (n.type === 'Identifier' && CODE.has(n.name ?? '') && (!isPropertyName || n.name === 'constructor')) return true;
  // a string naming it is data, until it is used as a member or a key
  if (
    n.type === 'Literal' &&
    n.value === 'constructor' &&
    ((parent?.type === 'MemberExpression' && key === 'property') || (parent?.type === 'Property' && key === 'key'))
  )
    return true;
  if (n.type === 'CallExpression' && n.callee?.type === 'Identifier' && n.callee.name === 'require') {
    const arg = n.arguments?.[0];
    if (!(arg?.type === 'Literal' && ['fs', 'path', 'os'].includes(String(arg.value)))) return true;
  }
  if (n.type === 'MemberExpression' && n.property?.type === 'Identifier' && WRITES.has(n.property.name ?? '')) {
    const o = n.object;
    if ((o?.type === 'Identifier' && ['fs', 'child_process'].includes(o.name ?? '')) || (o?.type === 'CallExpression' && o.callee?.name === 'require'))
      return true;
  }
  return Object.entries(n).some(([k, v]) => k !== 'loc' && reachesDanger(v, n, k));
}

describe('a property of the JavaScript prover', () => {
  // Pieces that build programs which a hand tokenizer could misread: comments, strings, regexes,
  // templates, shadowing locals, line terminators, HTML-like comments.
  const pieces = [
    'console.log(1)',
    "fs.rmSync('x')",
    "require('child_process').execSync('id')",
    "eval('1')",
    'let fs = 1',
    '(fs) => 0',
    'const x = 1',
    'x',
    'of',
    '{',
    '}',
    '(',
    ')',
    '[',
    ']',
    '//',
    '/*',
    '*/',
    '/',
    "'",
    '"',
    '`',
    '${',
    '<!--',
    '-->',
    '=>',
    '=',
    ',',
    '.constructor',
    '["constructor"]',
    'fs',
    '.rmSync',
    "('y')",
    'process.env.HOME',
    'let',
    'catch',
    'try {} ',
  ];
  const separators = ['', ' ', '\n', ';', '\u2028', '\u2029'];

  const programs = fc
    .array(fc.tuple(fc.constantFrom(...pieces), fc.constantFrom(...separators)), { maxLength: 8 })
    .map((parts) => parts.map(([p, s]) => p + s).join(''));

  it('accepts a program only if acorn finds no call outside the whitelist in it', () => {
    fc.assert(
      fc.property(programs, (code) => {
        if (!proven(code)) return true;
        const ast = parse(code, { ecmaVersion: 'latest', sourceType: 'script' });
        return !reachesDanger(ast);
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts enough of them for the property to mean something', () => {
    const sample = fc.sample(programs, { numRuns: 2000, seed: 27 });
    expect(sample.filter(proven).length).toBeGreaterThan(100);
  });
});
