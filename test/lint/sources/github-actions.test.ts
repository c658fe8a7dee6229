import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LINT_RULES } from '../../../src/lint/lint-rules.js';
import { LineIndex } from '../../../src/lint/source-text.js';
import { githubActions, shellName } from '../../../src/lint/sources/github-actions.js';
import { untrustedContext } from '../../../src/lint/sources/github-contexts.js';
import { at, byOrigin } from '../../helpers/lint-source.js';

const WORKFLOW = `name: CI
on:
  pull_request_target:
    types: [opened, synchronize]
defaults:
  run:
    working-directory: app
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Install deps
        run: |
          npm ci
          rm -rf node_modules/.cache \\
            dist
      - id: greet
        run: echo "Building \${{ github.event.pull_request.title }} at \${{ github.sha }}"
      - name: Safe title
        env:
          TITLE: \${{ github.event.pull_request.title }}
        shell: bash --noprofile --norc -eo pipefail {0}
        working-directory: ./tools/
        run: >-
          echo "$TITLE"
          && rm -f out.txt
      - uses: actions/github-script@v7
        with:
          script: |
            const body = \`\${{ github.event.comment.body }}\`
  windows:
    runs-on: [self-hosted, Windows, x64]
    defaults:
      run:
        working-directory: win
    steps:
      - run: Remove-Item -Recurse build
      - shell: cmd
        run: 'del /q build'
`;

function extract(text = WORKFLOW, path = '.github/workflows/ci.yml') {
  return githubActions.extract(text, path);
}

describe('github-actions: which files', () => {
  it('matches workflows at any depth and composite action metadata', () => {
    expect(githubActions.matches('.github/workflows/ci.yml', '')).toBe(true);
    expect(githubActions.matches('sub/project/.github/workflows/release.yaml', '')).toBe(true);
    expect(githubActions.matches('.github/actions/setup/action.yml', '')).toBe(true);
    expect(githubActions.matches('action.yaml', '')).toBe(true);
    expect(githubActions.matches('.github/workflows/README.md', '')).toBe(false);
    expect(githubActions.matches('.github/workflows/nested/x.yml', '')).toBe(false);
    expect(githubActions.matches('config/ci.yml', '')).toBe(false);
  });
});

describe('github-actions: run steps', () => {
  it('makes one snippet per run step, named by step name or id', () => {
    const { snippets } = extract();
    expect(snippets.map((s) => s.origin)).toEqual([
      'jobs.build.steps[1] (Install deps).run',
      'jobs.build.steps[2] (greet).run',
      'jobs.build.steps[3] (Safe title).run',
      'jobs.windows.steps[0].run',
      'jobs.windows.steps[1].run',
    ]);
  });

  it('maps block-scalar lines, continuations included, to their file positions', () => {
    const s = byOrigin(extract().snippets, 'jobs.build.steps[1] (Install deps).run');
    expect(s.text).toBe('npm ci\nrm -rf node_modules/.cache \\\n  dist\n');
    expect(at(WORKFLOW, s, 'rm')).toEqual({ line: 16, column: 11 });
    expect(at(WORKFLOW, s, 'dist')).toEqual({ line: 17, column: 13 });
  });

  it('maps a folded scalar (>-) with its line break read as a space', () => {
    const s = byOrigin(extract().snippets, 'jobs.build.steps[3] (Safe title).run');
    expect(s.text).toBe('echo "$TITLE" && rm -f out.txt');
    expect(at(WORKFLOW, s, 'rm')).toEqual({ line: 27, column: 14 });
  });

  it('takes the shell from the step, a custom command line by its program, and working-directory under the repo root', () => {
    const { snippets } = extract();
    const install = byOrigin(snippets, 'jobs.build.steps[1] (Install deps).run');
    expect(install).toMatchObject({ shell: 'bash', where: 'host', cwd: '../../app' });
    const safe = byOrigin(snippets, 'jobs.build.steps[3] (Safe title).run');
    expect(safe).toMatchObject({ shell: 'bash', cwd: '../../tools' });
  });

  it('runs steps of a windows runner under pwsh unless the step says otherwise; job defaults override workflow defaults', () => {
    const { snippets } = extract();
    expect(byOrigin(snippets, 'jobs.windows.steps[0].run')).toMatchObject({ shell: 'pwsh', cwd: '../../win' });
    expect(byOrigin(snippets, 'jobs.windows.steps[1].run')).toMatchObject({ shell: 'cmd', text: 'del /q build' });
  });

  it('uses the repo root when no working-directory is set, and defaults.run.shell', () => {
    const text = 'on: push\ndefaults:\n  run:\n    shell: sh\njobs:\n  a:\n    runs-on: ${{ matrix.os }}\n    steps:\n      - run: make\n';
    expect(extract(text).snippets[0]).toMatchObject({ shell: 'sh', cwd: '../..', text: 'make' });
    const noShell = 'on: push\njobs:\n  a:\n    runs-on: ${{ matrix.os }}\n    steps:\n      - run: make\n        working-directory: ${{ inputs.dir }}\n';
    const s = extract(noShell).snippets[0]!;
    expect(s.shell).toBe('bash');
    expect(s.cwd).toBeUndefined();
  });

  it('reads custom shell forms by program base name', () => {
    expect(shellName('bash {0}')).toBe('bash');
    expect(shellName('sh -e {0}')).toBe('sh');
    expect(shellName('python {0}')).toBe('python');
    expect(shellName('/usr/bin/perl -w {0}')).toBe('perl');
    expect(shellName('powershell')).toBe('powershell');
    expect(shellName('${{ matrix.shell }}')).toBe('${{ matrix.shell }}');
  });

  it('reads composite action steps, in an unknown workspace, with their own shell', () => {
    const action = `name: Setup
inputs:
  version:
    required: true
runs:
  using: composite
  steps:
    - name: Fetch
      shell: bash
      run: |
        curl -fsSL "https://example.com/\${{ inputs.version }}/install.sh" | sh
    - shell: python
      run: print("hi")
`;
    const { snippets, findings } = githubActions.extract(action, '.github/actions/setup/action.yml');
    expect(findings).toEqual([]);
    expect(snippets.map((s) => [s.origin, s.shell, s.cwd])).toEqual([
      ['runs.steps[0] (Fetch).run', 'bash', undefined],
      ['runs.steps[1].run', 'python', undefined],
    ]);
    expect(at(action, snippets[0]!, 'curl')).toEqual({ line: 11, column: 9 });
  });
});

describe('github-actions: ${{ }} expressions', () => {
  it('replaces each expression by a variable reference mapped onto the whole expression', () => {
    const s = byOrigin(extract().snippets, 'jobs.build.steps[2] (greet).run');
    expect(s.text).toBe('echo "Building ${SHELLGATE_GHA_EXPR_1} at ${SHELLGATE_GHA_EXPR_2}"');
    expect(at(WORKFLOW, s, '${SHELLGATE_GHA_EXPR_2}')).toEqual({ line: 19, column: 71 });
    // The end of the substitute is the end of the expression: the `at` after it is in place again.
    expect(at(WORKFLOW, s, '"', 1)).toEqual({ line: 19, column: 88 });
  });

  it('ends an expression at the first }} outside a string literal, and leaves an unterminated one as written', () => {
    const run = (code: string) => `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ${code}\n`;
    expect(extract(run("echo ${{ format('}}{0}', matrix.x) }} done")).snippets[0]!.text).toBe('echo ${SHELLGATE_GHA_EXPR_1} done');
    expect(extract(run('echo ${{ matrix.x')).snippets[0]!.text).toBe('echo ${{ matrix.x');
  });

  it('picks a variable name the script does not use', () => {
    const text = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: SHELLGATE_GHA_EXPR=1; echo ${{ matrix.x }}\n';
    expect(extract(text).snippets[0]!.text).toBe('SHELLGATE_GHA_EXPR=1; echo ${SHELLGATE_GHA_EXPR__1}');
  });

  it('reports an untrusted value spliced into run, at the whole expression', () => {
    const { findings } = extract();
    const lines = new LineIndex(WORKFLOW);
    const inRun = findings.filter((f) => f.message.includes('github.event.pull_request.title'));
    expect(inRun).toHaveLength(1);
    expect(inRun[0]).toMatchObject({ rule: 'lint/script-injection', level: 'deny' });
    expect(lines.position(inRun[0]!.start)).toEqual({ line: 19, column: 29 });
    expect(WORKFLOW.slice(inRun[0]!.start, inRun[0]!.end)).toBe('${{ github.event.pull_request.title }}');
  });

  it('does not report the same value passed through env, nor trusted contexts', () => {
    const { findings } = extract();
    expect(findings.map((f) => new LineIndex(WORKFLOW).lineOf(f.start))).toEqual([19, 31]);
  });

  it('reports the splice into an actions/github-script script as JavaScript injection', () => {
    const f = extract().findings.find((x) => x.message.includes('github-script'))!;
    expect(f.message).toContain('github.event.comment.body');
    expect(new LineIndex(WORKFLOW).position(f.start)).toEqual({ line: 31, column: 27 });
  });

  it('finds the rule example of lint-rules at its stated position', () => {
    const text = 'on: issues\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.issue.title }}"\n';
    const [f] = extract(text, '.github/workflows/triage.yml').findings;
    expect(new LineIndex(text).position(f!.start)).toEqual({ line: 6, column: 20 });
  });

  it('finds each lint-rules example of lint/script-injection at its stated position, and none where it says none', () => {
    for (const ex of LINT_RULES['lint/script-injection'].examples) {
      expect(githubActions.matches(ex.path, '')).toBe(true);
      const found = githubActions.extract(ex.text, ex.path).findings.filter((f) => f.rule === 'lint/script-injection');
      if (ex.at === null) expect(found).toEqual([]);
      else expect(found.map((f) => new LineIndex(ex.text).position(f.start))).toEqual([ex.at]);
    }
  });

  it('does not flag composite action inputs', () => {
    const action = 'runs:\n  using: composite\n  steps:\n    - shell: bash\n      run: echo ${{ inputs.title }} ${{ github.event.issue.title }}\n';
    const { findings } = githubActions.extract(action, 'action.yml');
    expect(findings.map((f) => f.message.match(/\(([^)]*)\)/)?.[1])).toEqual(['github.event.issue.title']);
  });
});

describe('github-contexts: untrusted contexts', () => {
  it.each([
    ['github.event.issue.title', 'github.event.issue.title'],
    ["github.event.issue.title || 'x'", 'github.event.issue.title'],
    ['toJSON(github.event.pull_request)', 'github.event.pull_request'],
    ["format('{0}', github.head_ref)", 'github.head_ref'],
    ["github.event['pull_request']['title']", 'github.event.pull_request.title'],
    ['GitHub.Event.Issue.Body', 'github.event.issue.body'],
    ['github.event.commits[0].message', 'github.event.commits.*.message'],
    ['github.event.commits.*.author.email', 'github.event.commits.*.author.email'],
    ['github.event.pull_request.head.ref', 'github.event.pull_request.head.ref'],
    ['github.event.workflow_run.pull_requests[0].head.branch', 'github.event.workflow_run.pull_requests.*.head.branch'],
    ['github.event.check_suite.head_branch', 'github.event.check_suite.head_branch'],
    ['toJSON(github.event)', 'github.event'],
    ['toJSON(github)', 'github'],
  ])('%s reads %s', (expr, path) => {
    expect(untrustedContext(expr)).toBe(path);
  });

  it.each([
    'github.ref',
    'github.ref_name',
    'github.sha',
    'github.event.pull_request.number',
    'github.event.pull_request.head.sha',
    'github.event.pull_request.user.login',
    'github.event.repository.description',
    'inputs.title',
    'github.event.inputs.title',
    'env.TITLE',
    'steps.meta.outputs.title',
    "'github.event.issue.title'",
    "contains(github.event.pull_request.labels.*.name, 'ok')",
    'matrix.os',
  ])('%s is not untrusted', (expr) => {
    expect(untrustedContext(expr)).toBeUndefined();
  });
});

describe('github-actions: robustness', () => {
  it('reports a YAML syntax error as an unreadable file', () => {
    const { snippets, findings } = extract('jobs:\n  a:\n    steps: [\n', '.github/workflows/x.yml');
    expect(snippets).toEqual([]);
    expect(findings.map((f) => f.rule)).toEqual(['lint/unreadable-file']);
  });

  it('never throws, and keeps offsets inside the file', () => {
    const check = (text: string) => {
      const { snippets, findings } = githubActions.extract(text, '.github/workflows/x.yml');
      for (const s of snippets) {
        expect(s.offsets.length).toBe(s.text.length + 1);
        for (const o of s.offsets) expect(o >= 0 && o <= text.length).toBe(true);
      }
      for (const f of findings) expect(f.start >= 0 && f.end <= text.length && f.start <= f.end).toBe(true);
      expect(findings.every((f) => f.rule !== 'lint/unreadable-file' || !f.message.includes('TypeError'))).toBe(true);
    };
    fc.assert(
      fc.property(fc.string(), (t) => check(t)),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: WORKFLOW.length }), fc.integer({ min: 0, max: 20 }), fc.string({ maxLength: 8 }), (at, del, ins) =>
        check(WORKFLOW.slice(0, at) + ins + WORKFLOW.slice(at + del)),
      ),
      { numRuns: 500 },
    );
  });
});

describe('github-actions: expressions inside single quotes', () => {
  it('stay unknown: GitHub pastes the value before the shell reads the quotes, so they are closed around it', () => {
    const file = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: rm -rf '${{ matrix.dir }}/'\n";
    const s = githubActions.extract(file, '.github/workflows/x.yml').snippets[0]!;
    expect(s.text).toMatch(/^rm -rf ''"\$\{\w+_1\}"'\/'$/);
    expect(at(file, s, '/')).toEqual({ line: 6, column: 39 });
  });
});
