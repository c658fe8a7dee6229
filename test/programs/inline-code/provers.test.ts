/**
 * The inline-code provers: what a one-liner may do and still be proven read-only, and every way
 * of reaching code, files or the environment that must keep it unproven — hidden in strings,
 * comments, concatenations, escapes, reflection or bracket access.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { proveInlineCode } from '../../../src/programs/inline-code/prove.js';
import { provePerl } from '../../../src/programs/inline-code/perl.js';

const proven = (family: string, code: string) => proveInlineCode(family, code).proven;

describe('Python one-liners', () => {
  it('proves code that only computes, reads files named in literals and prints', () => {
    for (const code of [
      'print(1+1)',
      'import sys; print(sys.version)',
      "import json; print(json.load(open('package.json'))['version'])",
      "import tomllib; print(tomllib.load(open('pyproject.toml','rb'))['project']['dependencies'])",
      "import os; print(os.environ.get('HOME'))",
      "import ast; ast.parse(open('src/app.py').read()); print('ok')",
      'import sys; print(sum(int(l) for l in sys.stdin))',
      "with open('a', encoding='utf8') as f: print(len(f.readlines()))",
      "from os.path import join as j; print(j('a', 'b'))",
      'print(f"{1+2:>5}")',
    ])
      expect(proven('python', code), code).toBe(true);
  });
  it('gives the files read, a run-time path as null, and the modules imported', () => {
    const p = proveInlineCode('python', "import json, sys; print(open('a.json').read(), open(sys.stdin.readline()).read())");
    expect(p).toMatchObject({ proven: true, reads: [{ path: 'a.json' }, { path: null }], imports: ['json', 'sys'] });
    expect(proveInlineCode('python', 'import os; print(os.environ)')).toMatchObject({ proven: true, wholeEnvironment: true });
  });
  it('does not prove what runs, writes, loads or reflects', () => {
    for (const code of [
      "import os; os.system('id')",
      "import subprocess; subprocess.run(['id'])",
      "open('out.txt','w').write('x')",
      "open('out.txt', mode='a')",
      "open('x', 'r', opener=print)",
      "__import__('os').system('id')",
      "eval('1')",
      "exec('print(1)')",
      "getattr(__builtins__, 'ev'+'al')('1')",
      "globals()['__builtins__']",
      'print(().__class__.__bases__[0].__subclasses__())',
      'print((x for x in []).gi_frame.f_globals)',
      "import importlib; importlib.import_module('os')",
      "import pickle; pickle.loads(b'')",
      "import json; json.codecs.open('x', 'w')",
      "import os.path as p; p.os.system('id')",
      "import sys; sys.modules['os'].system('id')",
      'from os import system',
      "import os; print(os.environ['GITHUB_TOKEN'])",
      "import os; print(os.getenv('AWS_SECRET_ACCESS_KEY'))",
      "print(eval=1) if 0 else eval('1')", // a keyword argument does not make `eval` a variable
      "x = open; x('f', 'w')",
      'print(f\'{__import__("os")}\')',
      "ｅｖａｌ('1')", // NFKC folds fullwidth letters to `eval`
      "import json\neval('1')",
      'help()',
      "compile('1', 'f', 'exec')",
      "import os as sorted; sorted.remove('x')", // an import may not take a builtin's name
      "from os import path as print; print.os.system('id')",
      "import sys; sys.path.insert(0, '/tmp/x'); import json",
    ])
      expect(proven('python', code), code).toBe(false);
  });
});

describe('Python: codec lookups and the raw text', () => {
  it('checks every encoding and error handler the code names: a codec lookup imports a module by that name', () => {
    for (const code of [
      "print('x'.encode())",
      "print('x'.encode('utf-8'), b'x'.decode('UTF8', 'replace'))",
      "print(str(b'x', 'ascii'), bytes('x', encoding='latin-1'))",
      "import hashlib; print(hashlib.sha256('x'.encode('utf-8')).hexdigest())",
      "print(open('a.txt', encoding='utf-8', errors='ignore').read())",
      "import base64; print(base64.b64decode('eA==').decode())",
    ])
      expect(proven('python', code), code).toBe(true);
    for (const code of [
      "print('x'.encode('idna'))", // imports encodings.idna, which imports stringprep
      "print(b'eA=='.decode('base64'))",
      "print(b'x'.decode('rot13'))",
      "print(str(b'x', 'punycode'))",
      "print(bytes('x', encoding='uu'))",
      "print(open('a.txt', encoding='idna').read())",
      "print(open('a.txt', 'r', -1, 'idna').read())",
      "print('x'.encode('utf-8', 'namereplace'))", // imports unicodedata
      "e = 'idna'; print('x'.encode(e))",
      "f = 'x'.encode; print(f('idna'))",
      "import os; print(os.sep.encode('idna'))",
    ])
      expect(proven('python', code), code).toBe(false);
  });
  it('never proves input(): Python 2, which `python` may be, evaluates what it reads', () => {
    expect(proven('python', 'print(input())')).toBe(false);
  });
  it('refuses a guarded word the tokenizer took for text: a carriage return ends a comment', () => {
    expect(proven('python', "#x\rprint(open('f','w'))")).toBe(false);
    expect(proven('python', '#x\rimport shutil')).toBe(false);
    expect(proven('python', 'print(1) #x\rprint(1)')).toBe(true);
    // Whatever the tokenizer decides, these words may stand only where it read code.
    for (const code of [
      "print('import os')",
      "print('__class__')",
      "print('x') # exec",
      "import json; print('json.codecs')",
      "import os.path as p; print('p')",
      "print('(x for x in []).gi_frame.f_builtins')",
      "print('ｅｖａｌ')",
    ])
      expect(proven('python', code), code).toBe(false);
    // A module's name after a dot is a file's extension or an attribute, not the module.
    expect(proven('python', "import json; print(json.load(open('package.json'))['name'])")).toBe(true);
  });
});

describe('JavaScript one-liners', () => {
  it('proves code that only computes, reads literal files and prints', () => {
    for (const code of [
      'console.log(require("./package.json").version)',
      "Object.keys(require('./package.json').dependencies || {}).join('\\n')",
      'process.versions',
      "console.log(JSON.stringify(JSON.parse(require('fs').readFileSync('tsconfig.json','utf8')).compilerOptions,null,2))",
      "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).name))",
      'process.env.NODE_ENV',
      "const fs = require('fs'); for (const f of fs.readdirSync('src')) console.log(f)",
      'console.log(`v=${process.version}`)',
      'const {a, b: [c]} = {a: 1, b: [2]}; console.log(a + c)',
      // a string is data; a field of parsed JSON is data even where a built-in has a getter of its name
      "const k = 'constructor'; console.log(k)",
      "const p = require('./package.json'); console.log(p.type, p.description, p.scripts.test)",
      'const {a: e} = {a: 1}; console.log({constructor: 1, end: e})',
    ])
      expect(proven('node', code), code).toBe(true);
  });
  it('does not prove what runs, writes, loads or reaches the Function constructor', () => {
    for (const code of [
      "require('child_process').execSync('id')",
      "require('child'+'_process')",
      "require('./src/index.js')",
      "require('fs').writeFileSync('x', '')",
      "const fs = require('fs'); fs.unlinkSync('x')",
      "const f = require('fs'); const g = f; g.rmSync('x')",
      "for (;;) { fs.writeFileSync('x', ''); var fs = require('fs') }",
      "global['proc'+'ess'].exit()",
      'globalThis.process',
      "this.constructor.constructor('return process')()",
      "''.sub.constructor('return 1')()",
      "const {constructor: F} = x => 0; F('return 1')()",
      "x => x['const' + 'ructor']",
      "const {[k]: F} = ''",
      // a member of a computed value is a method only when listed: the rest of the built-ins' are refused
      "process.stdin.connect(80, 'attacker.example')",
      'const s = process.stdin; s.pipe(process.stdout)',
      'const c = (x => 0).constructor; [1].map(c)',
      '[1].forEach((x => 0).call)',
      'const {call} = x => 0',
      "console.log(''.sub.name)",
      "(Function) => 0; Function('return 1')()",
      "eval('1')",
      "new Function('return 1')()",
      "process.binding('spawn_sync')",
      "process.mainModule.require('child_process')",
      '`${process.mainModule}`',
      "import('child_process')",
      'process.env.GITHUB_TOKEN',
      "process.env['AWS_SECRET_ACCESS_KEY']",
      "\\u0065val('1')", // an escape in a name
      'String.raw`x`',
      "fetch('https://example.com')",
      'setTimeout(() => 0)',
    ])
      expect(proven('node', code), code).toBe(false);
  });
  it('reads the whole environment as a dump', () => {
    expect(proveInlineCode('node', 'process.env')).toMatchObject({ proven: true, wholeEnvironment: true });
  });
});

describe('Perl one-liners', () => {
  it('proves the closed forms: print if a match, substitute, sum fields, print', () => {
    for (const code of [
      'print if /TODO/',
      'print unless /^#/',
      '$t += $F[6]; print $t/1024/1024/1024 . " GB"',
      '$sum+=$F[1];END{print "$sum\\n"}',
      's/((:\\S*){3}):\\S*/$1/g',
      'BEGIN { $n = 0 } $n++; END { printf "%d\\n", $n }',
      'print if m/regex1/ and m/regex2/i',
      'print $1 if /(0x[\\da-f]+)/ig;',
      'tr/a-z/A-Z/',
      'chomp; print "$_ "; END{print "\\n"}',
      's/((?<!x)(?:yy)*)z/$1/g',
      '0',
      'print $F[0], $F[2] if $F[1] > 100',
      'print "$. $_" if $_ =~ /x/',
    ])
      expect(provePerl(code).proven, code).toBe(true);
    expect(provePerl('local $/; my $j = decode_json(<STDIN>); print $j->{name}, "\\n"', ['JSON::PP']).proven).toBe(true);
    expect(provePerl('print sum(@F)', ['List::Util']).proven).toBe(true);
    expect(provePerl('my $j = decode_json(<STDIN>)').proven).toBe(false); // not loaded: a call of a sub perl does not know
    expect(provePerl('print $j->{name}->method', ['JSON::PP']).proven).toBe(false);
  });
  it('does not prove what runs, opens, loads, or changes what <> opens', () => {
    for (const code of [
      'system("id")',
      'exec "id"',
      'print `id`',
      'print qx(id)',
      'print "@{[ system 1 ]}"',
      'print "${\\ system 1}"',
      'print "$h{system 1}"',
      'print "$x[system 1]"',
      's/x/system 1/e',
      's/x/system 1/ee',
      's/x/@{[system 1]}/',
      'print if /(?{ system 1 })/',
      'print if /(??{ system 1 })/',
      'print if /$x/',
      'print if /\\N{U+41}/',
      'open(F, ">x")',
      'unlink "x"',
      'do "x.pl"',
      'eval "1"',
      '@ARGV = (">x")',
      'BEGIN { $^I = "" }',
      'print <*.c>',
      'print $ENV{GITHUB_TOKEN}',
      'print <<EOF\nx\nEOF',
      'sub f { 1 } f()',
      'time /1;system 1;#/', // a division to perl, a regex to a hand tokenizer
      'print $t /1;system 1;#/', // perl takes $t for a filehandle and /1;…/ for a pattern
      'print $. /1;system 1;#/',
      'printf $t /1;system 1;#/',
      '$x = 1\n=pod\n\n=cut\nsystem 1',
      'print 1.2.3',
      'print if /(?<n>x)/',
      'chomp $x',
      'local $/ = <STDIN>',
      'print $j->{x}{y}',
      'print $j->{system 1}',
      'print "$x::y"',
      "print 'system 1' # unlink",
    ])
      expect(provePerl(code).proven, code).toBe(false);
  });
});

describe('PHP one-liners', () => {
  it('are never proven: PHP has no prover (a hand tokenizer cannot tell code from data)', () => {
    for (const code of ['echo 1;', 'echo getenv("HOME");', 'system("id");']) expect(proven('php', code), code).toBe(false);
  });
});

describe('a rejected construct anywhere keeps a proven program unproven', () => {
  const safe: Record<string, string[]> = {
    python: ['print(1)', 'x = [1, 2]', "print(len('abc'))", 'import sys', 'y = sorted(x)'],
    node: ['console.log(1)', 'const x = [1, 2]', "console.log('abc'.length)", 'let y = x.map(v => v * 2)'],
    perl: ['print 1', '$x = 2', 'print "abc"', '$y += $F[1]'],
  };
  const bad: Record<string, string[]> = {
    python: ["__import__('os').system('id')", "eval('1')", "open('f', 'w')", "getattr(x, 'sys' + 'tem')", 'globals()'],
    node: ["require('child_process')", "eval('1')", "x['constr' + 'uctor']", 'this.constructor', "require('fs').writeFileSync('f', '')"],
    perl: ['system 1', '`id`', 'open F, ">f"', 'unlink "f"', '@ARGV = 1'],
  };
  const sep: Record<string, string> = { python: '; ', node: '; ', perl: '; ' };
  it('for every language, at every position', () => {
    for (const family of Object.keys(safe)) {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...safe[family]), { maxLength: 4 }), fc.constantFrom(...bad[family]), fc.nat(4), (stmts, evil, at) => {
          const program = [...stmts.slice(0, at), evil, ...stmts.slice(at)].join(sep[family]);
          return !proven(family, program);
        }),
        { numRuns: 200 },
      );
    }
  });
  it('but only when it is code: inside a string or a comment it is data', () => {
    expect(proven('python', "print('os.system(1)')  # rm -rf /")).toBe(true);
    // Python's own guarded words are the exception: the raw text may hold them only as code (python-raw.ts).
    expect(proven('python', "print('x')  # eval('x')")).toBe(false);
    expect(proven('node', 'console.log(\'require("child_process")\') // eval(1)')).toBe(true);
    expect(proven('perl', "print 'system 1'")).toBe(true);
  });
});
