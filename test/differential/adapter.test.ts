/**
 * The bash-parser adapter on each construct: its AST must reduce to the same structure as
 * shellgate's own parser gives (and a few shapes are checked directly).
 */
import { describe, expect, it } from 'vitest';
import { BashParser } from '../../src/syntax/tree-sitter/parser.js';
import { loadBashParser, parseWithBashParser, type AdapterRepair } from '../../src/syntax/bash-parser-adapter.js';
import { compareStructures, structureOf, type Structure } from '../../src/expand/structure.js';
import type { Command, DoubleQuoted, Pipeline, Script, SimpleCommand, Word } from '../../src/syntax/ast.js';

const parser = await BashParser.create();
await loadBashParser();

function own(src: string): Structure {
  const r = parser.parse(src);
  expect(r.issues).toEqual([]);
  return structureOf(r.script);
}

function other(src: string): Script {
  const s = parseWithBashParser(src);
  expect(s, `bash-parser could not parse ${JSON.stringify(src)}`).not.toBeNull();
  return s!;
}

const first = (s: Script): Command => s.body.items[0];

const CONSTRUCTS: [string, string][] = [
  ['words and quoting', `echo plain 'single q' "double $HOME \\"x\\"" a\\ b ~/dir *.txt {a,b} "$@" \${x:-$(id)} $((1 + 2))`],
  ['list operators', 'a && b || c; d & e\nf;'],
  ['pipelines and negation', '! grep -q x file | wc -l && ls | sort -r | head -n 3'],
  ['assignments and redirects', 'FOO=1 BAR="$(date)" env >out 2>/dev/null <in >>log 3<&- 2>&1'],
  ['subshell with redirect', '(cd /tmp && rm -f x) 2>/dev/null'],
  ['brace group with redirect', '{ echo a; echo b; } > log'],
  ['function definition', 'cleanup() { rm -rf "$1"; }; cleanup /tmp/x'],
  ['if / elif / else', 'if test -f a; then cat a; elif [ -d b ]; then ls b; else echo none; fi'],
  ['for loop', 'for f in *.log $(ls /var/log); do gzip "$f"; done'],
  ['while and until', 'while read -r l; do echo "$l"; done < file; until false; do :; done'],
  ['case', 'case "$1" in start|up) run --now ;; *) usage ;; esac'],
  ['heredocs', "cat <<EOF > out\nhello $(whoami)\nEOF\ncat <<-'END'\n\t$(not run)\n\tEND\necho done"],
  ['command substitutions', 'echo `date +%s` "$(id -u)" x=$(pwd) "${y:-$(hostname)}"'],
  ['&> and &>>', 'make &>/dev/null && make install &>> log'],
  ['subscript assignment', 'arr[$(rm -rf x)]=1 B=2 cmd'],
  ['declaration builtins', 'export A=~/x B=$(pwd); local c=1'],
];

describe('bash-parser adapter: same structure as shellgate’s own parser', () => {
  for (const [name, src] of CONSTRUCTS) {
    it(name, () => {
      const mine = own(src);
      const theirs = structureOf(other(src));
      expect(compareStructures(mine, theirs)).toBeNull();
      expect(theirs).toEqual(mine);
    });
  }
});

describe('bash-parser adapter: shapes', () => {
  it('keeps word parts and spans into the source', () => {
    const src = `echo "a $b" 'c' \${d:-e}`;
    const cmd = first(other(src)) as SimpleCommand;
    expect(cmd.words.map((w) => src.slice(w.span.start, w.span.end))).toEqual(['echo', '"a $b"', "'c'", '${d:-e}']);
    expect(cmd.words.map((w) => w.parts.map((p) => p.type))).toEqual([['Literal'], ['DoubleQuoted'], ['SingleQuoted'], ['ParamExp']]);
    const dq = cmd.words[1].parts[0] as DoubleQuoted;
    expect(dq.parts.map((p) => p.type)).toEqual(['Literal', 'ParamExp']);
  });

  it('maps code points to UTF-16 offsets', () => {
    const src = 'echo 😀 x';
    const words = (first(other(src)) as SimpleCommand).words;
    expect(words.map((w: Word) => src.slice(w.span.start, w.span.end))).toEqual(['echo', '😀', 'x']);
  });

  it('parses substitution bodies as scripts', () => {
    const cmd = first(other('echo $(ls -l | wc -l)')) as SimpleCommand;
    const sub = cmd.words[1].parts[0];
    expect(sub.type).toBe('CmdSubst');
    if (sub.type === 'CmdSubst') expect((sub.body.body.items[0] as Pipeline).commands.length).toBe(2);
  });

  it('reads heredocs bash-parser would take as commands', () => {
    const repairs = new Set<AdapterRepair>();
    const s = parseWithBashParser('cat <<EOF\nrm -rf /\nEOF\necho done', repairs)!;
    expect(s.body.items.length).toBe(2);
    const r = (s.body.items[0] as SimpleCommand).redirects[0];
    expect(r.op).toBe('<<');
    expect(r.heredoc?.body.raw).toBe('rm -rf /\n');
    expect([...repairs]).toEqual(['heredoc']);
  });

  it('takes a digit word before a spaced redirect as a word, not an fd', () => {
    const cmd = first(other('nc host 4444 > /tmp/f')) as SimpleCommand;
    expect(cmd.words.map((w) => w.raw)).toEqual(['nc', 'host', '4444']);
    expect(cmd.redirects.map((r) => [r.fd, r.op])).toEqual([[null, '>']]);
  });

  it('returns null where bash-parser throws', () => {
    expect(parseWithBashParser('a |& b')).toBeNull();
    expect(parseWithBashParser('diff <(ls a) <(ls b)')).toBeNull();
    expect(parseWithBashParser("echo $'a\\nb'")).toBeNull();
    expect(parseWithBashParser('if then')).toBeNull();
  });
});

describe('compareStructures', () => {
  it('names the first difference', () => {
    const a: Structure = { commands: [{ words: ['rm', '-rf', 'x'], redirects: [] }], operators: [] };
    const b: Structure = { commands: [{ words: ['rm', '-rf'], redirects: [] }], operators: [] };
    expect(compareStructures(a, a)).toBeNull();
    expect(compareStructures(a, b)).toBe('command 1: words [rm, -rf, x] vs [rm, -rf]');
    expect(compareStructures({ ...a, operators: ['&&'] }, a)).toBe('operators [&&] vs []');
    expect(compareStructures(a, { commands: [...a.commands, { words: ['ls'], redirects: ['>out'] }], operators: [] })).toBe('command 2: missing vs words [ls]');
  });
});
