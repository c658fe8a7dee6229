/**
 * Command knowledge: every spec file loads and is well formed, bad specs fail with a message that
 * names file, program and field, and the programs agents run most often are all known.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSpecs, lazySpecDir, loadSpecDir, PROGRAMS_DIR, programOfFile, specFileName } from '../../src/programs/load-specs.js';
import { createAnalyzer } from '../../src/index.js';
import { PROGRAM_HANDLERS } from '../../src/ops/program-handlers.js';
import { registry } from '../../src/programs/registry.js';
import { analyzer, check, CONTEXT, ops, rules } from '../helpers/analyzer.js';
import type { CommandSpec, SpecExample } from '../../src/programs/spec-types.js';
import { nl2bash, tldr } from '../helpers/shared-corpus.js';

function specDir(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-specs-'));
  writeFileSync(join(dir, 'x.json'), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

describe('command specs', () => {
  it('all built-in specs load and pass the checks (they are read lazily at run time)', () => {
    const specs = defaultSpecs();
    expect(specs.programs().length).toBeGreaterThan(300);
    for (const p of specs.programs()) expect(specs.get(p), p).toBeDefined();
    expect(specs.get('no-such-program')).toBeUndefined();
  });

  it('one file per built-in program, named by the program (the file name is the index)', () => {
    const files = readdirSync(PROGRAMS_DIR).filter((f) => f.endsWith('.json'));
    // A `tagsOnly` file names a program the lists know but the specs do not describe (fetch, sg).
    const specFiles = files.filter((f) => JSON.parse(readFileSync(join(PROGRAMS_DIR, f), 'utf8')).tagsOnly !== true);
    expect(specFiles.length).toBe(defaultSpecs().programs().length);
    for (const f of files) expect(specFileName(programOfFile(f)!)).toBe(f);
    for (const p of ['[', ':', '.', '..', 'c++', 'python3.12', 'a/b']) expect(programOfFile(specFileName(p))).toBe(p);
    expect(specFileName('.')).toBe('%2E.json');
    expect(specFileName('a/b')).not.toContain('/');
  });

  it('a lazily read folder fails clearly on a bad file, and only when its program is met', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-specs-'));
    writeFileSync(join(dir, 'cat.json'), JSON.stringify({ $schema: 'x', summary: 'x', class: 'read-only' }));
    writeFileSync(join(dir, 'dog.json'), JSON.stringify({ summary: 'x', class: 'readonly' }));
    writeFileSync(join(dir, 'kitty.json'), JSON.stringify({ alias: 'nothing' }));
    writeFileSync(join(dir, 'pup.json'), '{ not json');
    const specs = lazySpecDir(dir);
    expect(specs.get('cat')?.class).toBe('read-only');
    expect(specs.fileOf?.('cat')).toBe(join(dir, 'cat.json'));
    expect(() => specs.get('dog')).toThrow(/dog\.json: program "dog": field "class"/);
    expect(() => specs.get('kitty')).toThrow(/alias "nothing" names no program/);
    expect(() => specs.get('pup')).toThrow(/pup\.json: not valid JSON/);
    expect(() => lazySpecDir(join(dir, 'missing'))).toThrow(/cannot read the spec folder \(ENOENT\)/);
  });

  it('a user folder may hold one program per file, as the built-ins do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-specs-'));
    writeFileSync(join(dir, 'frob.json'), JSON.stringify({ summary: 'f', class: 'read-only', operands: ['read'] }));
    writeFileSync(join(dir, 'frobnicate.json'), JSON.stringify({ alias: 'frob' }));
    const specs = loadSpecDir(dir);
    expect(specs.get('frobnicate')).toBe(specs.get('frob'));
    const a = await createAnalyzer({ commandSpecDirs: [dir], cacheSize: 0 });
    expect(a.analyze('frobnicate README.md', CONTEXT).level).toBe('allow');
  });

  it("a subcommand with inheritOptions accepts its parent's options, its own entries winning", () => {
    const specs = loadSpecDir(
      specDir({
        tool: {
          summary: 'x',
          class: 'read-only',
          options: { '--out': { value: true, role: 'write', class: 'mutating' }, '-q': {} },
          subcommands: {
            run: { summary: 'r', class: 'read-only', inheritOptions: true, options: { '-q': { value: true } } },
            list: { summary: 'l', class: 'read-only' },
          },
        },
      }),
    );
    const subs = specs.get('tool')!.subcommands!;
    expect(subs.run.options).toEqual({ '--out': { value: true, role: 'write', class: 'mutating' }, '-q': { value: true } });
    expect(subs.list.options).toBeUndefined();
    expect(() => loadSpecDir(specDir({ tool: { summary: 'x', class: 'read-only', inheritOptions: true } }))).toThrow(
      /inheritOptions.*only applies to a subcommand/,
    );
  });

  it('an option written as one word loads as the object it stands for', () => {
    const specs = loadSpecDir(
      specDir({
        tool: {
          summary: 'x',
          class: 'read-only',
          options: { '-a': 'flag', '-I': 'value', '--color': 'value?', '-o': { value: true, role: 'write' } },
          subcommands: { run: { summary: 'r', class: 'read-only', inheritOptions: true, options: { '-a': 'value' } } },
        },
      }),
    );
    const tool = specs.get('tool')!;
    expect(tool.options).toEqual({ '-a': {}, '-I': { value: true }, '--color': { value: 'optional' }, '-o': { value: true, role: 'write' } });
    expect(tool.subcommands!.run.options!['-a']).toEqual({ value: true });
    expect(tool.options!['-a']).toEqual({});
  });

  it('user spec folders override built-in programs and add new ones', async () => {
    const dir = specDir({ cat: { summary: 'mine', class: 'mutating' }, frob: { summary: 'f', class: 'read-only' } });
    const a = await createAnalyzer({ commandSpecDirs: [dir], cacheSize: 0 });
    expect(a.analyze('frob x', CONTEXT).findings.map((f) => f.rule)).not.toContain('unknown-command');
    expect(a.analyze('cat README.md', CONTEXT).level).not.toBe('allow');
    expect((await analyzer()).analyze('cat README.md', CONTEXT).level).toBe('allow');
  });

  it('reject a bad spec naming file, program and field', () => {
    expect(() => loadSpecDir(specDir({ cat: { summary: 'x', class: 'readonly' } }))).toThrow(/x\.json: program "cat": field "class"/);
    expect(() => loadSpecDir(specDir({ cat: { summary: 'x', class: 'read-only', operands: ['reed'] } }))).toThrow(/field "operands"/);
    expect(() => loadSpecDir(specDir({ cat: { summary: 'x', class: 'read-only', options: { o: {} } } }))).toThrow(/option "o"/);
    expect(() => loadSpecDir(specDir({ kitty: { alias: 'nothing' } }))).toThrow(/alias "nothing" names no program/);
    expect(() => loadSpecDir(specDir('{ not json'))).toThrow(/not valid JSON/);
  });

  it('reject bad values of source, complete, optionSyntax, values, reads, examples and unknown fields', () => {
    const bad = (spec: object) => () => loadSpecDir(specDir({ cat: { summary: 'x', class: 'read-only', ...spec } }));
    expect(bad({ source: '' })).toThrow(/field "source"/);
    expect(bad({ complete: 'GNU cat 9.1 (cat --help)' })).toThrow(/field "complete" must be true or false \(the documentation goes in "source"\)/);
    expect(bad({ complete: true })).toThrow(/field "complete" needs a "source"/);
    expect(bad({ operand: ['read'] })).toThrow(/field "operand" is not a field of a spec/);
    expect(bad({ options: { '-x': 'value!' } })).toThrow(/option "-x": field "\(spec\)" must be an object or one of "flag", "value", "value\?"/);
    expect(bad({ options: { '-x': { valu: true } } })).toThrow(/option "-x": field "valu" is not a field of an option/);
    expect(bad({ optionSyntax: 'posix' })).toThrow(/field "optionSyntax"/);
    expect(bad({ options: { '--raw': { values: ['text'] } } })).toThrow(/field "values"/);
    expect(bad({ reads: ['relative/path'] })).toThrow(/field "reads"/);
    expect(bad({ examples: [{ command: 'cat x' }] })).toThrow(/example 1: field "level"/);
    expect(bad({ options: { '-i': { value: 'maybe' } } })).toThrow(/field "value"/);
  });

  it('every example of every spec holds (its level, operations and findings)', async () => {
    const specs = defaultSpecs();
    const examples: { where: string; root: CommandSpec; e: SpecExample }[] = [];
    const collect = (spec: CommandSpec, root: CommandSpec, where: string, seen: Set<CommandSpec>) => {
      if (seen.has(spec)) return; // aliases share one spec
      seen.add(spec);
      for (const e of spec.examples ?? []) examples.push({ where, root, e });
      for (const [name, sub] of Object.entries(spec.subcommands ?? {})) collect(sub, root, `${where} ${name}`, seen);
    };
    const seen = new Set<CommandSpec>();
    for (const p of specs.programs()) collect(specs.get(p)!, specs.get(p)!, p, seen);
    expect(examples.length).toBeGreaterThan(50);
    for (const { where, root, e } of examples) {
      const v = await check(e.command);
      const why = `${where}: ${e.command} → ${JSON.stringify(v.findings.map((f) => `${f.level} ${f.rule}`))}`;
      // The example uses the program (or one of its aliases) it documents.
      expect(
        v.commands.some((c) => c.program !== null && specs.get(c.program) === root),
        why,
      ).toBe(true);
      expect(v.level, why).toBe(e.level);
      if (e.ops) expect(new Set(ops(v)), why).toEqual(new Set(e.ops));
      if (e.rules) expect(rules(v), why).toEqual(expect.arrayContaining(e.rules));
    }
  });

  it('a source names the documentation and version, with the commands that show it', () => {
    const specs = defaultSpecs();
    const walk = (spec: CommandSpec, where: string): string[] => [
      ...(spec.source !== undefined && !/\d.*\([^()]+\)\s*$/.test(spec.source) ? [`${where}: ${spec.source}`] : []),
      ...Object.entries(spec.subcommands ?? {}).flatMap(([n, s]) => walk(s, `${where} ${n}`)),
    ];
    const bad = specs.programs().flatMap((p) => walk(specs.get(p)!, p));
    expect(bad).toEqual([]);
  });

  it('in a complete table an option it does not list asks, whatever the program', async () => {
    const specs = defaultSpecs();
    const a = await analyzer();
    const asked: string[] = [];
    for (const p of specs.programs()) {
      const s = specs.get(p)!;
      if (s.complete !== true || s.optionSyntax === 'none' || s.optionSyntax === 'echo' || !/^[a-z][\w.-]*$/.test(p)) continue;
      const v = a.analyze(`${p} --shellgate-no-such-option`, CONTEXT);
      if (!v.findings.some((f) => f.rule === 'unknown-option')) asked.push(p);
    }
    expect(asked).toEqual([]);
  });

  it('know the 150 programs run most often in NL2Bash and tldr', async () => {
    const a = await analyzer();
    const counts = new Map<string, number>();
    const lines = [...nl2bash(), ...tldr().map((t) => t.command)];
    for (const line of lines) {
      for (const c of a.analyze(line, CONTEXT).commands) {
        if (!c.program || c.calls || !/^[A-Za-z0-9._+-]+$/.test(c.program)) continue;
        counts.set(c.program, (counts.get(c.program) ?? 0) + 1);
      }
    }
    const top = [...counts]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 150)
      .map(([p]) => p);
    const specs = defaultSpecs();
    const known = (p: string) =>
      specs.has(p) || p in PROGRAM_HANDLERS || registry.has(p, 'wrapper') || registry.has(p, 'shell') || ['source', '.', 'alias'].includes(p);
    expect(top.filter((p) => !known(p))).toEqual([]);
  });
});
