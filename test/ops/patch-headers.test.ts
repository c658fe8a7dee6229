/**
 * Patch headers as the programs that apply them read them (src/ops/patch-headers.ts): each
 * spelling below is a header some applier acts on — Codex trims an indented `*** Add File:`, GNU
 * patch skips indentation, `X` quoting and a CR — and the reading must name its file.
 */
import { describe, expect, it } from 'vitest';
import { applyPatchNames, diffHeaderNames } from '../../src/ops/patch-headers.js';

const P = (body: string) => `*** Begin Patch\n${body}\n*** End Patch\n`;

/** [what, patch text, a file it must name, deletes?, read as unsure?] */
const APPLY_PATCH: [string, string, string, boolean, boolean][] = [
  ['plain Add File', P('*** Add File: notes.txt\n+hi'), 'notes.txt', false, false],
  ['indented by spaces (Codex trims)', P('   *** Add File: .envrc\n+eval x'), '.envrc', false, false],
  ['indented by a tab, trailing blanks', P('\t*** Add File: .envrc  \n+eval x'), '.envrc', false, false],
  ['Unicode blanks Rust trims (NBSP, ideographic space)', P('\u00a0*** Add File: .envrc\u3000\n+x'), '.envrc', false, false],
  ['NEL before the marker (Rust trims U+0085)', P('\u0085*** Add File: .envrc\n+x'), '.envrc', false, false],
  ['BOM before the marker (JavaScript trims it, Rust does not)', P('\ufeff*** Add File: .envrc\n+x'), '.envrc', false, true],
  ['CRLF line ends', '*** Begin Patch\r\n*** Add File: .envrc\r\n+x\r\n*** End Patch\r\n', '.envrc', false, false],
  ['a header after a lone CR', P('*** Add File: a.txt\r*** Add File: .envrc\n+x'), '.envrc', false, false],
  ['a header after U+2028', P('*** Add File: a.txt\u2028*** Add File: .envrc\n+x'), '.envrc', false, false],
  ['the line as is: a trailing blank is part of the name', P('*** Add File: a.txt \n+x'), 'a.txt ', false, false],
  ['Update File', P('*** Update File: src/app.py\n@@\n-a\n+b'), 'src/app.py', false, false],
  ['indented Update File', P('  *** Update File: .git/hooks/pre-commit\n@@\n-a\n+b'), '.git/hooks/pre-commit', false, false],
  ['Delete File', P('*** Delete File: old.txt'), 'old.txt', true, false],
  ['indented Delete File', P(' *** Delete File: ~/.bashrc'), '~/.bashrc', true, false],
  ['Move to: the destination', P('*** Update File: a.py\n*** Move to: .envrc\n@@\n-a\n+b'), '.envrc', false, false],
  ['Move to: the source is taken away', P('*** Update File: a.py\n*** Move to: b.py\n@@\n-a\n+b'), 'a.py', true, false],
  ['indented Move to', P('*** Update File: a.py\n    *** Move to: .envrc\n@@\n-a\n+b'), '.envrc', false, false],
  ['no space after the colon (not the exact grammar)', P('*** Add File:.envrc\n+x'), '.envrc', false, true],
  ['no space after the stars', P('***Add File: .envrc\n+x'), '.envrc', false, true],
  ['lower case', P('*** add file: .envrc\n+x'), '.envrc', false, true],
  ['heredoc envelope (Codex lenient mode)', `<<'EOF'\n${P('*** Add File: .envrc\n+x')}EOF\n`, '.envrc', false, false],
  ['no envelope at all', '*** Add File: .envrc\n+x\n', '.envrc', false, false],
  ['a unified diff sent to the tool', '--- a/.envrc\n+++ b/.envrc\n@@ -1 +1 @@\n-a\n+b\n', '.envrc', false, false],
  ['a unified diff, raw name kept', '--- /home/user/.bashrc\n+++ /home/user/.bashrc\n@@ -1 +1 @@\n-a\n+b\n', '/home/user/.bashrc', false, false],
  ['a unified diff name with a blank', '--- a/my notes.txt\t2024-01-01\n+++ b/my notes.txt\t2024-01-01\n', 'my notes.txt', false, false],
];

describe('apply_patch headers, every spelling an agent applies', () => {
  it.each(APPLY_PATCH)('%s', (_what, text, name, deletes, unsure) => {
    const r = applyPatchNames(text);
    const found = r.names.find((n) => n.name === name);
    expect(found, JSON.stringify(r.names)).toBeDefined();
    expect(found!.deletes).toBe(deletes);
    expect(r.unsure.length > 0).toBe(unsure);
  });

  it('reads a plain patch without extra names or doubt', () => {
    const r = applyPatchNames(
      P('*** Add File: hello.txt\n+Hello\n*** Update File: src/app.py\n@@ def greet():\n-print("Hi")\n+print("Hello")\n*** Delete File: obsolete.txt'),
    );
    expect(r.names).toEqual([
      { name: 'hello.txt', deletes: false },
      { name: 'src/app.py', deletes: false },
      { name: 'obsolete.txt', deletes: true },
    ]);
    expect(r.unsure).toEqual([]);
  });

  it('does not read content lines as headers', () => {
    const r = applyPatchNames(P('*** Add File: doc.md\n+*** Add File: .envrc\n+text'));
    expect(r.names.map((n) => n.name)).toEqual(['doc.md']);
  });
});

/** [what, diff text, a raw name it must give] */
const DIFF: [string, string, string][] = [
  ['unified', '--- a/x.c\n+++ b/x.c\n', 'b/x.c'],
  ['indented (GNU patch skips blanks)', '   --- a/.envrc\n   +++ b/.envrc\n', 'b/.envrc'],
  ['X-quoted (GNU patch skips X)', 'X--- a/.envrc\nX+++ b/.envrc\n', 'b/.envrc'],
  ['CRLF', '--- a/.envrc\r\n+++ b/.envrc\r\n', 'b/.envrc'],
  ['a date after a tab', '--- a/.envrc\t2024-01-01 00:00:00\n', 'a/.envrc'],
  ['a date after a blank', '--- a/.envrc 2024-01-01 00:00:00\n', 'a/.envrc'],
  ['context diff', '*** a/.envrc\t2024\n--- b/.envrc\t2024\n', 'a/.envrc'],
  ['Index: without a blank', 'Index:.envrc\n', '.envrc'],
  ['git rename', 'diff --git a/x b/.envrc\nrename from x\nrename to .envrc\n', '.envrc'],
  ['git diff line alone', 'diff --git a/x b/.envrc\n', 'b/.envrc'],
  ['C-quoted name', '--- "a/\\056envrc"\n', 'a/.envrc'],
];

describe('diff headers as GNU patch reads them', () => {
  it.each(DIFF)('%s', (_what, text, name) => {
    expect(diffHeaderNames(text)).toContain(name);
  });
  it('never names /dev/null', () => {
    expect(diffHeaderNames('--- /dev/null\n+++ b/new.txt\n')).toEqual(['b/new.txt']);
  });
});
