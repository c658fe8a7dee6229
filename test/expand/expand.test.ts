import { describe, expect, it } from 'vitest';
import { decodeAnsiC } from '../../src/syntax/ansi-c.js';
import { expandBrace } from '../../src/expand/braces.js';
import { expandWord, type ExpandScope } from '../../src/expand/word.js';
import { BashParser } from '../../src/syntax/tree-sitter/parser.js';
import type { SimpleCommand } from '../../src/syntax/ast.js';

const parser = await BashParser.create();
const scope: ExpandScope = {
  home: '/home/u',
  env: { USER: 'u', SPACED: 'a b  c' },
  vars: new Map([
    ['X', '/tmp'],
    ['UNK', null],
  ]),
};

/** Expand the words of a one-command script. */
function fields(src: string): { fields: string[]; dynamic: boolean; glob: boolean }[] {
  const cmd = parser.parse(src).script.body.items[0] as SimpleCommand;
  return cmd.words.map((w) => {
    const e = expandWord(w, scope);
    return { fields: e.fields, dynamic: e.dynamic, glob: e.glob };
  });
}
const values = (src: string) => fields(src).flatMap((f) => f.fields);

describe('ANSI-C quoting', () => {
  it('decodes escapes as bash does', () => {
    expect(decodeAnsiC("$'\\x72\\x6d'")).toBe('rm');
    expect(decodeAnsiC("$'a\\tb\\n'")).toBe('a\tb\n');
    expect(decodeAnsiC("$'\\162\\155'")).toBe('rm');
    expect(decodeAnsiC("$'\\u00e9'")).toBe('é');
    expect(decodeAnsiC("$'\\cA'")).toBe('\x01');
    expect(decodeAnsiC("$'it\\'s'")).toBe("it's");
  });
  it('stops at a NUL like bash', () => {
    expect(decodeAnsiC("$'ab\\0cd'")).toBe('ab');
  });
});

describe('brace expansion', () => {
  it('expands lists, sequences, nesting and padding', () => {
    expect(expandBrace('{a,b}').values).toEqual(['a', 'b']);
    expect(expandBrace('{1..3}').values).toEqual(['1', '2', '3']);
    expect(expandBrace('{01..03}').values).toEqual(['01', '02', '03']);
    expect(expandBrace('{a..c}').values).toEqual(['a', 'b', 'c']);
    expect(expandBrace('{1..10..4}').values).toEqual(['1', '5', '9']);
    expect(expandBrace('{a,{b,c}}').values).toEqual(['a', 'b', 'c']);
  });
  it('is bounded', () => {
    const r = expandBrace('{1..100000}');
    expect(r.truncated).toBe(true);
    expect(r.values.length).toBeLessThanOrEqual(256);
  });
});

describe('word expansion', () => {
  it('removes quotes and backslashes', () => {
    expect(values(`r''m "r"m \\rm r\\m 'a b'`)).toEqual(['rm', 'rm', 'rm', 'rm', 'a b']);
  });
  it('expands tilde, HOME and known variables', () => {
    expect(values('echo ~ ~/x ${HOME}/y $HOME "$X/z" ~root')).toEqual(['echo', '/home/u', '/home/u/x', '/home/u/y', '/home/u', '/tmp/z', '/root']);
  });
  it('splits unquoted known values, not quoted ones', () => {
    expect(values('echo $SPACED "$SPACED"')).toEqual(['echo', 'a', 'b', 'c', 'a b  c']);
  });
  it('applies ${IFS} as a separator', () => {
    expect(values('cat${IFS}/etc/passwd')).toEqual(['cat', '/etc/passwd']);
  });
  it('keeps unknown parts dynamic, never guessed', () => {
    const [w1, w2, w3] = fields('$FOO $(id) $UNK');
    expect(w1.dynamic).toBe(true);
    expect(w2.dynamic).toBe(true);
    expect(w3.dynamic).toBe(true);
  });
  it('uses defaults only when the variable is known', () => {
    expect(values('echo ${USER:-x}')).toEqual(['echo', 'u']);
    expect(fields('echo ${NOPE:-x}')[1].dynamic).toBe(true);
  });
  it('marks unquoted globs, not quoted ones', () => {
    expect(fields('ls *.c "*.c"').map((f) => f.glob)).toEqual([false, true, false]);
  });
  it('expands braces into several fields', () => {
    expect(values('echo a{b,c}d')).toEqual(['echo', 'abd', 'acd']);
  });
});
