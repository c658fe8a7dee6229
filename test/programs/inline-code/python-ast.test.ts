/**
 * A property of the Python prover: whatever it accepts, Python's own parser (`ast`, in the real
 * python3) finds no name, attribute, import or call outside the prover's whitelist. Programs come
 * from a small grammar of one-liners, with harmful code put inside strings, comments and
 * f-strings, and mutated (a quote, a backslash, a `#`, a carriage return inserted or removed) so
 * that whatever the prover's tokenizer reads differently from Python shows. One python3 process
 * judges the whole batch (python-ast-oracle.py).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { provePython, PYTHON_WHITELIST } from '../../../src/programs/inline-code/python.js';

const ORACLE = fileURLToPath(new URL('./python-ast-oracle.py', import.meta.url));

const python3 = (() => {
  try {
    execFileSync('python3', ['-c', 'pass'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!python3) console.log('python-ast.test.ts: python3 not found, the property against Python’s ast is skipped');

const SAFE = [
  'print(1)',
  'x = [1, 2]',
  'import json',
  'import os.path as p',
  'from os.path import join',
  'print(json.dumps({"a": 1}))',
  'print(open("a.txt").read())',
  'for v in x: print(v)',
  'y = sorted(x)',
  'print(f"{x!r:>4}")',
  's = "text"',
  'print(s.upper())',
  "print('x'.encode('utf-8'))",
  'import sys',
  'print(sys.argv)',
  'print(len(s), sum(x))',
  'z = {k: v for k, v in zip(x, x)}',
];

const HARM = [
  'exec("1")',
  'eval("1")',
  '__import__("os")',
  'open("f", "w")',
  'getattr(x, "y")',
  '(v for v in x).gi_frame.f_builtins',
  'import subprocess',
  'x.__class__',
  'globals()',
  'breakpoint()',
  'input()',
  'json.codecs.open("f", "w")',
  'p.os.system("id")',
  'vars()',
  'import os; os.remove("f")',
  "'x'.encode('idna')",
  'subprocess.run(["id"])',
  'shutil.rmtree("/")',
  'x.remove(1) or os.system("id")',
];

/** Ways to put harmful code where a tokenizer might take it for text. */
const WRAP: ((h: string) => string)[] = [
  (h) => h,
  (h) => `"${h}"`,
  (h) => `'${h}'`,
  (h) => `# ${h}\n`,
  (h) => `#\r${h}`,
  (h) => `r"\\"; ${h}; "`,
  (h) => `"""x\n${h}"""`,
  (h) => `f"{1}${h}"`,
  (h) => `f'{"x"}'; ${h}`,
  (h) => `'\\\n${h}'`,
  (h) => `b'${h}'`,
  (h) => `'''${h}'`,
];

const TRICKY = ['"', "'", '#', '\\', '\r', '\n', '{', '}', 'f', 'r', 'b', ' ', ';', '(', ')', '"""', "'''"];

const program = fc
  .tuple(
    fc.array(fc.constantFrom(...SAFE), { minLength: 1, maxLength: 4 }),
    fc.option(fc.tuple(fc.constantFrom(...HARM), fc.constantFrom(...WRAP), fc.nat(4))),
    fc.array(fc.tuple(fc.nat(200), fc.constantFrom(...TRICKY), fc.boolean()), { maxLength: 2 }),
  )
  .map(([stmts, harm, edits]) => {
    const parts = [...stmts];
    if (harm !== null) parts.splice(harm[2] % (parts.length + 1), 0, harm[1](harm[0]));
    let code = ['x = [1, 2]', 's = "t"', ...parts].join('; ');
    for (const [at, text, insert] of edits) {
      const i = at % (code.length + 1);
      code = insert ? code.slice(0, i) + text + code.slice(i) : code.slice(0, i) + code.slice(i + 1);
    }
    return code;
  });

describe('Python prover against Python’s own parser', () => {
  it.skipIf(!python3)('accepts only programs whose AST uses nothing outside the whitelist', () => {
    const programs = fc.sample(program, { numRuns: 4000, seed: 27 });
    const accepted = [...new Set(programs)].filter((code) => provePython(code).proven);
    const input = [JSON.stringify(PYTHON_WHITELIST), ...accepted.map((c) => JSON.stringify(c))].join('\n') + '\n';
    const verdicts = execFileSync('python3', [ORACLE], { input, encoding: 'utf8', maxBuffer: 64 << 20 })
      .trim()
      .split('\n');
    expect(verdicts).toHaveLength(accepted.length);
    const wrong = accepted.map((code, k) => ({ code, bad: JSON.parse(verdicts[k]) as string[] })).filter((v) => v.bad.length > 0);
    expect(wrong).toEqual([]);
    // Not vacuous: many programs are accepted, some of them with harmful text inside strings.
    expect(accepted.length).toBeGreaterThan(250);
    expect(accepted.filter((code) => HARM.some((h) => code.includes(h))).length).toBeGreaterThan(10);
  });
});
