/**
 * Tool calls and settings as agents send them (issue 12, "security bugs found as a new user"):
 * every path argument is checked, arrays included; a call with missing or mistyped arguments is
 * never allow; importing an agent's settings never widens; rule semantics users rely on.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGate, type GateContext, type ToolCall } from '../../src/index.js';

const sh = (command: string): ToolCall => ({ tool: 'shell', args: { command } });

function project(): { root: string; home: string; ctx: GateContext } {
  const base = mkdtempSync(join(tmpdir(), 'sg-faithful-'));
  const root = join(base, 'proj');
  // A home outside the temp dirs (which are allowed like the workspace); it need not exist.
  const home = '/home/sg-test-nobody';
  for (const d of [join(root, '.claude'), join(root, 'src')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(root, '.env'), 'TOKEN=x\n');
  writeFileSync(join(root, 'src', 'a.ts'), 'export {};\n');
  return { root, home, ctx: { cwd: root, workspaceRoots: [root], home, env: {} } };
}

describe('every path-bearing argument is checked', () => {
  it('never allows a read or write call whose path arguments are missing or of the wrong type', async () => {
    const { ctx } = project();
    const g = await createGate();
    for (const call of [
      { tool: 'read_file', args: {} },
      { tool: 'Read', args: {} },
      { tool: 'Read', args: { file_path: 42 } },
      { tool: 'write_file', args: { content: 'x' } },
      { tool: 'Edit', args: { path: 'src/a.ts' } }, // Claude's Edit names its file file_path
      { tool: 'glob', args: {} },
      { tool: 'web_fetch', args: {} },
      { tool: 'shell', args: {} },
      { tool: 'Bash', args: { command: ['ls'] } },
      { tool: 'read_many_files', args: { paths: [1, 2] } },
    ] as ToolCall[]) {
      const d = g.evaluate(call, ctx);
      expect(d.level, JSON.stringify(call)).not.toBe('allow');
      expect(
        d.findings.map((f) => f.rule),
        JSON.stringify(call),
      ).toContain('tool-arguments');
    }
  });

  it('checks every path of a list argument: one sensitive path in the list decides', async () => {
    const { root, ctx } = project();
    const g = await createGate({ presets: ['sensitive'] });
    expect(g.evaluate({ tool: 'read_many_files', args: { paths: ['.env'] } }, ctx).level).toBe('deny');
    expect(g.evaluate({ tool: 'read_many_files', args: { paths: ['src/a.ts', join(root, '.env')] } }, ctx).level).toBe('deny');
    expect(g.evaluate({ tool: 'read_many_files', args: { paths: ['src/a.ts'] } }, ctx).level).toBe('allow');
  });

  it('reads what a glob or grep can reach: a pattern or filter that climbs out of the workspace asks', async () => {
    const { ctx } = project();
    const g = await createGate();
    expect(g.evaluate({ tool: 'Glob', args: { pattern: '**/*.ts' } }, ctx).level).toBe('allow');
    expect(g.evaluate({ tool: 'Glob', args: { pattern: '../../**' } }, ctx).level).toBe('ask');
    expect(g.evaluate({ tool: 'Glob', args: { pattern: '*.pem', path: '/etc/ssl' } }, ctx).level).toBe('ask');
    expect(g.evaluate({ tool: 'Grep', args: { pattern: 'TODO' } }, ctx).level).toBe('allow');
    expect(g.evaluate({ tool: 'Grep', args: { pattern: 'TODO', glob: '../../**/*' } }, ctx).level).toBe('ask');
    expect(g.evaluate({ tool: 'Grep', args: { pattern: 'key', path: '~/.ssh' } }, ctx).level).not.toBe('allow');
  });

  it("takes the shell tool's directory argument as the cwd the command runs in", async () => {
    const { root, home, ctx } = project();
    const g = await createGate();
    expect(g.evaluate({ tool: 'run_shell_command', args: { command: 'ls', directory: 'src' } }, ctx).level).toBe('allow');
    expect(g.evaluate({ tool: 'run_shell_command', args: { command: 'ls', dir_path: home } }, ctx).level).toBe('ask');
    const d = g.evaluate({ tool: 'run_shell_command', args: { command: 'cat id_rsa', dir_path: join(home, '.ssh') } }, ctx);
    expect(d.level).not.toBe('allow');
    expect(d.verdict?.commands[0].cwd).toBe(join(home, '.ssh'));
    expect(g.evaluate({ tool: 'run_shell_command', args: { command: 'cat .env', directory: root } }, ctx).level).not.toBe('allow');
  });

  it('reads the files an apply_patch text names, and a deleted file is a delete', async () => {
    const { ctx } = project();
    const g = await createGate();
    const patch = (body: string) => ({ tool: 'apply_patch', args: { command: body } }) as ToolCall;
    // Codex's apply_patch carries its text in the command argument (src/agents/codex.ts).
    const hooks = g.evaluate(patch('*** Begin Patch\n*** Add File: .git/hooks/pre-commit\n+#!/bin/sh\n*** End Patch\n'), ctx);
    expect(hooks.level).toBe('ask');
    expect(hooks.findings.map((f) => f.rule)).toContain('exec-config');
  });

  it('reads ~ in a file tool path as the home directory (the stricter reading)', async () => {
    const { ctx } = project();
    const g = await createGate({ presets: ['sensitive'] });
    expect(g.evaluate({ tool: 'read_file', args: { file_path: '~/.ssh/id_rsa' } }, ctx).level).toBe('deny');
  });
});

describe('importing Claude Code settings never widens', () => {
  // Read as the user's files here: a repository's file lifts nothing at all (project-settings-trust.test.ts).
  it('allow ["Grep"] allows the Grep tool, not every read', async () => {
    const { root, ctx } = project();
    const file = join(root, '.claude', 'settings.json');
    writeFileSync(file, JSON.stringify({ permissions: { allow: ['Grep', 'Glob', 'LS'] } }));
    const g = await createGate({ settings: [{ source: 'user', file }] });
    expect(g.evaluate(sh('cat ~/.bash_history'), { ...ctx, env: { HOME: ctx.home! } }).level).not.toBe('allow');
    expect(g.evaluate({ tool: 'Read', args: { file_path: join(ctx.home!, '.bash_history') } }, ctx).level).not.toBe('allow');
    expect(g.evaluate({ tool: 'Grep', args: { pattern: 'x', path: '/etc' } }, ctx).level).toBe('allow');
  });

  it('imports rules for tools shellgate does not gate, never a hard error, and they match only that tool', async () => {
    const { root, ctx } = project();
    const file = join(root, '.claude', 'settings.json');
    const names = [
      'Task',
      'Agent(Explore)',
      'TodoWrite',
      'Skill(pdf)',
      'SlashCommand(/x)',
      'BashOutput',
      'KillShell',
      'ExitPlanMode',
      'WebSearch',
      'mcp__server__*',
      'FutureTool(arg)',
    ];
    writeFileSync(file, JSON.stringify({ permissions: { allow: names, deny: ['Agent(general-purpose)'] } }));
    const g = await createGate({ settings: [{ source: 'user', file }] });
    expect(g.policy.rules.map((r) => r.rule.text)).toEqual(expect.arrayContaining(names));
    expect(g.evaluate({ tool: 'Agent', args: { subagent_type: 'general-purpose', prompt: 'x' } }, ctx).level).toBe('deny');
    expect(g.evaluate({ tool: 'WebSearch', args: { query: 'x' } }, ctx).level).toBe('allow');
    expect(g.evaluate({ tool: 'mcp__server__read', args: {} }, ctx).level).toBe('allow');
    expect(g.evaluate({ tool: 'mcp__other__read', args: {} }, ctx).level).toBe('ask');
    // None of them allows a shell command or a file read.
    expect(g.evaluate(sh('git push origin main'), ctx).level).toBe('ask');
    // An allow naming a tool whose subject shellgate cannot read does not allow it.
    expect(g.evaluate({ tool: 'FutureTool', args: { x: 'arg' } }, ctx).level).toBe('ask');
  });

  it('skips an imported allow rule it cannot read, saying so, and never skips a deny or ask', async () => {
    const { root, ctx } = project();
    const file = join(root, '.claude', 'settings.local.json');
    // Old "always allow" entries hold whole command lines; shellgate's Bash rules name one command.
    writeFileSync(file, JSON.stringify({ permissions: { allow: ['Bash(cd /x && npm test)', 'Bash(ls)'] } }));
    const g = await createGate({ settings: [{ source: 'user', file }] });
    expect(g.policy.warnings).toEqual([expect.stringMatching(/allow\/0: allow rule "Bash\(cd \/x && npm test\)" skipped/)]);
    expect(g.evaluate(sh('ls'), ctx).level).toBe('allow');
    expect(g.evaluate(sh('cd /x && npm test'), ctx).level).toBe('ask');
    writeFileSync(file, JSON.stringify({ permissions: { deny: ['Bash(curl x | sh)'] } }));
    await expect(createGate({ settings: [{ source: 'local', file }] })).rejects.toThrow(/deny\/0.*one command/);
  });

  it("still rejects an unknown tool name in shellgate's own settings (a typo must not pass silently)", async () => {
    await expect(createGate({ settings: [{ source: 'project', settings: { permissions: { allow: ['Bahs(ls)'] } } }] })).rejects.toThrow(/unknown tool "Bahs"/);
  });

  it('skips optional settings files that do not exist (settings.local.json, a user config), and fails for a missing project file', async () => {
    const { root, home, ctx } = project();
    writeFileSync(join(root, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(curl *)'] } }));
    const g = await createGate({
      settings: [
        { source: 'project', file: join(root, '.claude', 'settings.json') },
        { source: 'local', file: join(root, '.claude', 'settings.local.json') },
        { source: 'user', file: join(home, '.config', 'shellgate.json') },
      ],
    });
    expect(g.evaluate(sh('curl https://example.com'), ctx).level).toBe('deny');
    await expect(createGate({ settings: [{ source: 'project', file: join(root, 'nope.json') }] })).rejects.toThrow(/cannot read/);
  });
});

describe('rule semantics users rely on', () => {
  const settings = {
    permissions: {
      allow: ['Bash(find:*)', 'Bash(git commit *)', 'Bash(git push *)', 'Bash(find . -name *.o -delete)'],
      ask: ['Bash(npm publish *)'],
      deny: ['Bash(rm -rf *)'],
    },
  };

  it('an explicit ask rule still asks in bypass (yolo), auto-edit and auto modes', async () => {
    const { ctx } = project();
    const g = await createGate({ settings: [{ source: 'project', settings }] });
    for (const mode of ['yolo', 'auto-edit', 'auto', 'default'] as const) {
      const d = g.evaluate(sh('npm publish --access public'), { ...ctx, mode });
      expect(d.level, mode).toBe('ask');
      expect(d.layer, mode).toBe('rule-ask');
    }
    // Without an ask rule, yolo turns ask into allow.
    expect(g.evaluate(sh('make deploy'), { ...ctx, mode: 'yolo' }).level).toBe('allow');
  });

  it("an allow rule's * does not stand for options that change what the program is", async () => {
    const { ctx } = project();
    const g = await createGate({ settings: [{ source: 'project', settings }] });
    expect(g.evaluate(sh('find . -name "*.ts"'), ctx).level).toBe('allow');
    for (const c of [
      'find src -delete',
      'find . -type f -exec rm {} +',
      'find . -execdir sh -c x \\;',
      'find . -fprint out.txt',
      'git commit --no-verify -m x',
      'git commit -n -m x',
      'git push --force origin main',
      'git push -f',
      'git push origin --delete main',
    ]) {
      const d = g.evaluate(sh(c), ctx);
      expect(d.level, c).not.toBe('allow');
    }
    expect(g.evaluate(sh('git commit --no-verify -m x'), ctx).reason).toMatch(/named-option: Bash\(git commit \*\) does not name `--no-verify`/);
    // A rule that names the option covers it.
    expect(g.evaluate(sh('find . -name *.o -delete'), ctx).level).toBe('allow');
    expect(g.evaluate(sh('git push origin main'), ctx).level).toBe('allow');
  });

  it('a backslash-newline inside a program name or option does not slip past a deny rule', async () => {
    const { ctx } = project();
    const g = await createGate({ settings: [{ source: 'project', settings }] });
    for (const c of ['r\\\nm -rf /tmp/x', 'rm -r\\\nf /tmp/x', 'r\\\nm -\\\nrf /tmp/x', 'echo ok; \\\nrm -rf /tmp/x', 'sudo r\\\nm -rf /tmp/x']) {
      expect(g.evaluate(sh(c), ctx).level, JSON.stringify(c)).toBe('deny');
    }
  });
});
