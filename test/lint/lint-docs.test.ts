/**
 * The linter's docs match the code: the README's workflow is the example file, the pre-commit hook
 * README names exists, every lint rule is in README's table, SARIF help links land on real
 * headings, and the example workflow itself passes its own lint.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createLinter, LINT_RULES } from '../../src/index.js';
import { HELP_ANCHOR, README_URL } from '../../src/lint/format/sarif.js';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const WORKFLOW = readFileSync(join(ROOT, 'examples', 'shellgate-lint.yml'), 'utf8');
const anchors = new Set(
  [...README.matchAll(/^#{2,4} (.+)$/gm)].map((m) =>
    m[1]!
      .toLowerCase()
      .replace(/[^a-z0-9 -]/g, '')
      .replace(/ /g, '-'),
  ),
);

describe('linter docs', () => {
  it('README shows the example workflow as it is, and it uploads the SARIF it writes', () => {
    expect(README).toContain('```yaml\n' + WORKFLOW + '```');
    const wf = parse(WORKFLOW) as { jobs: { lint: { steps: { run?: string; uses?: string; with?: { sarif_file?: string } }[] } } };
    const steps = wf.jobs.lint.steps;
    const out = /--output (\S+)/.exec(steps.find((s) => s.run?.includes('lint --format sarif'))?.run ?? '')?.[1];
    expect(out).toBeDefined();
    expect(steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif'))?.with?.sarif_file).toBe(out);
  });

  it('the example workflow has no finding at deny under its own lint', async () => {
    const r = (await createLinter({ root: '/ws/project' })).lintText('.github/workflows/shellgate-lint.yml', WORKFLOW);
    expect(r?.kind).toBe('github-actions');
    expect(r?.findings.filter((f) => f.level === 'deny')).toEqual([]);
  });

  it('the pre-commit hook README names is defined and runs shellgate lint', () => {
    const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string; entry: string }[];
    const id = /- id: (\S+)/.exec(README.slice(README.indexOf('**pre-commit**')))?.[1];
    expect(hooks.find((h) => h.id === id)?.entry).toBe('shellgate lint');
  });

  it('every lint rule is in README, and SARIF help links point at headings that exist', () => {
    for (const id of Object.keys(LINT_RULES)) expect(README).toContain(`| \`${id}\` |`);
    for (const a of Object.values(HELP_ANCHOR)) expect(anchors.has(a.slice(1)), a).toBe(true);
    expect(README_URL).toMatch(/README\.md$/);
  });
});
