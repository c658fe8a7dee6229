/**
 * Metamorphic: the same command written into every kind of file the linter reads (a script line, a
 * workflow `run:` block, a GitLab script item, a Makefile recipe with `$` written `$$`, a
 * package.json script with JSON escapes) gives the same findings, each at the file position of the
 * same command character. Every guard rule's deny examples are the commands; a difference is a
 * mapping or extraction bug in one kind.
 */
import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../src/index.js';
import { lintText } from '../../src/lint/lint-file.js';
import { kindOf } from '../../src/lint/sources/index.js';

const ROOT = '/ws/project';

/** A file holding `c`, and where each character of `c` lands in it (1-based line and column). */
interface Embedding {
  path: string;
  file: (c: string) => string;
  at: (c: string, i: number) => { line: number; column: number };
}

const dollarsBefore = (c: string, i: number) => [...c.slice(0, i)].filter((ch) => ch === '$').length;
const jsonWidthBefore = (c: string, i: number) => [...c.slice(0, i)].reduce((w, ch) => w + JSON.stringify(ch).length - 2, 0);

const KINDS: Record<string, Embedding> = {
  'shell script': { path: 'run.sh', file: (c) => `${c}\n`, at: (_c, i) => ({ line: 1, column: i + 1 }) },
  'GitHub workflow': {
    path: '.github/workflows/ci.yml',
    file: (c) => `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          ${c}\n`,
    at: (_c, i) => ({ line: 7, column: 11 + i }),
  },
  'GitLab CI': { path: '.gitlab-ci.yml', file: (c) => `job:\n  script:\n    - |\n      ${c}\n`, at: (_c, i) => ({ line: 4, column: 7 + i }) },
  Makefile: { path: 'Makefile', file: (c) => `all:\n\t${c.replace(/\$/g, '$$$$')}\n`, at: (c, i) => ({ line: 2, column: 2 + i + dollarsBefore(c, i) }) },
  'package.json': {
    path: 'package.json',
    file: (c) => `{"scripts": {"go": ${JSON.stringify(c)}}}\n`,
    at: (c, i) => ({ line: 1, column: 21 + jsonWidthBefore(c, i) }),
  },
};

const analyzer = await createAnalyzer();
// Commands each kind can hold as written: one line, no template syntax of a CI system.
const commands = [
  ...new Set(
    analyzer.rules
      .filter((r) => r.builtin && r.level === 'deny')
      .flatMap((r) => r.examples.match)
      .filter((c) => !/[\n\r]|\$\{\{|\$\[\[/.test(c) && !/^\s|\s$/.test(c)),
  ),
];

function findings(e: Embedding, c: string): string[] {
  const text = e.file(c);
  const kind = kindOf(e.path, text)!;
  const r = lintText(analyzer, kind, text, e.path, `${ROOT}/${e.path}`, { root: ROOT });
  return r.findings.filter((f) => f.level === 'deny').map((f) => `${f.rule}@${f.line}:${f.column}`);
}

describe('one command in every kind of file', () => {
  it('has hundreds of commands to try', () => {
    expect(commands.length).toBeGreaterThan(300);
    // And they are denied as scripts: the comparison below is not between empty lists.
    const denied = commands.filter((c) => findings(KINDS['shell script']!, c).length > 0).length;
    expect(denied / commands.length).toBeGreaterThan(0.9);
  });

  it.each(Object.entries(KINDS).filter(([k]) => k !== 'shell script'))('%s: the same denies at the same command characters', (_name, kind) => {
    const script = KINDS['shell script']!;
    const differences: string[] = [];
    for (const c of commands) {
      // Where a script's finding starts, as a character index of the command, moved into this kind.
      const expected = findings(script, c).map((s) => {
        const [rule, pos] = s.split('@') as [string, string];
        const i = Number(pos.split(':')[1]) - 1;
        const p = kind.at(c, i);
        return `${rule}@${p.line}:${p.column}`;
      });
      const got = findings(kind, c);
      if (JSON.stringify([...expected].sort()) !== JSON.stringify([...got].sort()))
        differences.push(`${c}\n    script: ${expected.join(' ')}\n    here:   ${got.join(' ')}`);
    }
    expect(differences.slice(0, 10).join('\n')).toBe('');
  });
});
