/**
 * Project configuration of tools other than git that run code on "read-only" subcommands. These
 * tools (hg, bundler, rails, vagrant, yarn, pnpm) are not installed here, so the cases follow
 * their documentation; cargo and terraform are also proven against the real tools in
 * proof.test.ts.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer, type Analyzer } from '../../../src/index.js';
import { parseToml } from '../../../src/ops/project-config/toml.js';
import { parseHgrc } from '../../../src/ops/project-config/hg.js';

let analyzer: Analyzer;
beforeAll(async () => {
  analyzer = await createAnalyzer({ cacheSize: 0 });
});

const temp = (name: string) => mkdtempSync(join(tmpdir(), `sg-tools-${name}-`));

function files(tree: Record<string, string>): string {
  const root = temp('tree');
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function run(command: string, cwd: string, home = temp('home'), env: Record<string, string> = {}) {
  const v = analyzer.analyze(command, { cwd, workspaceRoots: [cwd], home, env });
  return {
    level: v.level,
    code: v.findings
      .filter((f) => f.rule === 'repo-code')
      .map((f) => f.message)
      .join('\n'),
  };
}

describe('cargo', () => {
  it('finds .cargo/config(.toml) in every parent and $CARGO_HOME, in any TOML spelling', () => {
    const root = files({ '.cargo/config': 'build = { rustc-wrapper = "./w" }\n', 'crate/Cargo.toml': '' });
    expect(run('cargo tree', join(root, 'crate')).code).toContain(`build.rustc-wrapper = "./w" in ${root}/.cargo/config`);
    const home = files({ '.cargo/config.toml': "[build]\n'rustc' = '/opt/evil'\n" });
    expect(run('cargo metadata', files({ 'Cargo.toml': '' }), home).code).toContain('build.rustc = "/opt/evil"');
    expect(run('cargo metadata', files({ 'Cargo.toml': '' }), temp('h'), { CARGO_HOME: join(home, '.cargo') }).level).toBe('ask');
  });
  it('lets sccache through and commands that do not query rustc', () => {
    const root = files({ '.cargo/config.toml': '[build]\nrustc-wrapper = "sccache"\n' });
    expect(run('cargo metadata', root).level).toBe('allow');
    const evil = files({ '.cargo/config.toml': '[build]\nrustc-wrapper = "./w"\n' });
    for (const c of ['cargo pkgid', 'cargo locate-project', 'cargo metadata --no-deps', 'cargo version']) expect(run(c, evil).level, c).toBe('allow');
  });
  it('reads --config and the RUSTC variables the line sets; asks for TOML it cannot read', () => {
    const root = files({ 'Cargo.toml': '' });
    expect(run('cargo --config \'build.rustc-wrapper="./w"\' tree', root).code).toContain('the command line (--config)');
    expect(run('RUSTC_WRAPPER=./w cargo tree', root).code).toContain('RUSTC_WRAPPER');
    // (cargo metadata: cargo tree asks anyway, it may update the registry index)
    expect(run('cargo metadata', root, temp('h'), { RUSTC_WRAPPER: '/usr/bin/sccache' }).level).toBe('allow');
    expect(run('cargo tree', files({ '.cargo/config.toml': '[build\n' })).code).toContain('cannot read');
  });
  it('names a rust-toolchain.toml path toolchain for every subcommand', () => {
    const root = files({ 'rust-toolchain.toml': '[toolchain]\npath = "/somewhere"\n', 'x/y': '' });
    expect(run('cargo version', join(root, 'x')).code).toContain('toolchain.path');
    expect(run('cargo version', files({ 'rust-toolchain': 'nightly-2024-01-01\n' })).level).toBe('allow');
  });
});

describe('TOML keys', () => {
  it('reads tables, dotted and quoted keys, inline tables, arrays and multi-line strings', () => {
    const p = parseToml('a.b = 1\n[t."x.y"]\nk = """\nmulti\nline"""\n[[arr]]\nv = [1, [2, 3], {z = "q"}]\ninline = { deep = { x = \'lit\' } }\n# c\n');
    expect(p.error).toBeNull();
    expect(p.entries.map((e) => e.path.join('.'))).toEqual(['a.b', 't.x.y.k', 'arr.v.z', 'arr.v', 'arr.inline.deep.x', 'arr.inline.deep', 'arr.inline']);
    expect(p.entries.find((e) => e.path.join('.') === 't.x.y.k')?.value).toBe('multi\nline');
  });
  it('reports what it cannot read', () => {
    expect(parseToml('x = "open\n').error).not.toBeNull();
    expect(parseToml('x = 1 y = 2\n').error).not.toBeNull();
  });
});

describe('terraform and tofu', () => {
  it('name provider binaries in the data directory for commands that start providers', () => {
    const root = files({ '.terraform/providers/registry.terraform.io/x/y/1.0.0/linux_amd64/terraform-provider-y': '', 'main.tf': '' });
    for (const c of [
      'terraform validate',
      'terraform graph',
      'terraform providers schema -json',
      'terraform show',
      'tofu validate',
      'terraform state show x',
    ]) {
      expect(run(c, root).code, c).toContain(`${root}/.terraform/providers`);
    }
    for (const c of ['terraform output', 'terraform version', 'terraform state list', 'terraform workspace list', 'terraform providers'])
      expect(String(run(c, root).code), c).toBe(''); // they ask only for terraform's checkpoint write (its spec's `writes`)
    expect(String(run('terraform validate', files({ 'main.tf': '' })).code)).toBe('');
  });
  it('follow -chdir, TF_DATA_DIR and the CLI configuration', () => {
    const root = files({
      'stack/.terraform/providers/p': '',
      'data/providers/p': '',
      'dev.tfrc': 'provider_installation {\n dev_overrides { "a/b" = "/x" }\n}\n',
    });
    expect(run('terraform -chdir=stack validate', root).level).toBe('ask');
    expect(run('TF_DATA_DIR=data terraform validate', root).code).toContain(`${root}/data/providers`);
    expect(run('TF_CLI_CONFIG_FILE=dev.tfrc terraform validate', root).code).toContain('dev_overrides');
    const home = files({ '.terraformrc': '# dev_overrides are off\ncredentials_helper "x" {}\n' });
    expect(run('terraform output', files({ 'main.tf': '' }), home).code).toContain('credentials_helper');
    expect(String(run('terraform validate', files({ 'main.tf': '' }), home).code)).toBe('');
  });
});

describe('mercurial', () => {
  const repo = (hgrc: string) => files({ '.hg/hgrc': hgrc, 'sub/x': '' });
  it('extensions load for every command; bundled ones by name do not count', () => {
    expect(run('hg status', repo('[extensions]\nevil = ../evil.py\n')).code).toContain('[extensions] evil');
    expect(run('hg log', repo('[extensions]\nrebase =\nhistedit =\nmq = !\n')).level).toBe('allow');
    expect(run('hg st', join(repo('[extensions]\nunknownext =\n'), 'sub')).level).toBe('ask');
  });
  it('hooks named after the command, aliases that shadow it, the pager', () => {
    const r = repo('[hooks]\npre-status = touch /tmp/x\npost-log.audit = ./audit\n[alias]\ndiff = !./evil\n[pager]\npager = ./page\n');
    expect(run('hg st', r).code).toContain('[hooks] pre-status');
    expect(run('hg log | cat', r).code).toContain('[hooks] post-log.audit');
    expect(run('hg diff | cat', r).code).toContain('[alias] diff');
    expect(run('hg summary', r).code).toContain('[pager] pager');
    expect(run('hg summary | cat', r).level).toBe('allow');
    expect(run('hg incoming', repo('[ui]\nssh = ./fake-ssh\n')).code).toContain('[ui] ssh');
  });
  it('follows %include, -R, --cwd and --config', () => {
    const r = files({ '.hg/hgrc': '%include ../extra.rc\n', 'extra.rc': '[hooks]\npre-status = x\n' });
    expect(run('hg status', r).code).toContain(`${r}/extra.rc`);
    const other = temp('cwd');
    expect(run(`hg -R ${r} status`, other).level).toBe('ask');
    expect(run(`hg --cwd ${r} status`, other).level).toBe('ask');
    expect(run('hg --config extensions.x=/tmp/x.py status', other).code).toContain('the command line (--config)');
    expect(run('hg --config ui.color=always status', other).level).toBe('allow');
  });
  it('reads hgrc syntax: continuation lines, comments, %unset', () => {
    expect(parseHgrc('[a]\nk = one\n  two\n# c\n%unset k\n').items).toEqual([{ section: 'a', key: 'k', value: 'one\ntwo' }]);
  });
});

describe('jujutsu', () => {
  it('pager, external diff tools and signing programs from .jj/repo/config.toml', () => {
    const r = files({
      '.jj/repo/config.toml': '[ui]\npager = ["sh", "-c", "x"]\ndiff-formatter = "difft"\n[merge-tools.difft]\nprogram = "./difft"\n',
      'src/x': '',
    });
    const code = run('jj diff', join(r, 'src')).code;
    for (const k of ['ui.pager', 'ui.diff-formatter', 'merge-tools.difft.program']) expect(code).toContain(k);
    expect(run('jj log | cat', r).code).not.toContain('ui.pager');
    expect(run('jj log', files({ '.jj/repo/config.toml': '[ui]\npager = "less -FRX"\ndiff-formatter = ":git"\n' })).level).toBe('allow');
  });
});

describe('Ruby project tools', () => {
  it('bundler evaluates the Gemfile found upwards, or BUNDLE_GEMFILE', () => {
    const root = files({ Gemfile: 'system("x")\n', 'app/x': '' });
    for (const c of ['bundle list', 'bundle check', 'bundle show rails', 'bundler outdated'])
      expect(run(c, join(root, 'app')).code, c).toContain(`${root}/Gemfile`);
    expect(run('bundle version', root).level).not.toBe('ask');
    const bare = temp('nogem');
    expect(run('bundle list', bare).level).toBe('allow');
    expect(run(`BUNDLE_GEMFILE=${root}/Gemfile bundle list`, bare).code).toContain('Gemfile');
  });
  it('rails runs the application it is in', () => {
    expect(run('rails routes', join(files({ 'bin/rails': '', 'app/models/x': '' }), 'app/models')).code).toContain('bin/rails');
    expect(run('rails about', temp('norails')).level).toBe('allow');
  });
  it("every vagrant command loads the Vagrantfile found upwards, VAGRANT_CWD's, and the user's", () => {
    const root = files({ Vagrantfile: 'system("x")\n', 'a/b': '' });
    expect(run('vagrant status', join(root, 'a')).code).toContain(`${root}/Vagrantfile`);
    expect(run(`VAGRANT_CWD=${root} vagrant status`, temp('elsewhere')).level).toBe('ask');
    const home = files({ '.vagrant.d/Vagrantfile': '' });
    expect(run('vagrant status', temp('none'), home).code).toContain('.vagrant.d/Vagrantfile');
    // With none found it still asks: plugins (~/.vagrant.d) and a Vagrantfile that appears before it runs are Ruby too.
    expect(run('vagrant status', temp('none')).level).toBe('ask');
  });
});

describe('JavaScript package managers', () => {
  it('yarn runs yarnPath / yarn-path and loads plugins', () => {
    expect(run('yarn why x', files({ '.yarnrc.yml': 'yarnPath: .yarn/releases/evil.cjs\n' })).code).toContain('yarnPath');
    expect(run('yarn list', files({ '.yarnrc': 'yarn-path "./evil.js"\n' })).code).toContain('yarn-path');
    expect(run('yarn why x', files({ '.yarnrc.yml': 'plugins:\n  - path: x.cjs\n' })).code).toContain('plugins');
  });
  it('pnpm loads .pnpmfile.cjs', () => {
    expect(run('pnpm ls', files({ '.pnpmfile.cjs': 'module.exports = {}\n' })).code).toContain('.pnpmfile.cjs');
    expect(run('pnpm ls', files({ 'package.json': '{}' })).level).toBe('allow');
  });
  it('npm help opens pages with the viewer an .npmrc names', () => {
    expect(run('npm help ls', files({ '.npmrc': 'viewer=./evil\n' })).code).toContain('viewer');
    expect(String(run('npm help ls', files({ '.npmrc': 'viewer=man\n' })).code)).toBe(''); // asks for npm's logs only
  });
});
