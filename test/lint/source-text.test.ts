/** Mapping the text handed to bash back to file positions: the base of every lint position. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument, type Scalar } from 'yaml';
import { alignValue, LineIndex, MappedTextBuilder } from '../../src/lint/source-text.js';
import { scalarText } from '../../src/lint/sources/yaml-text.js';

const at = (file: string, offset: number) => new LineIndex(file).position(offset);

describe('LineIndex', () => {
  it('gives 1-based lines and columns, and line texts without CR', () => {
    const f = 'ab\r\ncd\n\nxyz';
    const li = new LineIndex(f);
    expect(li.position(0)).toEqual({ line: 1, column: 1 });
    expect(li.position(4)).toEqual({ line: 2, column: 1 });
    expect(li.position(9)).toEqual({ line: 4, column: 2 });
    expect(li.lineText(1)).toBe('ab');
    expect(li.lineText(4)).toBe('xyz');
    expect(li.lineCount).toBe(4);
  });
});

describe('MappedTextBuilder', () => {
  it('maps copied text one to one and replaced text to where it stands', () => {
    const file = 'echo $$HOME';
    const t = new MappedTextBuilder().verbatim('echo ', 0).synthetic('$', 5, 7).verbatim('HOME', 7).build();
    expect(t.text).toBe('echo $HOME');
    expect(Array.from(t.offsets)).toEqual([0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11]);
    expect(file.slice(t.offsets[6]!, t.offsets[10]!)).toBe('HOME');
  });
});

describe('YAML scalars mapped to the file', () => {
  const file = [
    'steps:',
    '  - run: |',
    '      echo one',
    '        indented "$X"',
    '      rm -rf /tmp/x',
    '  - run: "printf \\"%s\\" hi && rm -r a"',
    '  - run: rm -rf',
    '      folded b',
    '',
  ].join('\n');
  const runs = (parseDocument(file).get('steps') as { items: { get(k: string, keep: true): Scalar }[] }).items.map((s) => s.get('run', true));

  const where = (i: number, needle: string) => {
    const t = scalarText(file, runs[i]!);
    const k = t.text.indexOf(needle);
    expect(k).toBeGreaterThanOrEqual(0);
    return at(file, t.offsets[k]!);
  };

  it('block literal: lines keep their file line, indentation is skipped', () => {
    expect(where(0, 'echo')).toEqual({ line: 3, column: 7 });
    expect(where(0, '"$X"')).toEqual({ line: 4, column: 18 });
    expect(where(0, 'rm')).toEqual({ line: 5, column: 7 });
  });
  it('double-quoted: escapes decoded, characters after them still exact', () => {
    expect(where(1, 'rm -r')).toEqual({ line: 6, column: 31 });
  });
  it('plain multi-line: the folded line keeps its place', () => {
    expect(where(2, 'b')).toEqual({ line: 8, column: 14 });
  });
});

describe('alignValue', () => {
  it('never maps outside the range, whatever the value', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (src, value) => {
        const t = alignValue(src, 0, src.length, value);
        expect(t.offsets.length).toBe(value.length + 1);
        for (const o of t.offsets) expect(o >= 0 && o <= src.length).toBe(true);
      }),
    );
  });
  it('maps every character of a value that is the range with characters dropped', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.array(fc.boolean()), (src, keep) => {
        const kept = [...src].map((_, i) => keep[i % Math.max(1, keep.length)] !== false);
        const value = [...src].filter((_, i) => kept[i]).join('');
        const t = alignValue(src, 0, src.length, value, src.length);
        for (let i = 0; i < value.length; i++) expect(src[t.offsets[i]!]).toBe(value[i]);
      }),
    );
  });
});
