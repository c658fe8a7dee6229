/** printedText against real bash: what echo and printf print, or null where it does not model them. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { printedText } from '../../src/walk/printed-text.js';

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
