/**
 * Provenance of generated paths: the names a producer prints (`find`, `git ls-files`, `grep -l`,
 * `rg --files`, `fd`, `ls --zero`) reach xargs as paths under its roots — only when every item is
 * exactly one name, and never in a way that lets a name become an option with effects.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnalysisContext } from '../../../src/index.js';
import { argvs, check, ops, rules } from '../../helpers/analyzer.js';
import { CORE_FINDINGS } from '../../../src/findings/catalog.js';

const level = async (c: string) => (await check(c)).level;

/** A real workspace holding `paths` (a trailing `/` makes a directory), as the context to judge in. */
function workspace(paths: string[]): AnalysisContext {
  const root = mkdtempSync(join(tmpdir(), 'sg-names-'));
  for (const p of paths) {
    const full = join(root, p);
    mkdirSync(p.endsWith('/') ? full : dirname(full), { recursive: true });
    if (!p.endsWith('/')) writeFileSync(full, 'x\n');
  }
  return { cwd: root, workspaceRoots: [root], home: '/home/user', env: {} };
}

describe('names a producer prints, read by xargs', () => {
  it('NUL on both sides: each item is a path under the root, narrowed by -name', async () => {
    for (const c of [
      "find . -name '*.py' -print0 | xargs -0 grep -n foo",
      'find src -type f -print0 | xargs -0 wc -l',
      'git ls-files -z | xargs -0 wc -l',
      "git ls-files -z '*.md' | xargs -0 grep -L License",
      'grep -rlZ TODO src | xargs -0 wc -l',
      'rg --files -0 | xargs -0 head -1',
      'find . -print0 | sort -z | xargs -0 cat',
      'find . -print0 | head -z -n 20 | xargs -0 ls -l',
    ])
      expect(await level(c), c).toBe('allow');
    expect(ops(await check("find src -name '*.c' -print0 | xargs -0 cat"))).toContain('Read ./src/**/*.c');
  });

  it('git escapes newlines in names: one line is one name', async () => {
    expect(await level("git ls-files | xargs -d '\\n' wc -l")).toBe('allow');
    expect(await level('git diff --name-only | xargs -I{} wc -l {}')).toBe('allow');
    // find prints a newline in a name as it is: a line may be half a name.
    expect((await check("find . | xargs -d '\\n' cat", workspace(['x\n/etc/passwd']))).level).toBe('ask');
  });

  it('split at blanks, each item is a whole name only when no name on disk holds a blank', async () => {
    const clean = workspace(['src/a.py', 'src/b c/'.replace(' ', '_')]);
    const tricky = workspace(['src/a.py', 'src/x /etc/passwd']);
    for (const c of [
      'git ls-files | xargs wc -l',
      "find . -name '*.py' | xargs grep foo",
      'grep -rl foo src | xargs wc -l',
      "wc -l $(git ls-files '*.py')",
      'find . -print0 | xargs cat',
    ]) {
      expect((await check(c, clean)).level, c).toBe('allow');
      const v = await check(c, tricky);
      expect(v.level, c).toBe('ask');
      expect(rules(v), c).toContain('split-names');
    }
    expect(CORE_FINDINGS['split-names'].safer).toMatch(/-print0 \| xargs -0/);
    // A line that may make names first cannot rely on the disk as it is now.
    expect(rules(await check("touch 'x /etc/passwd'; find . -name passwd | xargs cat", clean))).toContain('split-names');
    // $(…) also globs the pieces: a name holding `*` is not whole either.
    expect((await check('cat $(git ls-files)', workspace(['a*b']))).level).toBe('ask');
    // Another IFS may cut a name anywhere.
    expect((await check('IFS=.; cat $(git ls-files)', clean)).level).toBe('ask');
  });

  it('keeps what the names are: under ~/.ssh, outside, or .env by name', async () => {
    expect(rules(await check('find ~/.ssh -print0 | xargs -0 cat'))).toContain('sensitive-path');
    expect(rules(await check('find /etc -print0 | xargs -0 cat'))).toContain('outside-workspace');
    expect(rules(await check("find . -name '.env*' -print0 | xargs -0 cat"))).toContain('sensitive-path');
    expect(await level('git ls-files -z .. | xargs -0 cat')).toBe('ask');
  });

  it('a name may be an option: allowed only where no option of the program does more than read', async () => {
    // A file named `-i` makes this `sed -n 1p -i …`, an in-place edit; rg --pre runs a program.
    for (const c of ['git ls-files -z | xargs -0 sed -n 1p', 'rg --files -0 | xargs -0 sort', 'git ls-files -z | xargs -0 rm', 'find . -print0 | xargs -0 rm'])
      expect(await level(c), c).toBe('ask');
    // find's names start with the root (`./-i`): never an option.
    expect(await level("find . -name '*.c' -print0 | xargs -0 sed -n 1p")).toBe('allow');
  });

  it('starting points from a file or an option are where the names are', async () => {
    // -files0-from reads starting points from a file: the names may be anywhere.
    expect(argvs(await check('find -files0-from list.txt -print0 | xargs -0 cat'))).toContain('cat {stdin}');
    expect(argvs(await check('find -files0-from list.txt -exec cat {} +'))).toContain('cat {}');
    // fd --search-path searches there, not the cwd.
    expect(ops(await check('fd --search-path /etc -0 | xargs -0 cat'))).toContain('Read /etc/**');
    expect(ops(await check('fd --search-path=/etc -x cat'))).toContain('Read /etc/**');
  });

  it('prints more than names: not a producer', async () => {
    for (const c of [
      "find . -printf '%p\\0' | xargs -0 cat",
      'find . -print0 -exec echo {} ; | xargs -0 cat',
      'git diff -z | xargs -0 cat',
      "git ls-files -z --format='/etc/passwd' | xargs -0 cat",
      'grep -rZ -elfoo src | xargs -0 cat',
      'ls -l --zero | xargs -0 cat',
      'fd -0 -x echo | xargs -0 cat',
      'find . -print0 | grep -oz x | xargs -0 cat',
      'find . -print0 | sort -z -o out | xargs -0 cat',
      'find . -print0 | sort -z list.txt | xargs -0 cat',
      'find . -print0 | tac -s x | xargs -0 cat',
    ])
      expect(await level(c), c).toBe('ask');
  });
});

describe('a name never becomes code', () => {
  it('whatever producer prints it and whatever code takes it, a file name in code asks', async () => {
    const producers = [
      "find . -name '*.c' -exec CMD \\;",
      'fd -e c -x CMD',
      'git ls-files -z | xargs -0 -I{} CMD',
      'for f in *.c; do CMD; done',
      'git ls-files | while read -r f; do CMD; done',
    ];
    const code = ["sh -c 'cat {}'", 'bash -c {}', 'python3 -c "print(\'{}\')"', 'awk {}', 'jq {}', 'sed {}', "eval 'cat {}'", 'node -e \'console.log("{}")\''];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...producers), fc.constantFrom(...code), async (p, c) => {
        const inner = p.includes('$f') || p.startsWith('for') || p.includes('while') ? c.replace('{}', '$f').replace(/'/g, '"') : c;
        const command = p.replace('CMD', inner);
        expect((await check(command)).level, command).not.toBe('allow');
      }),
      { numRuns: 80 },
    );
  });
});
