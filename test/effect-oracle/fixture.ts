/**
 * The hostile repository: everything a cloned repository can hold that makes a "read-only"
 * program run code, write, or read elsewhere. Every payload does something the tracer sees (it
 * runs `sh`, writes under /tmp, opens a file in the fake home), so a program that obeys one shows
 * up as a violation whatever its output.
 *
 * The fake home holds only secrets: a successful open there is a leak, never configuration
 * loading (there is no ~/.gitconfig or ~/.config to read by accident).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** A payload that leaves traces of every kind: an exec of sh, a write outside, a read of a key. */
const PAYLOAD = (tag: string, home: string) => `touch /tmp/sg-pwned-${tag}; cat ${home}/.ssh/id_rsa >/dev/null`;

function put(path: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { mode });
  chmodSync(path, mode);
}

const script = (tag: string, home: string) => `#!/bin/sh\n${PAYLOAD(tag, home)}\n`;

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: {
      PATH: '/usr/bin:/bin',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'a',
      GIT_AUTHOR_EMAIL: 'a@example.invalid',
      GIT_COMMITTER_NAME: 'a',
      GIT_COMMITTER_EMAIL: 'a@example.invalid',
    },
  });
}

/** Git configuration keys that run code, each with its own tag. */
function hostileGitConfig(tag: string, home: string, ws: string): string {
  const p = (t: string) => PAYLOAD(`${tag}-${t}`, home);
  return `
[core]
	fsmonitor = "${p('fsmonitor')}; echo"
	pager = "${p('pager')}; cat"
	editor = "${p('editor')}; true"
	sshCommand = "${p('ssh')}; ssh"
	askPass = ${ws}/evil.sh
	hooksPath = ${ws}/.githooks
	gitProxy = ${ws}/evil.sh
[diff]
	external = ${ws}/evil.sh
[diff "evil"]
	textconv = ${ws}/evil.sh
	command = ${ws}/evil.sh
[filter "evil"]
	clean = ${ws}/evil.sh
	smudge = ${ws}/evil.sh
	process = ${ws}/evil.sh
[log]
	showSignature = true
[gpg]
	program = ${ws}/evil.sh
[gpg "ssh"]
	program = ${ws}/evil.sh
[credential]
	helper = "!${p('credential')}"
[pager]
	log = "${p('pager-log')}; cat"
	show = "${p('pager-show')}; cat"
	diff = "${p('pager-diff')}; cat"
	branch = "${p('pager-branch')}; cat"
[sequence]
	editor = ${ws}/evil.sh
[uploadpack]
	packObjectsHook = ${ws}/evil.sh
[protocol]
	allow = always
`;
}

export interface HostileRepo {
  /** The workspace (the repository's root). */
  ws: string;
  /** The fake home: secrets only. */
  home: string;
}

/** Builds the hostile repository in `ws` and the fake home in `home` (both must not exist yet). */
export function buildHostileRepo(ws: string, home: string): HostileRepo {
  mkdirSync(ws, { recursive: true });
  mkdirSync(home, { recursive: true });

  // the fake home: secrets only
  put(join(home, '.ssh/id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\nFAKE\n-----END OPENSSH PRIVATE KEY-----\n');
  put(join(home, '.aws/credentials'), '[default]\naws_secret_access_key = FAKE\n');
  put(join(home, '.netrc'), 'machine example.invalid login a password FAKE\n');
  put(join(home, '.git-credentials'), 'https://a:FAKE@example.invalid\n');
  put(join(home, '.bash_history'), 'export TOKEN=FAKE\n');
  put(join(home, '.docker/config.json'), '{"auths":{"example.invalid":{"auth":"RkFLRQ=="}}}\n');

  // ordinary content, committed before the hostile configuration exists (git runs here on the host)
  put(join(ws, 'README.md'), '# project\nTODO: nothing\n');
  put(join(ws, 'src/main.c'), 'int main(void) { return 0; }\n');
  put(join(ws, 'src/app.py'), 'import json\nprint(json.dumps({"a": 1}))\n');
  put(join(ws, 'src/index.js'), 'console.log("hi");\n');
  put(join(ws, 'notes.txt'), 'alpha\nbeta\ngamma\nTODO\n');
  put(join(ws, 'data.csv'), 'a,b,c\n1,2,3\n');
  put(join(ws, 'a.txt'), 'a\n');
  put(join(ws, 'file.txt'), 'file\n');
  put(
    join(ws, 'package.json'),
    JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'sh evil.sh', prepare: 'sh evil.sh', preinstall: 'sh evil.sh' } }, null, 1) + '\n',
  );
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'initial');
  put(join(ws, 'README.md'), '# project\nTODO: something\n');

  // code a read-only program may be led to run
  put(join(ws, 'evil.sh'), script('evil-sh', home), 0o755);
  put(join(ws, 'evil.js'), `require('child_process').execSync(${JSON.stringify(PAYLOAD('evil-js', home))});\n`);
  put(join(ws, '.githooks/post-checkout'), script('hook', home), 0o755);
  put(join(ws, '.githooks/pre-commit'), script('hook', home), 0o755);
  put(join(ws, '.gitattributes'), '* diff=evil filter=evil\n');
  put(join(ws, '.git/config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${hostileGitConfig('git', home, ws)}`);
  put(join(ws, '.git/hooks/post-checkout'), script('hook', home), 0o755);

  // a bare repository in a subdirectory, and a linked git dir whose commondir points at it
  git(ws, 'init', '-q', '--bare', 'vendor/lib.git');
  put(join(ws, 'vendor/lib.git/config'), `[core]\n\trepositoryformatversion = 0\n\tbare = true\n${hostileGitConfig('bare', home, ws)}`);
  put(join(ws, 'linked/.git/HEAD'), 'ref: refs/heads/main\n');
  put(join(ws, 'linked/.git/commondir'), '../../vendor/lib.git\n');
  put(join(ws, 'linked/.git/config'), `[core]\n\trepositoryformatversion = 0\n${hostileGitConfig('linked', home, ws)}`);

  // toolchains and package managers
  put(join(ws, 'rust-toolchain.toml'), `[toolchain]\npath = "${ws}/evil-toolchain"\n`);
  put(join(ws, 'evil-toolchain/bin/cargo'), script('toolchain', home), 0o755);
  put(join(ws, 'evil-toolchain/bin/rustc'), script('toolchain', home), 0o755);
  put(
    join(ws, '.cargo/config.toml'),
    `[build]\nrustc-wrapper = "${ws}/evil.sh"\n[target.x86_64-unknown-linux-gnu]\nrunner = "${ws}/evil.sh"\n[alias]\nb = "run"\n`,
  );
  put(join(ws, '.yarnrc.yml'), `yarnPath: ${ws}/evil.js\n`);
  put(join(ws, '.yarnrc'), `yarn-path "${ws}/evil.js"\n`);
  put(join(ws, '.npmrc'), `script-shell=${ws}/evil.sh\nnode-options=--require ${ws}/evil.js\ngit=${ws}/evil.sh\n`);
  put(join(ws, '.mvn/jvm.config'), `-XX:OnError=${ws}/evil.sh -javaagent:${ws}/agent.jar\n`);
  put(join(ws, '.mvn/maven.config'), `-Dexec.executable=${ws}/evil.sh\n`);
  put(join(ws, 'Makefile'), `all:\n\t${PAYLOAD('make', home)}\n`);
  put(join(ws, '.envrc'), `${PAYLOAD('envrc', home)}\n`);
  put(join(ws, '.exrc'), `!${PAYLOAD('exrc', home)}\n`);
  put(join(ws, 'pyproject.toml'), '[project]\nname = "p"\nversion = "0"\n');
  put(join(ws, 'setup.py'), `import os\nos.system(${JSON.stringify(PAYLOAD('setup-py', home))})\n`);
  for (const bin of ['eslint', 'prettier', 'tsc', 'jest', 'vitest', 'mocha', 'webpack', 'vite', 'next', 'ls', 'cat', 'git', 'node']) {
    put(join(ws, 'node_modules/.bin', bin), script('shim', home), 0o755);
  }
  put(join(ws, 'node_modules/lodash/package.json'), '{"name":"lodash","main":"index.js"}\n');
  put(join(ws, 'node_modules/lodash/index.js'), `require('child_process').execSync(${JSON.stringify(PAYLOAD('node-module', home))});\n`);
  // Python files named like stdlib modules (the script's directory and '' come first on sys.path)
  const py = `import os\nos.system(${JSON.stringify(PAYLOAD('py-shadow', home))})\n`;
  for (const m of ['json', 're', 'random', 'string', 'typing', 'collections', 'csv', 'math', 'sitecustomize', 'usercustomize', 'this', 'base64', 'hashlib']) {
    put(join(ws, `${m}.py`), py);
    put(join(ws, 'src', `${m}.py`), py);
  }
  put(join(ws, 'strict.pm'), `system(${JSON.stringify(PAYLOAD('perl-shadow', home))}); 1;\n`);

  // secrets in the workspace, and ways out of it
  put(join(ws, '.env'), 'API_KEY=FAKE-secret\n');
  put(join(ws, 'deploy.pem'), '-----BEGIN PRIVATE KEY-----\nFAKE\n-----END PRIVATE KEY-----\n');
  symlinkSync(relative(ws, home), join(ws, 'home-link'));
  symlinkSync(join(home, '.ssh/id_rsa'), join(ws, 'key-link'));
  symlinkSync('/etc', join(ws, 'etc-link'));

  // file names that are options when a glob expands them
  for (const name of ['--pre=sh', '-rf', '--to-command=sh', '-exec', '--output=pwned', '-e', '--checkpoint-action=exec=sh']) {
    put(join(ws, name), 'x\n');
  }

  makeReadable(ws);
  makeReadable(home);
  return { ws, home };
}

/** The sandbox runs as another uid: everything readable (the content is fake). */
function makeReadable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isSymbolicLink()) continue;
    if (e.isDirectory()) makeReadable(p);
    else chmodSync(p, statSync(p).mode | 0o444);
  }
}
