import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gitlabCi } from '../../../src/lint/sources/gitlab-ci.js';
import { at, byOrigin } from '../../helpers/lint-source.js';

const PIPELINE = `stages: [build, deploy]
variables:
  GIT_DEPTH: "10"
default:
  image: node:20
  before_script:
    - corepack enable
.setup: &setup
  - cd frontend
  - export NODE_ENV=production
.deploy-template:
  script:
    - echo "deploying to $CI_ENVIRONMENT_NAME"
    - rsync -a dist/ "$DEPLOY_HOST:/srv/app"
build:
  stage: build
  script:
    - *setup
    - npm ci
    - |
      if [ -n "$CLEAN" ]; then
        rm -rf dist
      fi
    - "npm run build -- --mode \\"$MODE\\""
  after_script: rm -rf node_modules
pages:
  stage: deploy
  script:
    - !reference [.deploy-template, script]
    - !reference [.from-include, script]
  hooks:
    pre_get_sources_script: git config --global http.sslVerify false
`;

function extract(text = PIPELINE) {
  return gitlabCi.extract(text, '.gitlab-ci.yml');
}

describe('gitlab-ci: which files', () => {
  it('matches .gitlab-ci.yml at any depth and *.gitlab-ci.yml', () => {
    expect(gitlabCi.matches('.gitlab-ci.yml', '')).toBe(true);
    expect(gitlabCi.matches('services/api/.gitlab-ci.yaml', '')).toBe(true);
    expect(gitlabCi.matches('.gitlab/ci/rails.gitlab-ci.yml', '')).toBe(true);
    expect(gitlabCi.matches('gitlab-ci.yml.bak', '')).toBe(false);
    expect(gitlabCi.matches('.github/workflows/ci.yml', '')).toBe(false);
  });
});

describe('gitlab-ci: scripts', () => {
  it('makes one snippet per script key of jobs, hidden jobs and default; global keywords are not jobs', () => {
    expect(extract().snippets.map((s) => s.origin)).toEqual([
      'default.before_script',
      '.deploy-template.script (hidden job: a template)',
      'build.script',
      'build.after_script',
      'pages.script',
      'pages.hooks.pre_get_sources_script',
    ]);
  });

  it('joins a key’s lines into one script, anchored lists flattened, each line at its file position', () => {
    const s = byOrigin(extract().snippets, 'build.script');
    expect(s.text).toBe('cd frontend\nexport NODE_ENV=production\nnpm ci\nif [ -n "$CLEAN" ]; then\n  rm -rf dist\nfi\n\nnpm run build -- --mode "$MODE"');
    expect(s).toMatchObject({ shell: 'bash', where: 'host', cwd: '.' });
    // Lines from the anchor map to where the anchor is written.
    expect(at(PIPELINE, s, 'cd frontend')).toEqual({ line: 9, column: 5 });
    expect(at(PIPELINE, s, 'npm ci')).toEqual({ line: 19, column: 7 });
    expect(at(PIPELINE, s, 'rm -rf')).toEqual({ line: 22, column: 9 });
    // A double-quoted item: the decoded quote maps to the escaped quote's character.
    expect(at(PIPELINE, s, '"$MODE"')).toEqual({ line: 24, column: 33 });
    expect(at(PIPELINE, s, 'MODE')).toEqual({ line: 24, column: 35 });
  });

  it('reads a script given as a single string', () => {
    const s = byOrigin(extract().snippets, 'build.after_script');
    expect(s.text).toBe('rm -rf node_modules');
    expect(at(PIPELINE, s, 'rm')).toEqual({ line: 25, column: 17 });
  });

  it('resolves !reference to a job in the same file, and stands an unknown command for one in another file', () => {
    const s = byOrigin(extract().snippets, 'pages.script');
    expect(s.text).toBe('echo "deploying to $CI_ENVIRONMENT_NAME"\nrsync -a dist/ "$DEPLOY_HOST:/srv/app"\n${SHELLGATE_GITLAB_REFERENCE}');
    expect(at(PIPELINE, s, 'rsync')).toEqual({ line: 14, column: 7 });
    expect(at(PIPELINE, s, '${SHELLGATE_GITLAB_REFERENCE}')).toEqual({ line: 30, column: 7 });
  });

  it('reads the runner hook pre_get_sources_script', () => {
    const s = byOrigin(extract().snippets, 'pages.hooks.pre_get_sources_script');
    expect(at(PIPELINE, s, 'http.sslVerify')).toEqual({ line: 32, column: 49 });
  });

  it('leaves $VARS for the shell', () => {
    const s = byOrigin(extract().snippets, '.deploy-template.script (hidden job: a template)');
    expect(s.text).toContain('"$DEPLOY_HOST:/srv/app"');
  });

  it('reads a script merged in with <<: once, where it is written', () => {
    const text = `.base: &base
  before_script:
    - apt-get update -qq
test:
  <<: *base
  script: make test
lint:
  <<: *base
  script:
    - make lint
`;
    expect(extract(text).snippets.map((s) => s.origin)).toEqual(['.base.before_script (hidden job: a template)', 'test.script', 'lint.script']);
  });

  it('reads the deprecated top-level before_script and after_script', () => {
    const text = 'before_script:\n  - source ./env.sh\nafter_script: echo done\njob:\n  script: make\n';
    expect(extract(text).snippets.map((s) => [s.origin, s.text])).toEqual([
      ['before_script', 'source ./env.sh'],
      ['after_script', 'echo done'],
      ['job.script', 'make'],
    ]);
  });

  it('reads a file with a spec header, and replaces $[[ inputs ]] by an unknown word at the interpolation', () => {
    const text = `spec:
  inputs:
    target:
      default: dist
---
clean:
  script:
    - rm -rf $[[ inputs.target ]]/cache
`;
    const { snippets, findings } = extract(text);
    expect(findings).toEqual([]);
    const [s] = snippets;
    expect(s!.text).toBe('rm -rf ${SHELLGATE_GITLAB_INPUT_1}/cache');
    expect(at(text, s!, '${SHELLGATE')).toEqual({ line: 8, column: 14 });
    expect(at(text, s!, '/cache')).toEqual({ line: 8, column: 34 });
  });
});

describe('gitlab-ci: robustness', () => {
  it('reports a YAML syntax error as an unreadable file', () => {
    const { snippets, findings } = extract('build:\n  script:\n    - "unterminated\n');
    expect(snippets).toEqual([]);
    expect(findings.map((f) => [f.rule, f.level])).toEqual([['lint/unreadable-file', 'ask']]);
  });

  it('does not loop on a list that holds an alias to itself or a self-reference', () => {
    const text = 'a:\n  script: &x\n    - echo\n    - *x\nb:\n  script: !reference [b, script]\n';
    const { snippets, findings } = extract(text);
    expect(findings).toEqual([]);
    expect(snippets.map((s) => s.origin)).toEqual(['a.script', 'b.script']);
    // The self-reference cannot be resolved: it stands as an unknown command.
    expect(snippets[1]!.text).toBe('${SHELLGATE_GITLAB_REFERENCE}');
  });

  it('never throws, and keeps offsets inside the file', () => {
    const check = (text: string) => {
      const { snippets, findings } = gitlabCi.extract(text, '.gitlab-ci.yml');
      for (const s of snippets) {
        expect(s.offsets.length).toBe(s.text.length + 1);
        for (const o of s.offsets) expect(o >= 0 && o <= text.length).toBe(true);
      }
      for (const f of findings) expect(f.start >= 0 && f.end <= text.length && f.start <= f.end).toBe(true);
      expect(findings.every((f) => f.rule !== 'lint/unreadable-file' || !/TypeError|RangeError/.test(f.message))).toBe(true);
    };
    fc.assert(
      fc.property(fc.string(), (t) => check(t)),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: PIPELINE.length }), fc.integer({ min: 0, max: 20 }), fc.string({ maxLength: 8 }), (at, del, ins) =>
        check(PIPELINE.slice(0, at) + ins + PIPELINE.slice(at + del)),
      ),
      { numRuns: 500 },
    );
  });
});
