/**
 * Issue 11 class 8: a write to a file that changes what a later command runs when it loads it
 * (`.git/config`, hooks, `.envrc`, `.cargo/config.toml`…) is never approved by auto-edit or by
 * auto mode's accept-edits step — through the shell or a file tool alike — while ordinary
 * workspace edits still are.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAutoGate, createGate, type GateContext, type ToolCall } from '../../src/index.js';
import { check } from '../helpers/analyzer.js';

const WS = '/ws/project';
const CTX: GateContext = { cwd: WS, workspaceRoots: [WS], home: '/home/user', env: {} };
const sh = (command: string): ToolCall => ({ tool: 'shell', args: { command } });
// Claude Code's Edit names its file `file_path`; shellgate's generic tools take `path`.
const file = (tool: string, path: string): ToolCall => ({ tool, args: { [/^[A-Z]/.test(tool) ? 'file_path' : 'path']: `${WS}/${path}` } });

/** Shell spellings of a write into an exec-config file. */
const SHELL_WRITES = [
  'echo x > .git/config',
  "printf '[core]\\n\\tfsmonitor = ./x\\n' >> .git/config",
  'tee .envrc < x',
  'tee -a .npmrc',
  'cp x .cargo/config.toml',
  'cp evil/.envrc .',
  'install -m 755 hook .git/hooks/pre-commit',
  'mv x .lesskey',
  'mv hook .git/hooks/',
  'sed -i s/a/b/ .gitattributes',
  'ln -s /tmp/hook .git/hooks/pre-commit',
  'ln -s /tmp/x/.yarnrc.yml',
  'chmod +x .git/hooks/post-checkout',
  'touch .husky/pre-push',
  'cd sub && echo "[alias] x = !sh" > ../.git/config',
  'find . -name config -exec sed -i s/a/b/ {} +',
  'sed -i s/a/b/ .*',
];

/** The same programs writing ordinary workspace files: auto-edit still approves them. */
const ORDINARY_WRITES = [
  'echo x > notes.txt',
  'tee src/a.ts < x',
  'cp x src/config.toml',
  'sed -i s/a/b/ src/a.ts',
  'touch .editorconfig',
  'mkdir -p build/out',
  'cp x src/',
];

describe('the shell verdict', () => {
  it('gives every spelling the exec-config finding, on the file it lands in', async () => {
    for (const c of SHELL_WRITES) {
      const v = await check(c);
      expect(
        v.findings.map((f) => f.rule),
        c,
      ).toContain('exec-config');
    }
    const landed = await check('cp evil/.envrc .');
    expect(landed.operations.filter((o) => o.kind === 'Write').map((o) => o.path)).toContain(`${WS}/.envrc`);
  });

  it('leaves ordinary writes, reads of those files and writes beside them alone', async () => {
    for (const c of [...ORDINARY_WRITES, 'cat .envrc', 'git status', 'cp x .cargo/', 'cat .git/HEAD']) {
      expect(
        (await check(c)).findings.map((f) => f.rule),
        c,
      ).not.toContain('exec-config');
    }
  });

  it('reads the names a patch writes from its diff', async () => {
    const hook = await check("patch -p1 <<'EOF'\n--- /dev/null\n+++ b/.git/hooks/post-checkout\n@@ -0,0 +1 @@\n+x\nEOF");
    expect(hook.findings.map((f) => f.rule)).toContain('exec-config');
    const plain = await check("patch -p1 <<'EOF'\n--- a/src/x.c\n+++ b/src/x.c\n@@ -1 +1 @@\n-a\n+b\nEOF");
    expect(plain.findings.map((f) => f.rule)).not.toContain('exec-config');
    // A diff that cannot be read: the files it writes are unknown.
    expect((await check('patch -p1 < missing.diff')).findings.map((f) => f.rule)).toContain('dynamic-path');
  });

  it('finds exec-config files a recursive copy brings from a tree on disk', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sg-tpl-'));
    mkdirSync(join(root, 'tpl', 'src'), { recursive: true });
    writeFileSync(join(root, 'tpl', 'src', 'a.ts'), '');
    writeFileSync(join(root, 'tpl', '.envrc'), 'curl x | sh\n');
    mkdirSync(join(root, 'plain'));
    writeFileSync(join(root, 'plain', 'a.ts'), '');
    const ctx = { cwd: root, workspaceRoots: [root], home: '/home/user', env: {} };
    const tpl = await check('cp -r tpl/. .', ctx);
    expect(tpl.findings.map((f) => f.rule)).toContain('exec-config');
    expect(tpl.operations.map((o) => o.path)).toContain(join(root, '.envrc'));
    expect((await check('cp -r plain/. .', ctx)).findings.map((f) => f.rule)).not.toContain('exec-config');
    // Copied to a new name, the tree lands below that name.
    expect((await check('cp -a tpl copy', ctx)).operations.map((o) => o.path)).toContain(join(root, 'copy', '.envrc'));
  });
});

describe('the gate in auto-edit mode', async () => {
  const gate = await createGate();
  const mode: GateContext = { ...CTX, mode: 'auto-edit' };

  it('asks for shell writes into exec-config files, naming why', () => {
    for (const c of SHELL_WRITES) {
      const d = gate.evaluate(sh(c), mode);
      expect(d.level, c).toBe('ask');
    }
    expect(gate.evaluate(sh('tee .envrc < x'), mode).reason).toMatch(/^exec-config: .*\.envrc/);
  });

  it('asks for file tools writing them', () => {
    for (const [tool, path] of [
      ['write_file', '.git/hooks/pre-commit'],
      ['write_file', '.cargo/config.toml'],
      ['edit', '.envrc'],
      ['edit', '.git/config'],
      ['write_file', 'sub/.yarnrc.yml'],
      ['Edit', '.gitattributes'],
    ]) {
      const d = gate.evaluate(file(tool, path), mode);
      expect({ level: d.level, rule: d.reason.split(':')[0] }, `${tool} ${path}`).toEqual({ level: 'ask', rule: 'exec-config' });
    }
  });

  it('still approves ordinary workspace edits, by shell and by file tool', () => {
    for (const c of ORDINARY_WRITES) expect(gate.evaluate(sh(c), mode).level, c).toBe('allow');
    for (const p of ['src/a.ts', '.editorconfig', 'docs/git.md']) expect(gate.evaluate(file('write_file', p), mode).level, p).toBe('allow');
  });

  it('reading them stays allowed where it was', () => {
    expect(gate.evaluate({ tool: 'read_file', args: { path: `${WS}/.envrc` } }, mode).level).toBe('allow');
  });
});

describe("auto mode's accept-edits step", async () => {
  const auto = createAutoGate(await createGate());

  it('passes ordinary edits and leaves exec-config writes to the user', async () => {
    expect((await auto.decide(file('write_file', 'src/a.ts'), CTX)).step).toBe('accept-edits');
    expect((await auto.decide(sh('echo x > notes.txt'), CTX)).step).toBe('accept-edits');
    for (const call of [file('write_file', '.git/hooks/pre-commit'), file('edit', '.envrc'), sh('cp x .cargo/config.toml'), sh('echo x >> .npmrc')]) {
      const d = await auto.decide(call, CTX);
      expect({ level: d.level, step: d.step }, JSON.stringify(call)).toEqual({ level: 'ask', step: 'user' });
    }
  });
});
