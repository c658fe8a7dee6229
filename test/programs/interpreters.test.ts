/** Inline code is spec data: an option whose value has the role `code` (with its language). */
import { describe, expect, it } from 'vitest';
import { codeOptions, inlineCode } from '../../src/programs/interpreters.js';
import { defaultSpecs } from '../../src/programs/load-specs.js';

const args = (...v: string[]) => v.map((value) => ({ value }));

describe('inline-code options from the specs', () => {
  it('reads each family’s code options from its spec', () => {
    expect(codeOptions('python')).toEqual(['-c']);
    expect(codeOptions('node')).toEqual(['-e', '--eval', '-p', '--print']);
    expect(codeOptions('deno')).toEqual(['eval']);
    expect(codeOptions('tclsh')).toEqual([]);
  });
  it('gives every code option a language', () => {
    const specs = defaultSpecs();
    for (const program of ['python', 'perl', 'ruby', 'node', 'bun', 'php', 'lua', 'osascript', 'pwsh', 'Rscript']) {
      const code = Object.entries(specs.get(program)?.options ?? {}).filter(([, o]) => o.role === 'code');
      expect(code.length, program).toBeGreaterThan(0);
      for (const [name, o] of code) expect(o.language, `${program} ${name}`).toMatch(/^[a-z]+$/);
    }
  });
  it('takes the code after the option, attached to it, or after =', () => {
    expect(inlineCode('python3', args('-c', 'print(1)'), null)).toBe('print(1)');
    expect(inlineCode('python3', args('-cprint(1)'), null)).toBe('print(1)');
    expect(inlineCode('node', args('--eval=1+1'), null)).toBe('1+1');
    expect(inlineCode('perl', args('-ne', 'print'), null)).toBe('print');
    expect(inlineCode('deno', args('eval', 'Deno.exit()'), null)).toBe('Deno.exit()');
  });
  it('reads pwsh options in any case, and a code option is never code itself', () => {
    expect(inlineCode('pwsh', args('-Command', 'Get-Item x'), null)).toBe('Get-Item x');
    expect(inlineCode('pwsh', args('-ec', 'ZQBjAGgAbwA='), null)).toBe('ZQBjAGgAbwA=');
  });
});
