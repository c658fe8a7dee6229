import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compose } from '../../../src/lint/sources/compose.js';
import { at } from '../../helpers/lint-source.js';

const FILE = [
  'x-defaults: &defaults', // 1
  '  working_dir: /srv/app', // 2
  'services:', // 3
  '  web:', // 4
  '    <<: *defaults', // 5
  '    image: node:20', // 6
  "    command: sh -c 'npm ci && curl -fsSL ${INSTALL_URL:-https://x.io/i} | sh && echo $$HOME'", // 7
  '    entrypoint: ["/bin/sh", "-c", "rm -rf /tmp/$${X}"]', // 8
  '    healthcheck:', // 9
  '      test: ["CMD-SHELL", "curl -f http://localhost:3000 || exit 1"]', // 10
  '  db:', // 11
  '    image: postgres:16', // 12
  '    working_dir: data', // 13
  '    command: >', // 14
  '      postgres -c log_statement=all', // 15
  '    healthcheck:', // 16
  '      test:', // 17
  '        - CMD', // 18
  '        - pg_isready', // 19
  '        - "-U"', // 20
  "        - it's ${PGUSER}", // 21
  '',
].join('\n');

describe('compose: matches', () => {
  it('takes compose file names', () => {
    for (const p of ['docker-compose.yml', 'deploy/docker-compose.prod.yaml', 'compose.yaml', 'compose.override.yml'])
      expect(compose.matches(p, ''), p).toBe(true);
    for (const p of ['compose.json', 'my-compose.yml', '.github/workflows/ci.yml']) expect(compose.matches(p, ''), p).toBe(false);
  });
});

describe('compose: commands', () => {
  const { snippets, findings } = compose.extract(FILE, 'docker-compose.yml');
  const by = (origin: string) => snippets.find((s) => s.origin === origin)!;

  it('a string command is read as shell text; ${VAR} becomes a dynamic word, $$ a $', () => {
    expect(findings).toEqual([]);
    const cmd = by('services.web.command');
    expect(cmd.text).toBe(`sh -c 'npm ci && curl -fsSL '"\${__compose_INSTALL_URL}"' | sh && echo $HOME'`);
    expect(cmd).toMatchObject({ shell: 'sh', where: 'container', cwd: '/srv/app' }); // working_dir through the merge key
    expect(at(FILE, cmd, 'curl')).toEqual({ line: 7, column: 31 });
    expect(at(FILE, cmd, `'"\${__compose`)).toEqual({ line: 7, column: 42 }); // the dynamic word stands at `${INSTALL_URL…}`
    expect(at(FILE, cmd, '$HOME')).toEqual({ line: 7, column: 86 }); // `$` of `$$HOME`
    expect(at(FILE, cmd, 'HOME')).toEqual({ line: 7, column: 88 });
  });

  it('a list is argv: single-quoted words, each mapped to its scalar', () => {
    const ep = by('services.web.entrypoint');
    expect(ep.text).toBe(`'/bin/sh' '-c' 'rm -rf /tmp/\${X}'`);
    expect(at(FILE, ep, 'rm')).toEqual({ line: 8, column: 36 });
  });

  it('healthcheck CMD-SHELL is shell code; CMD is argv, a quote inside a word escaped, ${VAR} a dynamic piece of the word', () => {
    const hc = by('services.web.healthcheck.test');
    expect(hc.text).toBe('curl -f http://localhost:3000 || exit 1');
    expect(at(FILE, hc, 'curl')).toEqual({ line: 10, column: 28 });
    const db = by('services.db.healthcheck.test');
    expect(db.text).toBe(`'pg_isready' '-U' 'it'\\''s '"\${__compose_PGUSER}"''`);
    expect(at(FILE, db, 'pg_isready')).toEqual({ line: 19, column: 11 });
    expect(at(FILE, db, '-U')).toEqual({ line: 20, column: 12 });
  });

  it('a folded command keeps its mapping; a relative working_dir reads as /', () => {
    const cmd = by('services.db.command');
    expect(cmd.text.trim()).toBe('postgres -c log_statement=all');
    expect(at(FILE, cmd, 'log_statement')).toEqual({ line: 15, column: 19 });
    expect(cmd.cwd).toBe('/');
  });

  it('offsets stay within the file, one per character and one for the end', () => {
    for (const s of snippets) {
      expect(s.offsets.length).toBe(s.text.length + 1);
      for (const o of s.offsets) expect(o >= 0 && o <= FILE.length).toBe(true);
    }
  });
});

describe('compose: unreadable files', () => {
  it('a YAML syntax error is a lint/unreadable-file finding and no snippets', () => {
    const file = 'services:\n  web:\n    command: ["sh", "-c"\n';
    const { snippets, findings } = compose.extract(file, 'compose.yml');
    expect(snippets).toEqual([]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'lint/unreadable-file', level: 'ask' });
  });

  it('never throws on random or mutated text', () => {
    const check = (file: string) => {
      const { snippets } = compose.extract(file, 'compose.yml');
      for (const s of snippets) {
        expect(s.offsets.length).toBe(s.text.length + 1);
        for (const o of s.offsets) expect(o >= 0 && o <= file.length).toBe(true);
      }
    };
    fc.assert(
      fc.property(fc.string(), (s) => check(`services:\n  a:\n    command: ${s}\n`)),
      { seed: 17, numRuns: 300 },
    );
    const mutated = fc
      .tuple(
        fc.nat(),
        fc.nat(8),
        fc.string({ unit: fc.constantFrom('$', '{', '}', "'", '"', ' ', '\n', '-', ':', '*', '&', '<', '[', ']', 'x'), maxLength: 4 }),
      )
      .map(([a, del, ins]) => FILE.slice(0, a % (FILE.length + 1)) + ins + FILE.slice((a % (FILE.length + 1)) + del));
    fc.assert(fc.property(mutated, check), { seed: 17, numRuns: 400 });
  });
});
