/** printedText against real bash: what echo and printf print, or null where it does not model them. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { filteredText, printedText } from '../../src/walk/printed-text.js';
import { check } from '../helpers/analyzer.js';
import type { Arg } from '../../src/index.js';

const quote = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;
const bash = (program: string, words: string[]) => execFileSync('bash', ['-c', [program, ...words.map(quote)].join(' ')], { encoding: 'utf8' });

describe('printed text of echo and printf', () => {
  const cases: [string, string[]][] = [
    ['echo', ['rm', '-rf', '~']],
    ['echo', []],
    ['printf', ['rm -rf ~\\n']],
    ['printf', ['%s\\n', 'rm -f x']],
    ['printf', ['%s %s\\n', 'a', 'b', 'c']],
    ['printf', ['%s;', 'a', 'b']],
    ['printf', ['100%% %s\\n', 'x']],
    ['printf', ['a\\tb\\\\c %s\\n']],
    ['printf', ['no conversion\\n', 'ignored']],
  ];
  for (const [program, words] of cases) {
    it(`${program} ${words.join(' ')}`, () => {
      expect(printedText(program, words)).toBe(bash(program, words));
    });
  }

  it('gives up where it does not model printf or echo exactly', () => {
    expect(printedText('printf', ['%d\\n', '5'])).toBeNull();
    expect(printedText('printf', ['%s\\x41', 'a'])).toBeNull();
    expect(printedText('echo', ['-e', 'a\\nb'])).toBeNull();
    expect(printedText('cat', ['x'])).toBeNull();
  });
});

describe('text followed through filters, against the real programs', () => {
  const args = (...v: string[]): Arg[] => v.map((value) => ({ value, dynamic: false, glob: false, span: { start: 0, end: 0 } }));
  const run = (program: string, words: string[], input: string) => execFileSync(program, words, { encoding: 'utf8', input });
  const text = 'sm -sf ~\nls\n';
  const exact: [string, string[]][] = [
    ['cat', []],
    ['cat', ['-u', '-']],
    ['tee', ['-a', '/dev/null']],
    ['head', []],
    ['head', ['-n', '2']],
    ['tail', ['-2']],
    ['tail', ['--lines=5']],
    ['tr', ['s', 'r']],
    ['tr', ['sm', 'r']],
    ['tr', ['~', 'x']],
  ];
  for (const [program, words] of exact) {
    it(`${program} ${words.join(' ')}`, () => {
      expect(filteredText(program, args(...words), text)).toBe(run(program, words, text));
    });
  }
  it('is unknown where the output is a part of the text or changed otherwise', () => {
    expect(filteredText('tail', args('-n', '1'), text)).toBeNull();
    expect(filteredText('head', args('-c', '3'), text)).toBeNull();
    expect(filteredText('cat', args('-v'), text)).toBeNull();
    expect(filteredText('tr', args('a-z', 'A-Z'), text)).toBeNull();
    expect(filteredText('tr', args('-d', 's'), text)).toBeNull();
    expect(filteredText('sed', args('s/s/r/'), text)).toBeNull();
  });
  it('follows the text into the shell at the end of the pipeline', async () => {
    expect((await check("echo 'sm -sf ~' | tr s r | sh")).level).toBe('deny');
    expect((await check("echo 'rm -rf ~' | cat | tee /dev/null | bash")).level).toBe('deny');
    expect((await check("echo 'ls' | cat | sh")).level).toBe('allow');
    expect((await check("printf 'cat <<E\\nrm -rf ~\\nE\\n' | tail -n 2 | sh")).level).toBe('ask');
    expect((await check('echo x | sed s/x/rm/ | sh')).level).toBe('ask');
  });
});
