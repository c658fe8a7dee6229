/**
 * Launchers that read the project before their argv (issue 27, class 5): a help or version
 * shortcut never skips the repository's code — `mvn -v` with `.mvn/jvm.config`, `rustc --version`
 * under a `rust-toolchain.toml` with a path, `yarn --version` with `yarnPath` in any YAML spelling,
 * `ng version` with the project's own @angular/cli. Each workspace is a temporary directory.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer, type Analyzer } from '../../../src/index.js';

let analyzer: Analyzer;
const made: string[] = [];
beforeAll(async () => {
  analyzer = await createAnalyzer({ cacheSize: 0 });
});
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'sg-launch-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function run(command: string, cwd: string, env: Record<string, string> = {}) {
  const home = tree({});
  const v = analyzer.analyze(command, { cwd, workspaceRoots: [cwd], home, env });
  return { level: v.level, rules: v.findings.map((f) => f.rule), code: v.findings.filter((f) => f.rule === 'repo-code').map((f) => f.message) };
}

describe('maven', () => {
  it('asks for mvn -v when .mvn holds JVM options, options or extensions, found upwards', () => {
    for (const file of ['jvm.config', 'maven.config', 'extensions.xml']) {
      const root = tree({ [`.mvn/${file}`]: '-javaagent:evil.jar\n', 'module/pom.xml': '' });
      // `mvn -v` starts the JVM like a build (hsperfdata), so it asks whatever .mvn holds; `--help` names the file
      expect(run('mvn -v', join(root, 'module')).level, file).toBe('ask');
      expect(run('mvn --help', join(root, 'module')).level, file).toBe('ask');
    }
  });
  it('asks for mvn -v in a project without them too (the JVM writes /tmp/hsperfdata_*), and when the line sets MAVEN_OPTS', () => {
    const root = tree({ 'pom.xml': '', '.mvn/wrapper/maven-wrapper.properties': '' });
    // the JVM's hsperfdata write makes every mvn ask now; what .mvn holds is named only when nothing else asks
    expect(run('mvn -v', root).level).toBe('ask');
    expect(run('MAVEN_OPTS=-javaagent:x.jar mvn -v', root).level).toBe('ask');
  });
});

describe('rustup proxies', () => {
  it('asks for rustc --version under a toolchain file with a path, from a subdirectory', () => {
    const root = tree({ 'rust-toolchain.toml': '[toolchain]\npath = "./tc"\n', 'src/x.rs': '' });
    expect(run('rustc --version', join(root, 'src')).code.join()).toContain('toolchain.path');
    expect(run('rustup --version', root).level).toBe('ask');
  });
  it('asks for a channel that is not a release, in either file', () => {
    expect(run('rustc -V', tree({ 'rust-toolchain.toml': "[toolchain]\nchannel = '../evil'\n" })).level).toBe('ask');
    expect(run('rustc -V', tree({ 'rust-toolchain': '/opt/evil\n' })).level).toBe('ask');
    expect(run('rustc -V', tree({ 'rust-toolchain.toml': 'toolchain = { path = "/x" }\n' })).level).toBe('ask');
  });
  it('leaves release channels alone, and reads RUSTUP_TOOLCHAIN the line sets the same way', () => {
    expect(run('rustc --version', tree({ 'rust-toolchain.toml': '[toolchain]\nchannel = "nightly-2024-05-01"\ncomponents = ["rustfmt"]\n' })).level).toBe(
      'allow',
    );
    expect(run('rustc --version', tree({ 'rust-toolchain': 'stable\n' })).level).toBe('allow');
    const plain = tree({});
    // (a prefix assignment asks on its own as env-hijack: what matters here is the toolchain finding)
    expect(run('RUSTUP_TOOLCHAIN=1.79.0 rustc --version', plain).rules).not.toContain('repo-code');
    expect(run('RUSTUP_TOOLCHAIN=/tmp/tc rustc --version', plain).rules).toContain('repo-code');
  });
});

describe('yarn', () => {
  const spellings = {
    block: 'yarnPath: .yarn/evil.cjs\n',
    flow: '{ nodeLinker: pnp, yarnPath: .yarn/evil.cjs }\n',
    explicit: '? yarnPath\n: .yarn/evil.cjs\n',
    escaped: '"yarn\\x50ath": .yarn/evil.cjs\n',
    quoted: "'yarnPath' : .yarn/evil.cjs\n",
    tagged: '!!str yarnPath: .yarn/evil.cjs\n',
  };
  it('finds yarnPath in every YAML spelling, for yarn --version too', () => {
    for (const [name, text] of Object.entries(spellings)) {
      const v = run('yarn --version', tree({ '.yarnrc.yml': text }));
      expect(v.level, name).toBe('ask');
      expect(v.code.join(), name).toContain('yarnPath');
    }
  });
  it('asks for settings it cannot read as one plain mapping', () => {
    for (const text of ['base: &b\n  x: 1\n<<: *b\n', 'a: 1\n---\nyarnPath: x\n', '[1, 2]\n', 'a: [\n'])
      expect(run('yarn --version', tree({ '.yarnrc.yml': text })).level, text).toBe('ask');
  });
  it('leaves harmless settings alone', () => {
    expect(run('yarn --version', tree({ '.yarnrc.yml': 'nodeLinker: node-modules\nenableTelemetry: false\n' })).level).toBe('allow');
  });
  it('takes any spelling of yarn-path in a classic .yarnrc', () => {
    expect(run('yarn --version', tree({ '.yarnrc': '"yarn\\u002dpath" "./evil.js"\n' })).level).toBe('ask');
    expect(run('yarn --version', tree({ '.yarnrc': 'yarn-path "./evil.js"\n' })).level).toBe('ask');
  });
  it('asks when corepack would pick the version from package.json', () => {
    expect(run('yarn --version', tree({ 'package.json': '{"packageManager": "yarn@https://example.com/yarn.js"}' })).code.join()).toContain('packageManager');
    expect(run('pnpm --version', tree({ 'package.json': '{"package\\u004danager": "pnpm@9.0.0"}' })).level).toBe('ask');
    expect(run('yarn --version', tree({ 'package.json': '{"name": "x"}' })).level).toBe('allow');
  });
});

describe('global CLIs that run the project copy', () => {
  it('asks for ng version when node_modules/@angular/cli is there, upwards', () => {
    const root = tree({ 'node_modules/@angular/cli/package.json': '{}', 'apps/web/angular.json': '{}' });
    expect(run('ng version', join(root, 'apps/web')).code.join()).toContain('@angular/cli');
    expect(run('ng help', root).level).toBe('ask');
    expect(run('ng version', tree({ 'angular.json': '{}' })).level).toBe('allow');
  });
});
