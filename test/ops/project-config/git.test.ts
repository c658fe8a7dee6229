/**
 * git configuration that runs programs, found the way git finds it. Repositories are built by
 * hand (HEAD, objects/, refs/, config) in temp directories; the home directory is a temp one and
 * the system file is off, so nothing here depends on the machine's own git configuration. The
 * proofs that real git runs these keys are in proof.test.ts.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer, createAutoGate, createGate, type Analyzer, type Verdict } from '../../../src/index.js';
import { parseConfigParameters } from '../../../src/ops/project-config/git/index.js';
import { StampedCache } from '../../../src/ops/project-config/file-probe.js';
import { codeKeyFamily, GIT_CODE_KEYS } from '../../../src/ops/project-config/git/code-keys.js';
import { splitConfigName } from '../../../src/ops/project-config/git/config-syntax.js';

let analyzer: Analyzer;
beforeAll(async () => {
  // No verdict cache: these tests change files between analyses of the same command.
  analyzer = await createAnalyzer({ cacheSize: 0 });
});

const temp = (name: string) => mkdtempSync(join(tmpdir(), `sg-${name}-`));

/** A directory git accepts as a git directory: HEAD, objects/, refs/, and this config. */
function gitDir(dir: string, config = ''): string {
  mkdirSync(join(dir, 'objects'), { recursive: true });
  mkdirSync(join(dir, 'refs/heads'), { recursive: true });
  writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(dir, 'config'), config);
  return dir;
}

/** A work tree with `.git` holding `config`, and a subdirectory. */
function repo(config = ''): string {
  const ws = temp('repo');
  gitDir(join(ws, '.git'), config);
  mkdirSync(join(ws, 'sub'));
  return ws;
}

interface Run {
  verdict: Verdict;
  level: string;
  /** Messages of the repo-code findings. */
  code: string[];
}

function run(command: string, cwd: string, opts: { home?: string; env?: Record<string, string>; roots?: string[] } = {}): Run {
  const home = opts.home ?? temp('home');
  const verdict = analyzer.analyze(command, { cwd, workspaceRoots: opts.roots ?? [cwd], home, env: { GIT_CONFIG_NOSYSTEM: '1', ...opts.env } });
  return { verdict, level: verdict.level, code: verdict.findings.filter((f) => f.rule === 'repo-code').map((f) => f.message) };
}

const READ_ONLY = [
  'git status',
  'git log',
  'git log -p',
  'git diff',
  'git show',
  'git blame a',
  'git ls-files',
  'git grep x',
  'git rev-parse HEAD',
  'git describe --always',
];

describe('a repository whose configuration names no program', () => {
  it('leaves read-only git commands allowed', () => {
    const ws = repo('[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote "origin"]\n\turl = https://example.com/x.git\n');
    for (const c of READ_ONLY) expect(run(c, ws).level, c).toBe('allow');
  });
  it('allows the values that run only git itself or a plain pager', () => {
    const ws = repo(
      '[core]\n\tfsmonitor = true\n\tpager = diff-so-fancy | less --tabs=4 -RFX\n[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true\n[gpg]\n\tprogram = gpg2\n',
    );
    for (const c of [...READ_ONLY, 'git verify-commit HEAD']) expect(run(c, ws).level, c).toBe('allow');
  });
});

describe('the list of program-naming keys', () => {
  it('recognises every family it lists, from the spelling git stores', () => {
    for (const f of GIT_CODE_KEYS) {
      // A subsection keeps case and may hold dots; a key is one lowercase word.
      const name = f.pattern.replace(/<[^>]+>$/, 'name').replace(/<[^>]+>/g, 'Some.Name');
      const parts = splitConfigName(name)!;
      expect(codeKeyFamily(parts.section, parts.subsection, parts.key)?.pattern, name).toBe(f.pattern);
    }
    expect(codeKeyFamily('core', null, 'bare')).toBeNull();
    expect(codeKeyFamily('diff', null, 'textconv')).toBeNull();
  });
});

describe('which runs reach which keys', () => {
  it('core.fsmonitor: commands that read the index, not log or rev-parse', () => {
    const ws = repo('[core]\n\tfsmonitor = ./hook.sh\n');
    const status = run('git status', ws);
    expect(status.level).toBe('ask');
    expect(status.code.join('\n')).toContain(`core.fsmonitor = "./hook.sh" in ${ws}/.git/config`);
    for (const c of ['git diff', 'git ls-files', 'git grep x', 'git describe --dirty', 'git cat-file -p :a']) expect(run(c, ws).level, c).toBe('ask');
    for (const c of ['git log', 'git log -p', 'git show HEAD', 'git rev-parse HEAD', 'git cat-file -p HEAD', 'git describe --always'])
      expect(run(c, ws).level, c).toBe('allow');
  });
  it('the pager: paginated commands whose output may reach a terminal', () => {
    const ws = repo('[core]\n\tpager = sh -c "touch /tmp/x; less"\n');
    expect(run('git log', ws).code.join()).toContain('core.pager');
    expect(run('git diff', ws).level).toBe('ask');
    expect(run('git -p status', ws).level).toBe('ask');
    // Not paginated, or stdout certainly not a terminal.
    for (const c of ['git status', 'git log | head', 'git log > /dev/null', 'git --no-pager log', 'echo "$(git log)"'])
      expect(run(c, ws).level, c).toBe('allow');
    // The user's own GIT_PAGER replaces the configured one.
    expect(run('git log', ws, { env: { GIT_PAGER: 'less' } }).level).toBe('allow');
  });
  it('pager.<command> turns paging on, off, or names the pager', () => {
    expect(run('git status', repo('[core]\n\tpager = ./p\n[pager]\n\tstatus = true\n')).level).toBe('ask');
    expect(run('git status', repo('[pager]\n\tstatus = ./p\n')).code.join()).toContain('pager.status');
    expect(run('git log', repo('[core]\n\tpager = ./p\n[pager]\n\tlog = false\n')).level).toBe('allow');
  });
  it('diff drivers and textconv: commands that show contents', () => {
    const ws = repo('[diff "bin"]\n\ttextconv = ./conv\n');
    for (const c of ['git diff', 'git log -p', 'git show', 'git blame a', 'git grep --textconv x', 'git cat-file --textconv HEAD:a']) {
      expect(run(c, ws).code.join(), c).toContain('diff.bin.textconv');
    }
    for (const c of ['git log', 'git status', 'git log --stat', 'git ls-files']) expect(run(c, ws).level, c).toBe('allow');
    expect(run('git diff', repo('[diff]\n\texternal = ./ext\n')).code.join()).toContain('diff.external');
  });
  it('git-lfs extensions and custom transfer agents', () => {
    const ws = repo('[lfs "extension.x"]\n\tclean = ./x\n[lfs "customtransfer.t"]\n\tpath = ./agent\n');
    expect(run('git status', ws).code.join()).toContain('lfs.extension.x.clean');
    expect(run('git show', ws).code.join()).toContain('lfs.customtransfer.t.path');
  });
  it('filters: reading the work tree and showing contents', () => {
    const ws = repo('[filter "x"]\n\tclean = ./clean\n');
    for (const c of ['git status', 'git diff', 'git archive HEAD', 'git hash-object a']) expect(run(c, ws).code.join(), c).toContain('filter.x.clean');
    expect(run('git log', ws).level).toBe('allow');
  });
  it('signature programs: verification, --show-signature, log.showSignature, %G formats', () => {
    const ws = repo('[gpg]\n\tprogram = ./fake-gpg\n');
    for (const c of ['git verify-commit HEAD', 'git verify-tag v1', 'git log --show-signature', 'git log --format=%G?', 'git tag -v v1'])
      expect(run(c, ws).code.join(), c).toContain('gpg.program');
    expect(run('git log', ws).level).toBe('allow');
    expect(run('git log', repo('[gpg "ssh"]\n\tprogram = ./x\n[log]\n\tshowSignature = true\n')).code.join()).toContain('gpg.ssh.program');
    expect(run('git log --no-show-signature', repo('[gpg]\n\tprogram = ./x\n[log]\n\tshowSignature\n')).level).toBe('allow');
  });
  it('an alias can replace whatchanged, which newer gits deprecate', () => {
    expect(run('git whatchanged', repo('[alias]\n\twhatchanged = !./evil\n')).code.join()).toContain('alias.whatchanged');
    expect(run('git log', repo('[alias]\n\tlog = !./evil\n')).level).toBe('allow');
  });
  it('remote-only keys (credential helpers, sshCommand, ext:: URLs) do not touch local commands', () => {
    const ws = repo('[credential]\n\thelper = !./steal\n[core]\n\tsshCommand = ./ssh\n[remote "o"]\n\turl = ext::sh -c x\n');
    for (const c of READ_ONLY) expect(run(c, ws).level, c).toBe('allow');
    const lsRemote = run('git ls-remote o', ws).code.join('\n');
    for (const k of ['credential.helper', 'core.sshcommand', 'remote.o.url']) expect(lsRemote).toContain(k);
    // git's own helpers and a plain ssh are not worth a finding.
    const usual = repo(
      '[credential]\n\thelper = osxkeychain\n\thelper = cache --timeout=3600\n[credential "https://github.com"]\n\thelper = !/usr/bin/gh auth git-credential\n[core]\n\tsshCommand = ssh -i ~/.ssh/id_work -o IdentitiesOnly=yes\n',
    );
    expect(run('git ls-remote origin', usual).code).toEqual([]);
  });
  it('the post-index-change hook (git status writes the index), from hooks/ or core.hooksPath', () => {
    const ws = repo();
    writeFileSync(join(ws, '.git/hooks-missing'), '');
    mkdirSync(join(ws, '.git/hooks'));
    writeFileSync(join(ws, '.git/hooks/post-index-change'), '#!/bin/sh\n');
    expect(run('git status', ws).level).toBe('allow'); // not executable: git ignores it
    chmodSync(join(ws, '.git/hooks/post-index-change'), 0o755);
    expect(run('git status', ws).code.join()).toContain(`${ws}/.git/hooks/post-index-change`);
    expect(run('git log', ws).level).toBe('allow');
    const custom = repo('[core]\n\thooksPath = .githooks\n');
    mkdirSync(join(custom, '.githooks'));
    writeFileSync(join(custom, '.githooks/post-index-change'), '#!/bin/sh\n', { mode: 0o755 });
    expect(run('git status', custom).code.join()).toContain(`${custom}/.githooks/post-index-change`);
    const configured = repo('[hook "x"]\n\tevent = post-index-change\n\tcommand = ./run-me\n');
    expect(run('git status', configured).code.join()).toContain('hook.x.command');
  });
  it('git status and git diff recurse into submodules, with their configuration', () => {
    const ws = repo();
    gitDir(join(ws, '.git/modules/lib'), '[core]\n\tfsmonitor = ./sub-hook\n');
    expect(run('git status', ws).code.join()).toContain(`${ws}/.git/modules/lib/config`);
    expect(run('git log', ws).level).toBe('allow');
    // A submodule with its own .git directory, placed by .gitmodules.
    const old = repo();
    writeFileSync(join(old, '.gitmodules'), '[submodule "v"]\n\tpath = vendor/v\n');
    gitDir(join(old, 'vendor/v/.git'), '[core]\n\tfsmonitor = ./x\n');
    expect(run('git diff', old).code.join()).toContain(`${old}/vendor/v/.git/config`);
  });
});

describe('finding the repository as git does', () => {
  it('walks up from a subdirectory', () => {
    const ws = repo('[core]\n\tfsmonitor = ./x\n');
    expect(run('git status', join(ws, 'sub'), { roots: [ws] }).level).toBe('ask');
  });
  it('skips a .git directory that is not a repository and uses the one above', () => {
    const ws = repo('[core]\n\tfsmonitor = ./x\n');
    mkdirSync(join(ws, 'sub/.git'));
    writeFileSync(join(ws, 'sub/.git/config'), '');
    expect(run('git status', join(ws, 'sub'), { roots: [ws] }).level).toBe('ask');
  });
  it("follows a .git file and a linked worktree's commondir", () => {
    const main = repo('[core]\n\tfsmonitor = ./x\n');
    const wt = join(main, '.git/worktrees/w');
    gitDir(wt);
    writeFileSync(join(wt, 'commondir'), '../..\n');
    const tree = temp('worktree');
    writeFileSync(join(tree, '.git'), `gitdir: ${wt}\n`);
    expect(run('git status', tree, { roots: [tree, main] }).code.join()).toContain(`${main}/.git/config`);
  });
  it('uses a bare repository it runs in, or that -C names', () => {
    const ws = temp('bare-ws');
    gitDir(join(ws, 'evil.git'), '[core]\n\tpager = ./p\n');
    expect(run('git -C evil.git log', ws).code.join()).toContain(`${ws}/evil.git/config`);
    expect(run('git log', join(ws, 'evil.git'), { roots: [ws] }).level).toBe('ask');
    // Inside a work tree's .git directory, git uses that directory.
    const r = repo('[core]\n\tpager = ./p\n');
    expect(run('git log', join(r, '.git'), { roots: [r] }).level).toBe('ask');
  });
  it('takes GIT_DIR and --git-dir instead of searching', () => {
    const ws = temp('gitdir-ws');
    gitDir(join(ws, 'elsewhere'), '[core]\n\tfsmonitor = ./x\n');
    expect(run('GIT_DIR=elsewhere git status', ws).code.join()).toContain(`${ws}/elsewhere/config`);
    expect(run('git --git-dir=elsewhere status', ws).code.join()).toContain(`${ws}/elsewhere/config`);
    expect(run('git status', ws, { env: { GIT_DIR: join(ws, 'elsewhere') } }).code.join()).toContain('core.fsmonitor');
    expect(run('git --git-dir="$D" status', ws).level).toBe('ask');
  });
  it('resolves each -C against the one before, and asks for a dynamic one', () => {
    const ws = repo('[core]\n\tfsmonitor = ./x\n');
    const clean = repo();
    expect(run(`git -C ${clean} status`, clean, { roots: [clean, ws] }).level).toBe('allow');
    expect(run(`git -C / -C ${ws.slice(1)}/sub status`, clean, { roots: [clean, ws] }).code.join()).toContain(`${ws}/.git/config`);
    expect(run('git -C "$D" status', clean).code.join()).toContain('git -C');
  });
  it('asks when the working directory is not known', () => {
    expect(run('cd "$D" && git status', repo()).level).toBe('ask');
  });
});

describe('the files git reads and the environment that moves them', () => {
  it('reads $HOME/.gitconfig and $XDG_CONFIG_HOME/git/config of the HOME the line sets', () => {
    const ws = repo();
    const fake = temp('fakehome');
    writeFileSync(join(fake, '.gitconfig'), '[core]\n\tfsmonitor = ./x\n');
    expect(run(`HOME=${fake} git status`, ws).code.join()).toContain(`${fake}/.gitconfig`);
    expect(run(`env HOME=${fake} git status`, ws).level).toBe('ask');
    expect(run(`export HOME=${fake}; git status`, ws).level).toBe('ask');
    expect(run('HOME="$D" git status', ws).code.join()).toContain('HOME');
    const xdg = temp('xdg');
    mkdirSync(join(xdg, 'git'));
    writeFileSync(join(xdg, 'git/config'), '[core]\n\tpager = ./p\n');
    expect(run(`XDG_CONFIG_HOME=${xdg} git log`, ws).code.join()).toContain(`${xdg}/git/config`);
    expect(run('git log', ws, { env: { XDG_CONFIG_HOME: xdg } }).code.join()).toContain(`${xdg}/git/config`);
  });
  it("reads the context home's global files, GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM", () => {
    const ws = repo();
    const home = temp('home');
    writeFileSync(join(home, '.gitconfig'), '[core]\n\tfsmonitor = ./x\n');
    expect(run('git status', ws, { home }).code.join()).toContain(`${home}/.gitconfig`);
    const file = join(temp('g'), 'cfg');
    writeFileSync(file, '[core]\n\tfsmonitor = ./x\n');
    expect(run(`GIT_CONFIG_GLOBAL=${file} git status`, ws).code.join()).toContain(file);
    expect(run('git status', ws, { env: { GIT_CONFIG_NOSYSTEM: '', GIT_CONFIG_SYSTEM: file } }).code.join()).toContain(file);
  });
  it('reads -c, --config-env, GIT_CONFIG_COUNT and GIT_CONFIG_PARAMETERS', () => {
    const ws = repo();
    expect(run('git -c core.fsmonitor=./x status', ws).code.join()).toContain('core.fsmonitor = "./x" in the command line (-c)');
    expect(run('git -c Core.FSMonitor=./x status', ws).level).toBe('ask');
    expect(run('git -c color.ui=always -c core.pager=less log', ws).level).toBe('allow');
    expect(run('P="$X" git --config-env=core.pager=P log', ws).code.join()).toContain('core.pager = (unknown value)');
    expect(run('P=./p git --config-env=core.pager=P log', ws).code.join()).toContain('core.pager = "./p"');
    expect(run("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='sh -c x' git log", ws).code.join()).toContain('GIT_CONFIG_KEY_0');
    expect(run("GIT_CONFIG_PARAMETERS=\"'core.fsmonitor'='./x'\" git status", ws).code.join()).toContain('GIT_CONFIG_PARAMETERS');
    expect(run('git log', ws, { env: { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.pager', GIT_CONFIG_VALUE_0: './p' } }).level).toBe('ask');
  });
  it("parses GIT_CONFIG_PARAMETERS in both of git's formats", () => {
    expect(parseConfigParameters("'core.pager'='less -R' 'a.b'")).toEqual([
      { name: 'core.pager', value: 'less -R' },
      { name: 'a.b', value: null },
    ]);
    expect(parseConfigParameters("'core.pager=it'\\''s'")).toEqual([{ name: 'core.pager', value: "it's" }]);
    expect(parseConfigParameters('core.pager=x')).toBeNull();
  });
  it('lets a later certain value replace an earlier one, as git does', () => {
    const home = temp('home');
    writeFileSync(join(home, '.gitconfig'), '[core]\n\tpager = ./evil\n');
    expect(run('git log', repo('[core]\n\tpager = less\n'), { home }).level).toBe('allow');
    expect(run('git status', repo('[core]\n\tfsmonitor = ./x\n\tfsmonitor = false\n')).level).toBe('allow');
  });
});

describe('includes', () => {
  it('follows include.path relative to the including file, and ~/', () => {
    const ws = repo('[include]\n\tpath = ../extra.cfg\n');
    writeFileSync(join(ws, 'extra.cfg'), '[core]\n\tfsmonitor = ./x\n');
    expect(run('git status', ws).code.join()).toContain(`${ws}/extra.cfg`);
    const home = temp('home');
    writeFileSync(join(home, 'inc'), '[core]\n\tfsmonitor = ./x\n');
    expect(run('git status', repo('[include]\n\tpath = ~/inc\n'), { home }).code.join()).toContain(`${home}/inc`);
  });
  it('ignores an include that does not exist, as git does', () => {
    expect(run('git status', repo('[include]\n\tpath = nowhere\n')).level).toBe('allow');
  });
  it('decides gitdir: conditions, and reads the others as possibly true', () => {
    const home = temp('home');
    writeFileSync(join(home, 'work.cfg'), '[core]\n\tfsmonitor = ./x\n');
    const ws = repo();
    const write = (cond: string) => writeFileSync(join(home, '.gitconfig'), `[includeIf "${cond}"]\n\tpath = ~/work.cfg\n`);
    write(`gitdir:${ws}/`);
    expect(run('git status', ws, { home }).level).toBe('ask');
    write('gitdir:/somewhere/else/');
    expect(run('git status', ws, { home }).level).toBe('allow');
    write(`gitdir/i:${ws.toUpperCase()}/`);
    expect(run('git status', ws, { home }).level).toBe('ask');
    write('onbranch:main');
    expect(run('git status', ws, { home }).level).toBe('ask');
  });
  it("asks at git's include depth (a cycle)", () => {
    const ws = repo('[include]\n\tpath = config\n');
    expect(run('git status', ws).code.join()).toContain('includes nested deeper');
  });
  it('follows an absolute include given on the command line', () => {
    const f = join(temp('inc'), 'cfg');
    writeFileSync(f, '[core]\n\tfsmonitor = ./x\n');
    expect(run(`git -c include.path=${f} status`, repo()).code.join()).toContain(f);
  });
  it('asks for configuration git would refuse to parse', () => {
    expect(run('git log', repo('[core\n\tpager = x\n')).code.join()).toContain('could not be parsed');
  });
});

describe('cached answers', () => {
  it('notice a configuration file that changes, appears or disappears', () => {
    const ws = repo();
    expect(run('git status', ws).level).toBe('allow');
    appendFileSync(join(ws, '.git/config'), '[core]\n\tfsmonitor = ./x\n');
    expect(run('git status', ws).level).toBe('ask');
    const home = temp('home');
    const clean = repo();
    expect(run('git status', clean, { home }).level).toBe('allow');
    writeFileSync(join(home, '.gitconfig'), '[core]\n\tfsmonitor = ./x\n');
    expect(run('git status', clean, { home }).level).toBe('ask');
  });
  it('recompute only when a consulted path changes', () => {
    const dir = temp('stamp');
    const f = join(dir, 'f');
    const cache = new StampedCache<number>();
    let computed = 0;
    const read = () => cache.get('k', (probe) => (computed++, probe.read(f).kind === 'text' ? 1 : 0));
    expect(read()).toBe(0);
    expect(read()).toBe(0);
    expect(computed).toBe(1);
    writeFileSync(f, 'x');
    expect(read()).toBe(1);
    expect(computed).toBe(2);
    expect(read()).toBe(1);
    expect(computed).toBe(2);
  });
});

describe('policy', () => {
  it('an allow rule for the command does not lift it, and auto mode does not pass it as read-only', async () => {
    const ws = repo('[core]\n\tfsmonitor = ./x\n');
    const ctx = { cwd: ws, workspaceRoots: [ws], home: temp('home'), env: { GIT_CONFIG_NOSYSTEM: '1' } };
    const call = { tool: 'shell', args: { command: 'git status' } };
    const gate = await createGate({ settings: [{ source: 'project', settings: { permissions: { allow: ['Bash(git status)'] } } }] });
    expect(gate.evaluate(call, ctx).level).toBe('ask');
    const auto = createAutoGate(await createGate({}));
    const d = await auto.decide(call, { ...ctx, mode: 'auto' });
    expect(d.level).toBe('ask');
    expect(d.step).not.toBe('safe-tool');
    const clean = repo();
    expect(gate.evaluate(call, { ...ctx, cwd: clean, workspaceRoots: [clean] }).level).toBe('allow');
  });
});
