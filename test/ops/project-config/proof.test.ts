/**
 * Proof that configuration runs code, and that shellgate says so. Each case writes configuration
 * that points a key at a marker script, runs the very command line under real bash (and the real
 * tool, offline, with a temp HOME and no system git configuration), checks that the marker ran,
 * and checks that shellgate's verdict for the same line in the same directory is not allow and
 * names the file and key. Real git is the judge: the last table runs every read-only git command
 * in a repository where every program-naming key logs, and requires shellgate to name each key
 * git actually started. Cases skip when their tool is not installed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer, type Analyzer } from '../../../src/index.js';

function installed(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}
const HAVE_GIT = installed('git');
const HAVE_SCRIPT = installed('script');

let analyzer: Analyzer;
beforeAll(async () => {
  analyzer = await createAnalyzer({ cacheSize: 0 });
});

const temp = (name: string) => mkdtempSync(join(tmpdir(), `sg-proof-${name}-`));

/** A world for one case: a home, a log, marker scripts writing their name to the log. */
function world() {
  const root = temp('world');
  const home = join(root, 'home');
  const bin = join(root, 'bin');
  mkdirSync(home);
  mkdirSync(bin);
  const log = join(root, 'log');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    LANG: 'C',
    SHELL: '/bin/bash',
    GIT_AUTHOR_NAME: 'a',
    GIT_AUTHOR_EMAIL: 'a@example.com',
    GIT_COMMITTER_NAME: 'a',
    GIT_COMMITTER_EMAIL: 'a@example.com',
  };
  /** A script that logs `name` and then behaves as `then` (shell). */
  const marker = (name: string, then = 'exit 0'): string => {
    const f = join(bin, name);
    writeFileSync(f, `#!/bin/sh\necho "${name}" >> "${log}"\n${then}\n`, { mode: 0o755 });
    return f;
  };
  const ran = (): string[] => (existsSync(log) ? [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))].sort() : []);
  /** Run a command line under bash in `cwd`; `tty` gives it a terminal (script(1)). */
  const bash = (line: string, cwd: string, opts: { tty?: boolean; env?: Record<string, string> } = {}): string[] => {
    rmSync(log, { force: true });
    const e = { ...env, ...opts.env };
    if (opts.tty) spawnSync('script', ['-qec', line, '/dev/null'], { cwd, env: e, stdio: ['ignore', 'ignore', 'ignore'], timeout: 20000 });
    else spawnSync('bash', ['-c', line], { cwd, env: e, stdio: ['ignore', 'ignore', 'ignore'], timeout: 60000 });
    return ran();
  };
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, stdio: 'ignore' });
  /** shellgate's verdict for the line, with the same home and environment. */
  const judge = (line: string, cwd: string, ctxEnv: Record<string, string> = {}) => {
    const v = analyzer.analyze(line, { cwd, workspaceRoots: [root], home, env: { GIT_CONFIG_NOSYSTEM: '1', ...ctxEnv } });
    return {
      level: v.level,
      code: v.findings
        .filter((f) => f.rule === 'repo-code')
        .map((f) => f.message)
        .join('\n'),
    };
  };
  return { root, home, bin, log, env, marker, bash, git, judge };
}

/** A real repository with one committed file `a.txt` and an uncommitted change to it. */
function gitRepo(w: ReturnType<typeof world>, name = 'repo'): string {
  const r = join(w.root, name);
  mkdirSync(r);
  w.git(r, 'init', '-q', '-b', 'main');
  writeFileSync(join(r, 'a.txt'), 'one\n');
  w.git(r, 'add', '.');
  w.git(r, 'commit', '-qm', 'one');
  writeFileSync(join(r, 'a.txt'), 'one\ntwo\n');
  return r;
}

const addConfig = (repoDir: string, text: string) => writeFileSync(join(repoDir, '.git/config'), readFileSync(join(repoDir, '.git/config'), 'utf8') + text);

describe.skipIf(!HAVE_GIT)('real git runs what its configuration names, and shellgate names it', () => {
  it('core.fsmonitor on git status', () => {
    const w = world();
    const r = gitRepo(w);
    addConfig(r, `[core]\n\tfsmonitor = ${w.marker('fsmonitor', 'exit 1')}\n`);
    expect(w.bash('git status', r)).toEqual(['fsmonitor']);
    const v = w.judge('git status', r);
    expect(v.level).not.toBe('allow');
    // The finding shows a value of over 60 characters cut to 57 and `…` (a temp root can be that long).
    const named = `${w.bin}/fsmonitor`;
    expect(v.code).toContain(`core.fsmonitor = "${named.length > 60 ? named.slice(0, 57) + '…' : named}" in ${r}/.git/config`);
  });

  it('a textconv driver on git diff', () => {
    const w = world();
    const r = gitRepo(w);
    writeFileSync(join(r, '.gitattributes'), 'a.txt diff=conv\n');
    addConfig(r, `[diff "conv"]\n\ttextconv = ${w.marker('textconv', 'cat "$1"')}\n`);
    expect(w.bash('git diff', r)).toEqual(['textconv']);
    expect(w.judge('git diff', r).code).toContain('diff.conv.textconv');
  });

  it('the post-index-change hook on git status', () => {
    const w = world();
    const r = gitRepo(w);
    // git status writes the index (and so runs the hook) only when it refreshes an entry's stat
    // data: give a committed, unchanged file a new mtime so it surely must, however fast the run.
    writeFileSync(join(r, 'b.txt'), 'b\n');
    w.git(r, 'add', 'b.txt');
    w.git(r, 'commit', '-qm', 'b');
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(join(r, 'b.txt'), later, later);
    writeFileSync(join(r, '.git/hooks/post-index-change'), `#!/bin/sh\necho hook >> "${w.log}"\n`, { mode: 0o755 });
    expect(w.bash('git status', r)).toEqual(['hook']);
    expect(w.judge('git status', r).code).toContain(`${r}/.git/hooks/post-index-change`);
  });

  it('a ~/.gitconfig under the HOME the line sets', () => {
    const w = world();
    const r = gitRepo(w);
    const fake = join(w.root, 'fake-home');
    mkdirSync(fake);
    writeFileSync(join(fake, '.gitconfig'), `[core]\n\tfsmonitor = ${w.marker('fsmonitor', 'exit 1')}\n`);
    const line = `HOME=${fake} git status`;
    expect(w.bash(line, r)).toEqual(['fsmonitor']);
    expect(w.bash('git status', r)).toEqual([]);
    expect(w.judge(line, r).code).toContain(`${fake}/.gitconfig`);
    expect(w.judge('git status', r).level).toBe('allow');
  });

  it('a file include.path pulls in', () => {
    const w = world();
    const r = gitRepo(w);
    writeFileSync(join(r, 'team.gitconfig'), `[core]\n\tfsmonitor = ${w.marker('fsmonitor', 'exit 1')}\n`);
    addConfig(r, '[include]\n\tpath = ../team.gitconfig\n');
    expect(w.bash('git status', r)).toEqual(['fsmonitor']);
    expect(w.judge('git status', r).code).toContain(`${r}/team.gitconfig`);
  });

  it('GIT_CONFIG_COUNT/KEY/VALUE set on the line', () => {
    const w = world();
    const r = gitRepo(w);
    const line = `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=${w.marker('fsmonitor', 'exit 1')} git status`;
    expect(w.bash(line, r)).toEqual(['fsmonitor']);
    expect(w.judge(line, r).code).toContain('core.fsmonitor');
  });

  it('man.<tool>.cmd on git help TOPIC and git CMD --help', () => {
    const w = world();
    const r = gitRepo(w);
    addConfig(r, `[man]\n\tviewer = mine\n[man "mine"]\n\tcmd = ${w.marker('viewer')}\n`);
    for (const line of ['git help log', 'git log --help']) {
      expect(w.bash(line, r), line).toEqual(['viewer']);
      expect(w.judge(line, r).code, line).toContain('man.mine.cmd');
    }
    expect(w.judge('git help -a | cat', r).level).toBe('allow');
  });

  it("a submodule's configuration on the superproject's git status", () => {
    const w = world();
    const lib = gitRepo(w, 'lib');
    w.git(lib, 'commit', '-qam', 'two');
    const top = gitRepo(w, 'top');
    w.git(top, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'lib');
    w.git(top, 'commit', '-qm', 'sub');
    writeFileSync(join(top, 'lib/a.txt'), 'changed\n');
    execFileSync('git', ['config', '-f', join(top, '.git/modules/lib/config'), 'core.fsmonitor', w.marker('fsmonitor', 'exit 1')]);
    expect(w.bash('git status', top)).toEqual(['fsmonitor']);
    expect(w.judge('git status', top).code).toContain(`${top}/.git/modules/lib/config`);
  });

  it.skipIf(!HAVE_SCRIPT)('core.pager on a terminal, from a bare repository -C names; not when output is piped', () => {
    const w = world();
    const r = gitRepo(w);
    w.git(w.root, 'clone', '-q', '--bare', r, 'evil.git');
    execFileSync('git', ['config', '-f', join(w.root, 'evil.git/config'), 'core.pager', w.marker('pager', 'cat > /dev/null')]);
    expect(w.bash('git -C evil.git log', w.root, { tty: true })).toEqual(['pager']);
    expect(w.judge('git -C evil.git log', w.root).code).toContain(`core.pager = "${w.bin}/pager" in ${w.root}/evil.git/config`);
    expect(w.bash('git -C evil.git log | cat', w.root, { tty: true })).toEqual([]);
    expect(w.judge('git -C evil.git log | cat', w.root).level).toBe('allow');
  });

  it('every key real git starts on a read-only command is one shellgate names', () => {
    const w = world();
    const r = gitRepo(w);
    writeFileSync(join(r, '.gitattributes'), 'a.txt diff=drv filter=flt\n');
    w.git(r, 'add', '.gitattributes');
    w.git(r, 'commit', '-qm', 'attributes');
    // A commit and a tag carrying signatures, so that checking them calls gpg.program.
    const head = execFileSync('git', ['cat-file', 'commit', 'HEAD'], { cwd: r, env: w.env, encoding: 'utf8' });
    const signed = head.replace(/^(committer .*)$/m, '$1\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----');
    const id = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: r, env: w.env, input: signed, encoding: 'utf8' }).trim();
    w.git(r, 'update-ref', 'refs/heads/signed', id);
    const tag = `object ${id}\ntype commit\ntag t\ntagger a <a@example.com> 0 +0000\n\nm\n-----BEGIN PGP SIGNATURE-----\n\n-----END PGP SIGNATURE-----\n`;
    const tagId = execFileSync('git', ['hash-object', '-t', 'tag', '-w', '--stdin'], { cwd: r, env: w.env, input: tag, encoding: 'utf8' }).trim();
    w.git(r, 'update-ref', 'refs/tags/t', tagId);
    writeFileSync(join(r, '.git/hooks/post-index-change'), `#!/bin/sh\necho post-index-change >> "${w.log}"\n`, { mode: 0o755 });
    addConfig(
      r,
      [
        '[core]',
        `\tfsmonitor = ${w.marker('fsmonitor', 'exit 1')}`,
        `\tpager = ${w.marker('pager', 'cat > /dev/null')}`,
        `[diff "drv"]\n\ttextconv = ${w.marker('textconv', 'cat "$1"')}`,
        `[filter "flt"]\n\tclean = ${w.marker('clean', 'cat')}\n\tsmudge = ${w.marker('smudge', 'cat')}`,
        `[gpg]\n\tprogram = ${w.marker('gpg', 'cat > /dev/null; exit 1')}`,
        `[credential]\n\thelper = ${w.marker('credential')}`,
        `[core]\n\tsshCommand = ${w.marker('ssh', 'exit 1')}\n\teditor = ${w.marker('editor')}`,
        '',
      ].join('\n'),
    );
    const key: Record<string, string> = {
      fsmonitor: 'core.fsmonitor',
      pager: 'core.pager',
      textconv: 'diff.drv.textconv',
      clean: 'filter.flt.clean',
      smudge: 'filter.flt.smudge',
      gpg: 'gpg.program',
      'post-index-change': 'post-index-change hook',
    };
    const commands = [
      'git status',
      'git status --porcelain',
      'git log',
      'git log -p',
      'git log --stat',
      'git log -1 --show-signature signed',
      'git log --format=%G? -1 signed',
      'git show',
      'git show HEAD:a.txt',
      'git diff',
      'git diff HEAD~1 HEAD',
      'git diff --cached',
      'git diff-files -p',
      'git diff-index -p HEAD',
      'git diff-tree -p HEAD',
      'git blame a.txt',
      'git archive HEAD',
      'git cat-file -p HEAD',
      'git cat-file -p :a.txt',
      'git cat-file --textconv HEAD:a.txt',
      'git cat-file --filters HEAD:a.txt',
      'git check-attr -a a.txt',
      'git check-ignore x',
      'git count-objects',
      'git describe --always --dirty',
      'git for-each-ref',
      'git fsck',
      'git grep one',
      'git grep --textconv one',
      'git hash-object a.txt',
      'git ls-files',
      'git ls-tree HEAD',
      'git reflog',
      'git rev-list HEAD',
      'git rev-parse HEAD',
      'git shortlog HEAD',
      'git show-ref',
      'git submodule status',
      'git verify-commit signed',
      'git verify-tag t',
      'git whatchanged',
      'git worktree list',
      'git branch --list',
      'git tag -l',
      'git stash list',
      'git config --list',
      'git help -a',
    ];
    const missed: string[] = [];
    let started = 0;
    for (const c of commands) {
      const ranKeys = w.bash(`touch a.txt; ${c}`, r, { tty: HAVE_SCRIPT });
      started += ranKeys.length;
      const named = w.judge(c, r).code;
      for (const m of ranKeys) if (!named.includes(key[m] ?? m)) missed.push(`${c}: ${m}`);
    }
    expect(missed).toEqual([]);
    expect(started).toBeGreaterThan(40); // the table really exercised git
  });

  it('a clean repository: real git runs nothing and shellgate allows', () => {
    const w = world();
    const r = gitRepo(w);
    for (const c of ['git status', 'git log', 'git log -p', 'git diff', 'git show', 'git blame a.txt', 'git ls-files', 'git grep one']) {
      expect(w.judge(c, r).level, c).toBe('allow');
    }
  });
});

const HAVE_CARGO = installed('cargo');
/** cargo is rustup's proxy here (it runs the toolchain rust-toolchain.toml names). */
const CARGO_IS_RUSTUP = (() => {
  try {
    const p = execFileSync('sh', ['-c', 'command -v cargo'], { encoding: 'utf8' }).trim();
    return readlinkSync(p).endsWith('rustup');
  } catch {
    return false;
  }
})();

describe.skipIf(!HAVE_CARGO)('real cargo runs what .cargo/config.toml and rust-toolchain.toml name', () => {
  function crate(w: ReturnType<typeof world>): string {
    const c = join(w.root, 'crate');
    mkdirSync(join(c, 'src'), { recursive: true });
    mkdirSync(join(c, '.cargo'));
    writeFileSync(join(c, 'Cargo.toml'), '[package]\nname = "c"\nversion = "0.1.0"\nedition = "2021"\n');
    writeFileSync(join(c, 'src/main.rs'), 'fn main() {}\n');
    return c;
  }
  // rustup finds its toolchains under the real HOME; cargo's own configuration home is a temp one.
  const cargoEnv = (w: ReturnType<typeof world>) => ({ HOME: process.env.HOME ?? w.home, CARGO_HOME: join(w.root, 'cargo-home') });

  it('build.rustc-wrapper on cargo metadata and cargo tree, not on --no-deps', () => {
    const w = world();
    const c = crate(w);
    writeFileSync(join(c, '.cargo/config.toml'), `[build]\nrustc-wrapper = "${w.marker('wrapper', 'exec "$@"')}"\n`);
    for (const line of ['cargo metadata --offline --format-version 1', 'cargo tree --offline']) {
      expect(w.bash(line, c, { env: cargoEnv(w) }), line).toEqual(['wrapper']);
      const v = w.judge(line, c, { CARGO_HOME: join(w.root, 'cargo-home') });
      expect(v.level).not.toBe('allow');
      expect(v.code).toContain(`build.rustc-wrapper = "${w.bin}/wrapper" in ${c}/.cargo/config.toml`);
    }
    const noDeps = 'cargo metadata --offline --no-deps --format-version 1';
    expect(w.bash(noDeps, c, { env: cargoEnv(w) })).toEqual([]);
    expect(w.judge(noDeps, c, { CARGO_HOME: join(w.root, 'cargo-home') }).level).toBe('allow');
  });

  it.skipIf(!CARGO_IS_RUSTUP)('rust-toolchain.toml path on any cargo subcommand', () => {
    const w = world();
    const c = crate(w);
    const tc = join(w.root, 'toolchain');
    mkdirSync(join(tc, 'bin'), { recursive: true });
    for (const p of ['cargo', 'rustc']) writeFileSync(join(tc, 'bin', p), `#!/bin/sh\necho toolchain >> "${w.log}"\n`, { mode: 0o755 });
    writeFileSync(join(c, 'rust-toolchain.toml'), `[toolchain]\npath = "${tc}"\n`);
    expect(w.bash('cargo version', c, { env: cargoEnv(w) })).toEqual(['toolchain']);
    expect(w.judge('cargo version', c, { CARGO_HOME: join(w.root, 'cargo-home') }).code).toContain(`toolchain.path`);
  });
});

const HAVE_TERRAFORM = installed('terraform');

/** Go's dirhash "h1:" of a directory's files, as .terraform.lock.hcl records it. */
function h1(dir: string, files: string[]): string {
  const summary = [...files]
    .sort()
    .map(
      (f) =>
        `${createHash('sha256')
          .update(readFileSync(join(dir, f)))
          .digest('hex')}  ${f}\n`,
    )
    .join('');
  return 'h1:' + createHash('sha256').update(summary).digest('base64');
}

describe.skipIf(!HAVE_TERRAFORM)('real terraform starts provider binaries on validate', () => {
  const tfEnv = { CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' };
  it('from a .terraform directory the repository ships with a matching lock file', () => {
    const w = world();
    const p = join(w.root, 'stack');
    const dir = join(p, '.terraform/providers/registry.terraform.io/hashicorp/evil/1.0.0/linux_amd64');
    mkdirSync(dir, { recursive: true });
    const exe = 'terraform-provider-evil_v1.0.0';
    writeFileSync(join(dir, exe), `#!/bin/sh\necho provider >> "${w.log}"\nexit 1\n`, { mode: 0o755 });
    writeFileSync(
      join(p, '.terraform.lock.hcl'),
      `provider "registry.terraform.io/hashicorp/evil" {\n  version = "1.0.0"\n  hashes = ["${h1(dir, [exe])}"]\n}\n`,
    );
    writeFileSync(join(p, 'main.tf'), 'terraform {\n  required_providers {\n    evil = { source = "hashicorp/evil" }\n  }\n}\nresource "evil_thing" "a" {}\n');
    if (process.arch !== 'x64' || process.platform !== 'linux') return; // the directory above names linux_amd64
    expect(w.bash('terraform validate', p, { env: tfEnv })).toEqual(['provider']);
    const v = w.judge('terraform validate', p);
    expect(v.level).not.toBe('allow');
    expect(v.code).toContain(`${p}/.terraform/providers`);
    expect(String(w.judge('terraform output', p).code)).toBe(''); // it asks only for terraform's checkpoint write
  });

  it('from a dev_overrides directory in the CLI configuration the line names', () => {
    const w = world();
    const p = join(w.root, 'stack');
    mkdirSync(p);
    const providers = join(w.root, 'providers');
    mkdirSync(providers);
    writeFileSync(join(providers, 'terraform-provider-evil'), `#!/bin/sh\necho provider >> "${w.log}"\nexit 1\n`, { mode: 0o755 });
    writeFileSync(join(p, 'dev.tfrc'), `provider_installation {\n  dev_overrides {\n    "example.com/x/evil" = "${providers}"\n  }\n  direct {}\n}\n`);
    writeFileSync(
      join(p, 'main.tf'),
      'terraform {\n  required_providers {\n    evil = { source = "example.com/x/evil" }\n  }\n}\nresource "evil_thing" "a" {}\n',
    );
    const line = 'TF_CLI_CONFIG_FILE=dev.tfrc terraform validate';
    expect(w.bash(line, p, { env: tfEnv })).toEqual(['provider']);
    expect(w.judge(line, p).code).toContain(`dev_overrides`);
    expect(String(w.judge('terraform validate', p).code)).toBe('');
  });
});
