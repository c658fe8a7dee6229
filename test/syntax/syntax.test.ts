import { describe, expect, it } from 'vitest';
import { BashParser } from '../../src/syntax/tree-sitter/parser.js';
import type { Command, List, Pipeline, SimpleCommand } from '../../src/syntax/ast.js';

const parser = await BashParser.create();
const body = (src: string): List => parser.parse(src).script.body;
const words = (c: Command) => (c as SimpleCommand).words.map((w) => w.raw);

describe('lists and pipelines', () => {
  it('rebuilds bash precedence where tree-sitter mis-nests: a | b | c && d || e', () => {
    const l = body('a | b | c && d || e');
    expect(l.items.map((i) => i.type)).toEqual(['Pipeline', 'SimpleCommand', 'SimpleCommand']);
    expect((l.items[0] as Pipeline).commands.map(words)).toEqual([['a'], ['b'], ['c']]);
    expect(l.operators).toEqual(['&&', '||', null]);
  });
  it('keeps newline-separated commands apart', () => {
    const l = body('a\nb; c &');
    expect(l.items.length).toBe(3);
    expect(l.operators).toEqual(['\n', ';', '&']);
  });
  it('negates the whole pipeline', () => {
    const p = body('! a | b').items[0] as Pipeline;
    expect(p.negated).toBe(true);
    expect(p.commands.length).toBe(2);
  });
  it('continues the list after a heredoc: cat <<EOF | sh', () => {
    const l = body('cat <<EOF | sh\nrm -rf x\nEOF\necho done');
    const p = l.items[0] as Pipeline;
    expect(p.commands.map(words)).toEqual([['cat'], ['sh']]);
    const heredoc = (p.commands[0] as SimpleCommand).redirects[0];
    expect(heredoc.op).toBe('<<');
    expect(heredoc.heredoc?.quoted).toBe(false);
    expect(words(l.items[1])).toEqual(['echo', 'done']);
  });
  it('handles a 10,000-command && chain without deep recursion', () => {
    const src = Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(' && ');
    expect(body(src).items.length).toBe(10_000);
  });
});

describe('constructs', () => {
  it('converts every compound construct to its own node', () => {
    const types = (src: string) => body(src).items.map((i) => i.type);
    expect(types('(a); { b; }; f() { c; }; if x; then y; fi; for i in 1; do z; done; while a; do b; done')).toEqual([
      'Subshell',
      'Group',
      'FunctionDef',
      'If',
      'For',
      'While',
    ]);
    expect(types('case $x in a) b;; esac; [[ -f x ]]; (( i++ )); for ((i=0;i<3;i++)); do a; done; select x in a; do b; done')).toEqual([
      'Case',
      'TestCommand',
      'ArithCommand',
      'ArithFor',
      'For',
    ]);
  });
  it('splits word parts by kind', () => {
    const c = body(`x ~/a{b,c}*.t "s$HOME" 'q' $'\\x41' $(id) \`id\` <(ls) $((1+2))`).items[0] as SimpleCommand;
    expect(c.words.slice(1).map((w) => w.parts.map((p) => p.type))).toEqual([
      ['Tilde', 'Literal', 'Brace', 'Glob', 'Literal'],
      ['DoubleQuoted'],
      ['SingleQuoted'],
      ['AnsiC'],
      ['CmdSubst'],
      ['CmdSubst'],
      ['ProcSubst'],
      ['ArithExp'],
    ]);
  });
  it('keeps source spans in characters, also after non-ASCII text', () => {
    const src = 'echo "日本" && rm x';
    const l = body(src);
    const rm = l.items[1];
    expect(src.slice(rm.span.start, rm.span.end)).toBe('rm x');
  });
});

describe('parse errors', () => {
  it('reports ERROR and MISSING nodes', () => {
    expect(parser.parse('echo "unterminated').issues.length).toBeGreaterThan(0);
    expect(parser.parse('if true; then echo').issues.length).toBeGreaterThan(0);
    expect(parser.parse('echo ok').issues).toEqual([]);
  });
  it('still sees commands inside a broken region', () => {
    const r = parser.parse('rm -rf / )');
    expect(r.issues.length).toBeGreaterThan(0);
    expect(JSON.stringify(r.script)).toContain('"rm"');
  });
});
