/** Settings: shellgate's own format, Claude Code and Qwen Code imports, layering, errors, reload. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGate, type ToolCall } from '../../src/index.js';

const sh = (command: string): ToolCall => ({ tool: 'shell', args: { command } });

function project(): { root: string; ctx: { cwd: string; workspaceRoots: string[]; home: string; env: Record<string, string> } } {
  const root = mkdtempSync(join(tmpdir(), 'sg-proj-'));
  mkdirSync(join(root, '.claude'));
  mkdirSync(join(root, '.qwen'));
  mkdirSync(join(root, 'src'));
  return { root, ctx: { cwd: join(root, 'src'), workspaceRoots: [root], home: '/home/user', env: {} } };
}

describe('Claude Code import', () => {
  it('reads permissions with their path semantics: /x is the project root, ./x the cwd, //x absolute, ~/x home', async () => {
    const { root, ctx } = project();
    const file = join(root, '.claude', 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        permissions: { allow: ['Bash(npm run build)'], deny: ['Edit(/src/generated/**)', 'Read(./secret.txt)', 'Read(//etc/shadow)', 'Read(~/.zshrc)'] },
      }),
    );
    // Read as the user's file: a repository's file may not allow (project-settings-trust.test.ts).
    const g = await createGate({ settings: [{ source: 'user', file }] });
    expect(g.evaluate(sh('npm run build'), ctx).level).toBe('allow');
    expect(g.evaluate(sh('npm run build --prod'), ctx).level).not.toBe('allow'); // Claude: exact match
    expect(g.evaluate({ tool: 'edit', args: { path: join(root, 'src/generated/a.ts') } }, ctx).level).toBe('deny');
    expect(g.evaluate(sh('echo x > generated/b.ts'), ctx).level).toBe('deny'); // cwd is src/
    expect(g.evaluate(sh('cat secret.txt'), ctx).level).toBe('deny');
    expect(g.evaluate(sh('cat /etc/shadow'), ctx).level).toBe('deny');
    expect(g.evaluate({ tool: 'read_file', args: { path: '/home/user/.zshrc' } }, ctx).level).toBe('deny');
  });

  it('settings.local.json layers over the project file; a repository file narrows (deny, plan) and never widens (allow, acceptEdits)', async () => {
    const { root, ctx } = project();
    writeFileSync(join(root, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(touch *)'], defaultMode: 'plan' } }));
    writeFileSync(join(root, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { deny: ['Bash(touch secret)'], defaultMode: 'acceptEdits' } }));
    const g = await createGate({
      settings: [
        { source: 'local', file: join(root, '.claude', 'settings.local.json') },
        { source: 'project', file: join(root, '.claude', 'settings.json') },
      ],
    });
    expect(g.evaluate(sh('touch a'), { ...ctx, mode: 'default' }).level).toBe('ask');
    expect(g.evaluate(sh('touch secret'), ctx).level).toBe('deny');
    expect(g.policy.defaultMode).toBe('plan');
    expect(g.policy.warnings.join('\n')).toMatch(/allow rule\(s\) not applied \(Bash\(touch \*\)\)/);
    expect(g.policy.warnings.join('\n')).toMatch(/defaultMode "acceptEdits" skipped/);
  });
});

describe('Qwen Code import', () => {
  it('maps tool names and treats a Bash pattern without * as a prefix', async () => {
    const { root, ctx } = project();
    const file = join(root, '.qwen', 'settings.json');
    writeFileSync(file, JSON.stringify({ permissions: { allow: ['run_shell_command(npm test)', 'read_file'], deny: ['run_shell_command(git push)'] } }));
    const g = await createGate({ settings: [{ source: 'user', file }] });
    expect(g.evaluate(sh('npm test -- --watch'), ctx).level).toBe('allow');
    expect(g.evaluate(sh('git push origin main'), ctx).level).toBe('deny');
    expect(g.evaluate({ tool: 'read_file', args: { path: '/etc/hosts' } }, ctx).level).toBe('allow');
  });
});

describe('managed settings cannot be loosened', () => {
  it('a managed deny or ask stands against user, project, local and session allows', async () => {
    const g = await createGate({
      settings: [
        { source: 'session', settings: { permissions: { allow: ['Bash(curl *)', 'Bash(git push *)'] } } },
        { source: 'managed', settings: { permissions: { deny: ['Bash(curl *)'], ask: ['Bash(git push *)'] } } },
        { source: 'local', settings: { permissions: { allow: ['Bash'] } } },
      ],
    });
    const ctx = { cwd: '/ws/p', workspaceRoots: ['/ws/p'], home: '/home/u', env: {} };
    expect(g.evaluate(sh('curl https://example.com'), ctx).level).toBe('deny');
    expect(g.evaluate(sh('git push origin main'), ctx).level).toBe('ask');
  });
});

describe('bad settings', () => {
  it('name the file, the JSON pointer, the line and the rule; never a silent allow', async () => {
    const { root } = project();
    const file = join(root, 'shellgate.json');
    writeFileSync(file, '{\n  "permissions": {\n    "allow": [\n      "Bash(git status)",\n      "Bahs(ls)"\n    ]\n  }\n}\n');
    await expect(createGate({ settings: [{ source: 'project', file }] })).rejects.toThrow(
      /shellgate\.json: \/permissions\/allow\/1 \(line 5\): rule "Bahs\(ls\)": .*unknown tool "Bahs"/,
    );
    writeFileSync(file, '{"permissions": {"deny": ["Bash(rm -rf x && y)"]}}');
    await expect(createGate({ settings: [{ source: 'project', file }] })).rejects.toThrow(/\/permissions\/deny\/0.*one command/);
    writeFileSync(file, '{"permission": {}}');
    await expect(createGate({ settings: [{ source: 'project', file }] })).rejects.toThrow(/\/permission: unknown setting/);
    writeFileSync(file, '{"presets": ["prison"]}');
    await expect(createGate({ settings: [{ source: 'project', file }] })).rejects.toThrow(/\/presets/);
    writeFileSync(file, '{ not json');
    await expect(createGate({ settings: [{ source: 'project', file }] })).rejects.toThrow(/not valid JSON/);
  });
});

describe('reload', () => {
  it('swaps in a valid policy, and keeps the old one when the new is invalid', async () => {
    const { root, ctx } = project();
    const file = join(root, 'shellgate.json');
    writeFileSync(file, JSON.stringify({ permissions: { allow: ['Bash(touch *)'] } }));
    const g = await createGate({ settings: [{ source: 'project', file }] });
    expect(g.evaluate(sh('touch a'), ctx).level).toBe('allow');
    writeFileSync(file, JSON.stringify({ permissions: { deny: ['Bash(touch *)'] } }));
    expect(await g.reload()).toEqual({ ok: true });
    expect(g.evaluate(sh('touch a'), ctx).level).toBe('deny');
    writeFileSync(file, JSON.stringify({ permissions: { allow: ['Nope(x)'] } }));
    const r = await g.reload();
    expect(r.ok).toBe(false);
    expect(r.ok === false && r.error).toMatch(/Nope/);
    expect(g.evaluate(sh('touch a'), ctx).level).toBe('deny');
  });
});

describe('channels', () => {
  it('rules can be scoped to channels', async () => {
    const g = await createGate({ settings: [{ source: 'project', settings: { permissions: { allow: [{ rule: 'Bash(touch *)', channels: ['ide'] }] } } }] });
    const ctx = { cwd: '/ws/p', workspaceRoots: ['/ws/p'], home: '/home/u', env: {} };
    expect(g.evaluate(sh('touch a'), { ...ctx, channel: 'ide' }).level).toBe('allow');
    expect(g.evaluate(sh('touch a'), { ...ctx, channel: 'cli' }).level).toBe('ask');
    expect(g.evaluate(sh('touch a'), { ...ctx, channel: 'non-interactive' }).level).toBe('deny');
  });
});
