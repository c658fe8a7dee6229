/**
 * Issue 11, class 1: where tree-sitter-bash reads a construct differently from bash, shellgate
 * reads it with bash's rules. Each expectation was checked against bash 5.2 (`bash -c`, with a
 * marker function in place of the command).
 */
import { describe, expect, it } from 'vitest';
import { BashParser } from '../../src/syntax/tree-sitter/parser.js';
import type { ParamExp, Script, SimpleCommand, Subshell, WordPart } from '../../src/syntax/ast.js';
import { isArithmetic, skipAnsiC, skipCommand } from '../../src/syntax/bash-scan.js';
import { joinContinuations } from '../../src/syntax/continuations.js';
import { readBrace } from '../../src/syntax/word-sites.js';

const parser = await BashParser.create();

/** The text of every simple command in the AST, substitution bodies included, in no set order. */
function commandsIn(script: Script): string[] {
  const out: string[] = [];
  const visit = (v: unknown) => {
    if (typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) return v.forEach(visit);
    const node = v as { type?: string };
    if (node.type === 'SimpleCommand') {
      const c = node as SimpleCommand;
      if (c.words.length > 0) out.push(c.words.map((w) => w.raw).join(' '));
    }
    for (const x of Object.values(node)) visit(x);
  };
  visit(script);
  return out.sort();
}

const commands = (src: string) => commandsIn(parser.parse(src).script);
const issueKinds = (src: string) => parser.parse(src).issues.map((i) => i.kind);

describe("bash's lexical rules (bash-scan)", () => {
  it("ends $'…' at the first quote no backslash escapes", () => {
    expect(skipAnsiC(String.raw`$'a\\' x '`, 0)).toBe(6);
    expect(skipAnsiC(String.raw`$'a\'b'`, 0)).toBe(7);
    expect(skipAnsiC(`$'abc`, 0)).toBe(-1);
  });
  it('tells arithmetic (( from a subshell in a subshell', () => {
    expect(isArithmetic('((1 + 2))', 0)).toBe(true);
    expect(isArithmetic('(( (1) + 2 ))', 0)).toBe(true);
    expect(isArithmetic('((a) )', 0)).toBe(false);
    expect(isArithmetic('((a) + (b))', 0)).toBe(false);
    expect(isArithmetic("(( ')' ))", 0)).toBe(true);
  });
  it('finds the end of a command text past case patterns, quotes, comments and here-documents', () => {
    const end = (s: string) => skipCommand(s, 2, ')');
    expect(end('$(case x in a) b;; esac) tail')).toBe(23);
    expect(end(`$(echo ')'; b) tail`)).toBe(13);
    expect(end('$(a # )\nb) tail')).toBe(9);
    expect(end('$(cat <<E\n)\nE\nb) tail')).toBe(15);
    expect(end('$(echo $(a) `)` "$(b)") tail')).toBe(22);
  });
});

describe('backslash-newline, joined where bash joins it', () => {
  it('joins outside quotes, inside double quotes, backquotes and unquoted here-documents', () => {
    expect(joinContinuations('ec\\\nho "$\\\n(a)" `b\\\nc`').text).toBe('echo "$(a)" `bc`');
    expect(joinContinuations('cat <<E\n$\\\n(a)\nE').text).toBe('cat <<E\n$(a)\nE');
  });
  it("keeps it inside single quotes, $'…', comments, quoted here-documents, and after an escaped backslash", () => {
    for (const s of ["echo 'a\\\nb'", "echo $'a\\\nb'", 'echo # a\\\nb', "cat <<'E'\na\\\nE\nE", 'echo a\\\\\nb']) {
      expect(joinContinuations(s).text).toBe(s);
    }
  });
  it('maps offsets in the joined text back to the original', () => {
    const j = joinContinuations('a\\\nb\\\nc');
    expect(j.text).toBe('abc');
    expect([0, 1, 2].map(j.toOriginal)).toEqual([0, 3, 6]);
  });
});

describe('what runs inside ${…} (word-sites)', () => {
  const bodies = (src: string, inDouble: boolean) => {
    const r = readBrace(src, 0, src.length, inDouble);
    const out: string[] = [];
    const visit = (sites: typeof r.site.inner) => {
      for (const s of sites) {
        if (s.kind === 'parameter' || s.kind === 'arithmetic') visit(s.inner);
        else if (s.kind === 'decoded') out.push(`decoded:${s.text}`);
        else out.push(`${s.kind}:${src.slice(s.body.start, s.body.end)}`);
      }
    };
    visit(r.site.kind === 'funsub' ? [r.site] : r.site.inner);
    return out;
  };
  it('reads backquotes, $(…) and <(…) in every operand', () => {
    for (const op of [':-', '-', ':=', '=', ':?', '?', ':+', '+', '#', '##', '%', '%%', '/', '//', '/#', '/%', '^', '^^', ',', ',,']) {
      expect(bodies(`\${x${op}\`a\`$(b)<(c)}`, false), op).toEqual(['backquote:a', 'command:b', 'process-in:c']);
    }
  });
  it('inside double quotes, reads single-quoted text in the word of :- := :+ (- = +) as literal', () => {
    for (const op of [':-', '-', ':=', '=', ':+', '+']) {
      expect(bodies(`\${x${op}'$(a)'}`, true), op).toEqual(['command:a']);
      expect(bodies(`\${x${op}'$(a)'}`, false), op).toEqual([]);
    }
  });
  it('keeps quotes in patterns and in ${x:?…}, even inside double quotes; there <(…) runs', () => {
    for (const op of ['#', '%%', '/', '^', ':?']) expect(bodies(`\${x${op}'$(a)'}`, true), op).toEqual([]);
    expect(bodies('${x#<(a)}', true)).toEqual(['process-in:a']);
    expect(bodies('${x:?<(a)}', true)).toEqual(['process-in:a']);
    expect(bodies('${x:-<(a)}', true)).toEqual([]);
  });
  it("decodes $'…' in a double-quoted ${x:-…} and reads the result", () => {
    expect(bodies("${x:-$'\\x24(a)'}", true)).toEqual(['decoded:$(a)']);
    expect(bodies("${x:-$'\\x24(a)'}", false)).toEqual([]);
  });
  it('reads arithmetic operands (subscripts, offset and length) with literal quotes', () => {
    expect(bodies("${x[`a`]:1:'$(b)'}", false)).toEqual(['backquote:a', 'command:b']);
  });
  it("reads bash 5.3's ${ cmd; } and ${|cmd;} as command substitutions", () => {
    expect(bodies('${ a; }', false)).toEqual(['funsub: a; ']);
    expect(bodies('${|a;}', false)).toEqual(['funsub:a;']);
  });
  it('ends where the parser ends it: quotes are matched even inside double quotes', () => {
    expect(readBrace(`\${x:-'}'}`, 0, 9, true).end).toBe(9);
    expect(readBrace('${x:-"}"$(a)}', 0, 13, false).end).toBe(13);
  });
});

describe('the AST holds what bash runs', () => {
  it("reads past a $'…' that ends in an escaped backslash", () => {
    expect(commands("echo $'a\\\\' ; rm x # '")).toEqual(["echo $'a\\\\'", 'rm x']);
    expect(commands("x=$'\\\\' $'\\\\' ; rm x # '")).toEqual(["$'\\\\'", 'rm x']);
  });
  it('keeps a carriage return inside its word, offsets unchanged', () => {
    const c = parser.parse('TZ=UTC\recho curl x').script.body.items[0] as SimpleCommand;
    expect(c.assignments.map((a) => a.value?.raw)).toEqual(['UTC\recho']);
    expect(c.words.map((w) => w.raw)).toEqual(['curl', 'x']);
    expect(c.words[0].span).toEqual({ start: 12, end: 16 });
    expect(commands('echo SAFE \\\r\nrm x')).toEqual(['echo SAFE \\\r', 'rm x']);
  });
  it('reads $((…) …) as a command substitution and ((…) …) as a subshell in a subshell', () => {
    expect(commands('echo $((a b) | c)')).toEqual(['a b', 'c', 'echo $((a b) | c)']);
    const outer = parser.parse('((a) ; b)').script.body.items[0] as Subshell;
    expect(outer.type).toBe('Subshell');
    expect(outer.body.items.map((i) => i.type)).toEqual(['Subshell', 'SimpleCommand']);
    expect(commands('echo $((1 + (2) )) $(( (3) ))')).toEqual(['echo $((1 + (2) )) $(( (3) ))']);
  });
  it('walks the operands of ${…} bash expands and leaves the ones it does not', () => {
    expect(commands('echo ${x:-`a`} ${x#$(b)} ${x/y/<(c)}')).toEqual(['a', 'b', 'c', 'echo ${x:-`a`} ${x#$(b)} ${x/y/<(c)}']);
    expect(commands(`echo "\${x:-'$(a)'}" "\${x#'$(b)'}" \${x:-'$(c)'}`)).toEqual(['a', `echo "\${x:-'$(a)'}" "\${x#'$(b)'}" \${x:-'$(c)'}`]);
  });
  it('points the spans of what it read again into the original text', () => {
    const src = 'echo ${x:-`rm y`}';
    const w = (parser.parse(src).script.body.items[0] as SimpleCommand).words[1];
    const sub = (w.parts[0] as ParamExp).inner.find((p: WordPart) => p.type === 'CmdSubst')!;
    expect(src.slice(sub.span.start, sub.span.end)).toBe('`rm y`');
  });
  it('finds what tree-sitter misses in here-document bodies', () => {
    expect(commands('cat <<-EOF\n\t$(a)\n\tEOF')).toEqual(['a', 'cat']);
    expect(commands('cat <<EOF\n`a` ${x#`b`}\nEOF')).toEqual(['a', 'b', 'cat']);
    expect(commands("cat <<'EOF'\n`a` $(b)\nEOF")).toEqual(['cat']);
  });
  it('reads arithmetic text with literal quotes', () => {
    expect(commands("echo $(( '$(a)' )); (( '$(b)' )); y['$(c)']=1")).toEqual(['a', 'b', 'c', "echo $(( '$(a)' ))"]);
  });
  it('reports a ${…} that bash ends elsewhere than tree-sitter as a doubt', () => {
    expect(issueKinds("echo ${y:1:'$(a)'}")).toContain('doubt');
    expect(issueKinds('echo ${x:-`a`}')).toEqual([]);
  });
});
