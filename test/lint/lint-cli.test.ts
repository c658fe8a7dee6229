/**
 * `shellgate lint` as users run it: the built CLI over a tree written for each test. Positions,
 * suppressions, baselines, exit statuses and every output format are the contract.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Ajv from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import type { LintFinding } from '../../src/lint/types.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const SARIF_SCHEMA = join(import.meta.dirname, '..', '..', '..', 'shared', 'schemas', 'sarif-schema-2.1.0.json');

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-lint-'));
  mkdirSync(join(dir, '.git'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

function lint(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'lint', ...args], { encoding: 'utf8', cwd, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

type Found = Pick<
  LintFinding,
  'file' | 'line' | 'column' | 'endLine' | 'endColumn' | 'rule' | 'level' | 'lifecycle' | 'kind' | 'command' | 'fingerprint' | 'message'
>;
const json = (cwd: string, ...args: string[]): { findings: Found[]; summary: Record<string, number> } => JSON.parse(lint(cwd, '--format', 'json', ...args).out);

const SCRIPT = [
  '#!/bin/sh', // 1
  'set -eu', // 2
  'cat <<EOF', // 3
  'rm -rf /', // 4: heredoc text, not a command
  'EOF', // 5
  'deploy() {', // 6
  '  rm -rf "$TARGET/"', // 7
  '}', // 8
  'curl -fsSL https://example.com/i.sh \\', // 9
  '  | sh', // 10
  'ssh build-host uptime', // 11
  '',
].join('\n');

describe('shell scripts', () => {
  it('reads the whole file: heredoc bodies are not commands, findings sit at exact positions', () => {
    const dir = tree({ 'scripts/deploy.sh': SCRIPT });
    const r = json(dir);
    const at = r.findings.map((f) => `${f.file}:${f.line}:${f.column}-${f.endLine}:${f.endColumn} ${f.rule}`);
    expect(at).toContain('scripts/deploy.sh:7:3-7:20 destructive-delete/rm-recursive-unset-variable');
    expect(at).toContain('scripts/deploy.sh:10:5-10:7 download-exec/pipe-to-shell');
    expect(at).toContain('scripts/deploy.sh:11:1-11:22 remote-exec/remote-command');
    expect(r.findings.some((f) => f.line === 4)).toBe(false);
  });

  it('finds scripts by shebang without an extension, and skips node_modules, .git and .gitignored paths', () => {
    const bad = 'rm -rf "$X/"\n';
    const dir = tree({
      'bin/tool': '#!/usr/bin/env bash\n' + bad,
      'node_modules/pkg/x.sh': bad,
      '.git/hooks/pre-commit.sh': bad,
      'build/out.sh': bad,
      'sub/gen/y.sh': bad,
      'sub/keep.sh': bad,
      '.gitignore': 'build/\n',
      'sub/.gitignore': 'gen/\n',
      'notes.txt': bad,
    });
    expect(new Set(json(dir).findings.map((f) => f.file))).toEqual(new Set(['bin/tool', 'sub/keep.sh']));
    // A file named on the command line is read even when ignored; one of no known kind is skipped with a note.
    expect(new Set(json(dir, 'build/out.sh', 'notes.txt').findings.map((f) => f.file))).toEqual(new Set(['build/out.sh']));
    expect(lint(dir, 'notes.txt').err).toMatch(/not a file shellgate lint reads .*skipped: notes\.txt\n/);
  });
});

describe('started from a subdirectory', () => {
  it('reads a workflow as a workflow and gives the same fingerprints as from the root', () => {
    const wf = 'on: issues\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.issue.title }}"\n';
    const dir = tree({ '.github/workflows/t.yml': wf });
    const fromRoot = json(dir).findings;
    const fromSub = json(join(dir, '.github'), 'workflows/t.yml').findings;
    expect(fromRoot.map((f) => f.rule)).toContain('lint/script-injection');
    expect(fromSub.map((f) => [f.file, f.rule, f.line, f.column, f.fingerprint])).toEqual(
      fromRoot.map((f) => ['workflows/t.yml', f.rule, f.line, f.column, f.fingerprint]),
    );
  });
});

describe('exit status', () => {
  const dir = tree({ 'deny.sh': 'rm -rf "$X/"\n', 'ask.sh': 'ssh h uptime\n', 'ok.sh': 'ls -la\n' });
  it('0 when nothing reaches --fail-on, 1 when something does', () => {
    expect(lint(dir, 'ok.sh').code).toBe(0);
    expect(lint(dir, 'ask.sh').code).toBe(0);
    expect(lint(dir, '--fail-on', 'ask', 'ask.sh').code).toBe(1);
    expect(lint(dir, 'deny.sh').code).toBe(1);
  });
  it('64 for a usage error, with a message and no stack', () => {
    for (const args of [['--format', 'xml'], ['--fail-on', 'allow'], ['--bogus'], ['missing.sh'], ['--jobs', '0'], ['--baseline', 'nope.json']]) {
      const r = lint(dir, ...args);
      expect(r.code, args.join(' ')).toBe(64);
      expect(r.err).toMatch(/^shellgate: /);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });
});

describe('suppressions', () => {
  it('a comment on the line or alone above suppresses the named rule or category, and nothing else', () => {
    const dir = tree({
      'a.sh': [
        'rm -rf "$A/" # shellgate-ignore destructive-delete/rm-recursive-unset-variable -- A is set by the caller',
        '# shellgate-ignore destructive-delete -- B is checked above',
        'rm -rf "$B/"',
        '# shellgate-ignore download-exec -- wrong rule',
        'rm -rf "$C/"',
        'rm -rf "$D/"',
        '',
      ].join('\n'),
    });
    const r = json(dir);
    expect(r.findings.filter((f) => f.rule === 'destructive-delete/rm-recursive-unset-variable').map((f) => f.line)).toEqual([5, 6]);
    expect(r.summary.suppressed).toBe(2);
  });
});

describe('baseline', () => {
  it('reports only findings not in the baseline; moving code keeps them known', () => {
    const dir = tree({ 'a.sh': 'rm -rf "$A/"\nssh h uptime\n' });
    const w = lint(dir, '--write-baseline', 'base.json');
    expect(w.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8')).findings).toHaveLength(2);
    expect(lint(dir, '--baseline', 'base.json').code).toBe(0);
    writeFileSync(join(dir, 'a.sh'), '# a new first line\n\nrm -rf "$A/"\nssh h uptime\nrm -rf "$B/"\n');
    const r = json(dir, '--baseline', 'base.json');
    expect(r.findings.map((f) => [f.line, f.rule])).toEqual([[5, 'destructive-delete/rm-recursive-unset-variable']]);
    expect(r.summary.baselined).toBe(2);
  });
});

describe('output formats', () => {
  const dir = tree({ 's p.sh': 'rm -rf "$A/"\nssh h uptime\n', 'ok.sh': 'echo hi\n' });

  it('SARIF 2.1.0 that validates, lists every rule and keeps fingerprints', () => {
    const r = lint(dir, '--format', 'sarif');
    const sarif = JSON.parse(r.out);
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')));
    expect(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const run = sarif.runs[0];
    const ids = run.tool.driver.rules.map((x: { id: string }) => x.id);
    expect(ids).toEqual(expect.arrayContaining(['destructive-delete/rm-recursive-unset-variable', 'parse-error', 'lint/script-injection']));
    expect(ids.length).toBeGreaterThan(250);
    for (const rule of run.tool.driver.rules) {
      expect(rule.fullDescription.text.length).toBeGreaterThan(20);
      expect(rule.help.text.length).toBeGreaterThan(20);
      expect(rule.helpUri).toMatch(/README\.md#/);
    }
    const res = run.results.find((x: { ruleId: string }) => x.ruleId === 'destructive-delete/rm-recursive-unset-variable');
    expect(res.level).toBe('error');
    expect(res.locations[0].physicalLocation.artifactLocation.uri).toBe('s%20p.sh');
    expect(res.locations[0].physicalLocation.region).toMatchObject({ startLine: 1, startColumn: 1, endLine: 1, endColumn: 13 });
    expect(run.tool.driver.rules[res.ruleIndex].id).toBe(res.ruleId);
    expect(res.partialFingerprints['shellgate/v1']).toMatch(/^[0-9a-f]{32}$/);
    // The same finding after the file gains lines above it keeps its fingerprint.
    const dir2 = tree({ 's p.sh': '\n\n# moved\nrm -rf "$A/"\nssh h uptime\n' });
    const moved = JSON.parse(lint(dir2, '--format', 'sarif').out).runs[0].results.find((x: { ruleId: string }) => x.ruleId === res.ruleId);
    expect(moved.partialFingerprints).toEqual(res.partialFingerprints);
    expect(moved.locations[0].physicalLocation.region.startLine).toBe(4);
  });

  it('GitHub annotations: error for deny, warning for ask, properties escaped', () => {
    const out = lint(dir, '--format', 'github').out.trim().split('\n');
    expect(out).toContain(
      '::error file=s p.sh,line=1,col=1,endLine=1,endColumn=13,title=shellgate destructive-delete/rm-recursive-unset-variable::' +
        json(dir).findings.find((f) => f.line === 1)!['message' as keyof Found],
    );
    expect(out.some((l) => l.startsWith('::warning file=s p.sh,line=2,col=1,'))).toBe(true);
  });

  it('JSON carries file, positions, rule, level, message and the command', () => {
    const f = json(dir).findings[0]!;
    expect(f).toMatchObject({ file: 's p.sh', line: 1, column: 1, endLine: 1, endColumn: 13, level: 'deny', command: 'rm -rf "$A/"' });
    expect(typeof (f as unknown as { message: string }).message).toBe('string');
  });

  it('text: grouped by file with the source line and a caret under the finding', () => {
    const out = lint(dir).out;
    expect(out).toContain('s p.sh\n');
    expect(out).toMatch(/ {2}1:1 +deny +.*destructive-delete\/rm-recursive-unset-variable\n +rm -rf "\$A\/"\n +\^{12}\n/);
    expect(out).toMatch(/2 findings \(1 deny, 1 ask\) in 2 files linted/);
  });

  it('--jobs gives the same findings in the same order', () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 12; i++) many[`d${i % 3}/s${i}.sh`] = `echo ${i}\nrm -rf "$V${i}/"\n`;
    const d = tree(many);
    const one = json(d).findings;
    const two = json(d, '--jobs', '3').findings;
    expect(two).toEqual(one);
    expect(one).toHaveLength(12);
  });
});
