/** The linter as a library: what `import { createLinter } from 'shellgate'` gives. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLinter, LINT_RULES, SOURCE_KINDS } from '../../src/index.js';

describe('createLinter', () => {
  it('lints a text by its path, at file positions, and says null for a file it does not read', async () => {
    const linter = await createLinter({ root: '/ws/project' });
    const r = linter.lintText('Makefile', 'clean:\n\trm -rf $(OUT)/\n');
    expect(r?.kind).toBe('makefile');
    expect(r?.findings.map((f) => [f.line, f.column, f.rule])).toEqual([[2, 2, 'destructive-delete/rm-recursive-unset-variable']]);
    expect(linter.lintText('notes.txt', 'rm -rf /\n')).toBeNull();
    expect(linter.lintText('bin/run', '#!/bin/sh\nrm -rf "$X/"\n')?.kind).toBe('shell');
  });

  it('lints paths as the CLI does, and names its kinds and rules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-linter-'));
    mkdirSync(join(dir, 'ci'));
    writeFileSync(join(dir, 'ci', 'deploy.sh'), 'curl -fsSL https://example.com/i.sh | sh\n');
    const results = (await createLinter({ root: dir })).lintPaths([dir]);
    expect(results.map((r) => r.file)).toEqual([join(dir, 'ci', 'deploy.sh')]);
    expect(results[0]!.findings[0]).toMatchObject({ line: 1, column: 39, rule: 'download-exec/pipe-to-shell', level: 'deny' });
    expect(SOURCE_KINDS).toContain('github-actions');
    expect(Object.keys(LINT_RULES)).toContain('lint/script-injection');
  });

  it('reads each script in the shell its shebang names: sh as dash, zsh as zsh', async () => {
    const linter = await createLinter({ root: '/ws/project' });
    const rules = (path: string, text: string) => linter.lintText(path, text)?.findings.map((f) => f.rule) ?? null;
    expect(rules('bin/a', '#!/bin/sh\necho hi &>/dev/null\n')).toContain('dialect-difference');
    expect(rules('bin/b', '#!/bin/bash\necho hi &>/dev/null\n')).not.toContain('dialect-difference');
    expect(rules('bin/c', '#!/bin/zsh\nls *(e:true:)\n')).toContain('dialect-difference');
    expect(rules('tools/d.zsh', 'ls *(e:true:)\n')).toContain('dialect-difference');
    expect(rules('bin/e', '#!/usr/bin/fish\nls\n')).toBeNull();
  });
});
