/**
 * The fixture tree (test/fixtures/lint/): one file of each kind the linter reads, each with a risk
 * written the way that kind writes it. Every finding is asserted at its exact line and column;
 * what only looks risky (heredoc text, a container's own apt cleanup, an untrusted value passed
 * through `env:`) must not be reported.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LintFinding } from '../../src/lint/types.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const TREE = join(import.meta.dirname, '..', 'fixtures', 'lint');

type Found = Pick<
  LintFinding,
  'file' | 'line' | 'column' | 'endLine' | 'endColumn' | 'rule' | 'level' | 'lifecycle' | 'kind' | 'command' | 'fingerprint' | 'message'
>;

const run = spawnSync(process.execPath, [BIN, 'lint', '--workspace', '.', '--format', 'json', '.'], { cwd: TREE, encoding: 'utf8' });
const report = JSON.parse(run.stdout) as { findings: Found[]; summary: { linted: number } };
const at = report.findings.map((f) => `${f.file}:${f.line}:${f.column}-${f.endLine}:${f.endColumn} ${f.level} ${f.rule}`);

describe('lint over a tree with one file of each kind', () => {
  it('reads all seven kinds and fails on the denies', () => {
    expect(new Set(report.findings.map((f) => f.kind))).toEqual(
      new Set(['shell', 'dockerfile', 'github-actions', 'gitlab-ci', 'package-json', 'makefile', 'compose']),
    );
    expect(report.summary.linted).toBe(7);
    expect(run.status).toBe(1);
  });

  it('shell script: a function body, a pipe split over a continuation, no heredoc text', () => {
    expect(at).toContain('scripts/release.sh:6:3-6:22 deny destructive-delete/rm-recursive-unset-variable');
    expect(at).toContain('scripts/release.sh:16:5-16:9 deny download-exec/pipe-to-shell');
    expect(at).toContain('scripts/release.sh:17:1-17:29 ask destructive-delete/git-force-push');
    expect(report.findings.some((f) => f.file === 'scripts/release.sh' && f.line === 11)).toBe(false);
  });

  it('Dockerfile: a RUN line and a heredoc RUN body; the image cleaning its own apt lists is not a risk', () => {
    expect(at).toContain('Dockerfile:7:47-7:49 deny download-exec/pipe-to-shell');
    expect(at).toContain('Dockerfile:10:1-10:33 deny privilege-escalation/setuid-bit');
    expect(report.findings.some((f) => f.file === 'Dockerfile' && f.line <= 6)).toBe(false);
  });

  it('GitHub Actions: an untrusted title spliced into run:, a block scalar line; the env: form is clean', () => {
    expect(at).toContain('.github/workflows/ci.yml:11:31-11:69 deny lint/script-injection');
    expect(at).toContain('.github/workflows/ci.yml:15:46-15:55 deny download-exec/pipe-to-shell');
    expect(report.findings.some((f) => f.file === '.github/workflows/ci.yml' && f.line >= 16)).toBe(false);
  });

  it('GitLab CI: list items of script and before_script', () => {
    expect(at).toContain('.gitlab-ci.yml:7:7-7:25 deny destructive-delete/rm-recursive-unset-variable');
    expect(at).toContain('.gitlab-ci.yml:14:7-14:58 ask remote-exec/remote-command');
  });

  it('package.json: the install lifecycle script is judged with everything it does', () => {
    expect(at).toContain('package.json:6:64-6:66 deny download-exec/pipe-to-shell');
    const post = report.findings.filter((f) => f.file === 'package.json');
    expect(post.every((f) => f.lifecycle === true && f.line === 6)).toBe(true);
    expect(post.map((f) => f.rule)).toContain('network');
  });

  it('Makefile: $(VAR) is unknown, $$ is $, the @/- prefixes and a continued recipe line', () => {
    expect(at).toContain('Makefile:7:3-7:19 deny destructive-delete/rm-recursive-unset-variable');
    expect(at).toContain('Makefile:10:2-10:49 deny privilege-escalation/setuid-bit');
    expect(at).toContain('Makefile:12:4-12:6 deny download-exec/pipe-to-shell');
  });

  it('compose: an exec-form sh -c command and a string entrypoint', () => {
    expect(at).toContain('docker-compose.yml:4:67-4:69 deny download-exec/insecure-source-to-shell');
    expect(at).toContain('docker-compose.yml:7:17-7:52 deny reverse-shell/netcat-exec');
  });
});
