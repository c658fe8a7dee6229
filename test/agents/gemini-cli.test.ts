/**
 * `shellgate hook gemini-cli` as Gemini CLI runs it: a separate process, a BeforeTool payload on
 * stdin (written from google-gemini/gemini-cli's hooks/types.ts `BeforeToolInput` and the hooks
 * docs), the answer read the way Gemini CLI's hook runner reads it. Build first (dist/).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiCli } from '../../src/agents/gemini-cli.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
// The workspace is the session's cwd; HOME is a separate folder so the user's own settings never leak in.
const WS = realpathSync(mkdtempSync(join(tmpdir(), 'sg-gemini-')));
const HOME = realpathSync(mkdtempSync(join(tmpdir(), 'sg-gemini-home-')));
mkdirSync(join(WS, 'sub'));
writeFileSync(join(WS, 'sub', '.env'), 'API_KEY=1\n');
writeFileSync(join(WS, '.env'), 'API_KEY=1\n');
writeFileSync(join(WS, 'README.md'), '# demo\n');
mkdirSync(join(HOME, '.gemini'));
writeFileSync(join(HOME, '.gemini', 'settings.json'), JSON.stringify({ tools: { exclude: ['run_shell_command(curl)'] } }));
mkdirSync(join(WS, '.gemini'));
writeFileSync(join(WS, '.gemini', 'settings.json'), JSON.stringify({ tools: { allowed: ['run_shell_command(npm test)'] } }));
/** A glob that climbs from the workspace to the root (outside the workspace and the temp dirs). */
const UP = relative(WS, '/') + '/**';

const CONFIG = join(HOME, 'shellgate.json');
writeFileSync(
  CONFIG,
  JSON.stringify({ permissions: { allow: ['WebFetch(domain:example.com)', 'mcp__github'], deny: ['WebFetch(domain:evil.test)', 'mcp__github__delete_repo'] } }),
);

function payload(tool_name: string, tool_input: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: '5f0c2a9e-3b7d-4c1e-9a57-0d2f8f1b6c44',
    transcript_path: join(HOME, '.gemini/tmp/3b1f/chats/session-2026-08-21T10-02-5f0c2a9e.jsonl'),
    cwd: WS,
    hook_event_name: 'BeforeTool',
    timestamp: '2026-08-21T10:03:11.482Z',
    tool_name,
    tool_input,
    ...extra,
  });
}

interface Reading {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The JSON object on stdout, if any. */
  json: Record<string, unknown> | null;
  /** What Gemini CLI v0.30+ decides: `stdout || stderr`, JSON first, whatever the exit code. */
  current: string;
  /** What v0.20–v0.29 decide: stdout JSON on exit 0; on another code stderr text (2 → deny). */
  legacy: string;
}

function decisionOf(o: unknown): string {
  const d = typeof o === 'object' && o !== null ? (o as Record<string, unknown>).decision : undefined;
  if (d === 'deny' || d === 'block') return 'deny';
  if (d === 'ask') return 'ask';
  return 'allow'; // no output, `allow`, or anything Gemini does not know: the call goes on
}

function plainText(text: string, code: number): string {
  return code === 2 ? 'deny' : 'allow';
}

function hook(input: string, flags: string[] = []): Reading {
  const r = spawnSync(process.execPath, [BIN, 'hook', 'gemini-cli', ...flags], { input, encoding: 'utf8', cwd: WS, env: { ...process.env, HOME } });
  const code = r.status ?? 0;
  let json: Record<string, unknown> | null;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = null;
  }
  const text = r.stdout.trim() || r.stderr.trim();
  let current = 'allow';
  if (text) {
    try {
      current = decisionOf(JSON.parse(text));
    } catch {
      current = plainText(text, code);
    }
  }
  let legacy = 'allow';
  if (code === 0 && r.stdout.trim()) {
    try {
      legacy = decisionOf(JSON.parse(r.stdout.trim()));
    } catch {
      legacy = 'allow';
    }
  } else if (code !== 0 && r.stderr.trim()) legacy = plainText(r.stderr.trim(), code);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json, current, legacy };
}

function expectDecision(r: Reading, level: 'allow' | 'ask' | 'deny'): void {
  expect(r.code, r.stderr).toBe(0);
  expect(r.json?.decision, r.stdout).toBe(level);
  expect(typeof r.json?.reason).toBe('string');
  expect(r.current).toBe(level);
}

/** Gemini's blocking answer: a deny under both parsers, exit 2, the reason on stderr. */
function expectBlocked(r: Reading): void {
  expect(r.code).toBe(2);
  expect(r.json?.decision).toBe('deny');
  expect(r.stderr.trim()).not.toBe('');
  expect(r.current).toBe('deny');
  expect(r.legacy).toBe('deny');
}

describe('gemini-cli hook: decisions', () => {
  it('allows a read-only command, asks for a push, denies a guard rule', () => {
    expectDecision(
      hook(payload('run_shell_command', { command: 'git status && ls', description: 'Check tree', dir_path: '.', is_background: false })),
      'allow',
    );

    const ask = hook(payload('run_shell_command', { command: 'git push origin main', dir_path: '.' }));
    expectDecision(ask, 'ask');
    // The confirmation dialog shows systemMessage; the reason says what was judged.
    expect(ask.json?.systemMessage).toMatch(/network/);
    expect(ask.legacy).toBe('ask');

    const deny = hook(payload('run_shell_command', { command: 'rm -rf ~' }));
    expectDecision(deny, 'deny');
    expect(deny.json?.reason).toMatch(/destructive-delete/);
    expect(deny.legacy).toBe('deny');
  });

  it('--ask-as-deny turns an ask into a deny saying approval is needed (Gemini before v0.36 runs an asked call), and leaves allow and deny alone', () => {
    const ask = hook(payload('run_shell_command', { command: 'git push origin main', dir_path: '.' }), ['--ask-as-deny']);
    expectDecision(ask, 'deny');
    expect(ask.legacy).toBe('deny');
    expect(ask.json?.reason).toMatch(/approval is needed.*--ask-as-deny/);
    expectDecision(hook(payload('run_shell_command', { command: 'git status', dir_path: '.' }), ['--ask-as-deny']), 'allow');
    expectDecision(hook(payload('run_shell_command', { command: 'rm -rf ~' }), ['--ask-as-deny']), 'deny');
  });

  it("reads the shell tool's dir_path (and the older directory) as the cwd", () => {
    for (const key of ['dir_path', 'directory']) {
      const r = hook(payload('run_shell_command', { command: 'cat .env', [key]: 'sub' }));
      expect(r.json?.decision, key).not.toBe('allow');
      expect(r.json?.reason).toContain(join(WS, 'sub', '.env'));
      expectDecision(hook(payload('run_shell_command', { command: 'cat .env', [key]: 'sub' }), ['--preset', 'sensitive']), 'deny');
      const outside = hook(payload('run_shell_command', { command: 'ls', [key]: '/etc' }));
      expectDecision(outside, 'ask');
      expect(outside.json?.reason).toMatch(/outside-workspace/);
    }
  });

  it('reads read_file under each argument name, and never allows it without one', () => {
    expectDecision(hook(payload('read_file', { file_path: 'README.md', start_line: 1, end_line: 80 })), 'allow');
    expectDecision(hook(payload('read_file', { absolute_path: join(WS, 'README.md') })), 'allow');
    expectDecision(hook(payload('read_file', { absolute_path: '/etc/passwd' })), 'ask');
    for (const args of [{}, { file_path: 42 }, { absolute_path: ['README.md'] }]) {
      const r = hook(payload('read_file', args));
      expect(r.json?.decision, JSON.stringify(args)).toBe('ask');
      expect(r.json?.reason).toMatch(/tool-arguments/);
    }
  });

  it('checks every path read_many_files names, in paths and include', () => {
    const flags = ['--preset', 'sensitive'];
    expectDecision(hook(payload('read_many_files', { paths: ['.env'] }), flags), 'deny');
    expectDecision(hook(payload('read_many_files', { include: ['README.md', '**/.env'], exclude: ['node_modules'] }), flags), 'deny');
    expectDecision(hook(payload('read_many_files', { include: ['README.md', 'src/**/*.ts'] }), flags), 'allow');
    expect(hook(payload('read_many_files', { include: [42] })).json?.decision).toBe('ask');
    expect(hook(payload('read_many_files', { exclude: ['*.md'] })).json?.decision).toBe('ask');
  });

  it('reads what glob and grep patterns reach, under each argument name', () => {
    expectDecision(hook(payload('glob', { pattern: '**/*.ts' })), 'allow');
    expectDecision(hook(payload('glob', { pattern: UP })), 'ask');
    expectDecision(hook(payload('glob', { pattern: '*.conf', dir_path: '/etc' })), 'ask');
    expectDecision(hook(payload('glob', { pattern: '*.conf', path: '/etc' })), 'ask');
    expectDecision(hook(payload('grep_search', { pattern: 'TODO' })), 'allow');
    expectDecision(hook(payload('grep_search', { pattern: 'TODO', include_pattern: UP })), 'ask');
    expectDecision(hook(payload('grep_search', { pattern: 'root', dir_path: '/etc' })), 'ask');
    expectDecision(hook(payload('search_file_content', { pattern: 'TODO', include: UP })), 'ask');
    expectDecision(hook(payload('search_file_content', { pattern: 'root', path: '/etc' })), 'ask');
  });

  it("fetches every URL written in web_fetch's prompt", () => {
    const flags = ['--config', CONFIG];
    expectDecision(hook(payload('web_fetch', { prompt: 'Summarise https://example.com/docs in 3 bullets' }), flags), 'allow');
    const two = hook(payload('web_fetch', { prompt: 'Compare https://example.com/a with (https://other.test/b)' }), flags);
    expectDecision(two, 'ask');
    expect(two.json?.reason).toContain('other.test');
    expectDecision(hook(payload('web_fetch', { prompt: 'Read https://example.com/a and "https://evil.test/x"' }), flags), 'deny');
    expectDecision(hook(payload('web_fetch', { url: 'https://evil.test/' }), flags), 'deny');
    // No URL to check: never allowed.
    expectDecision(hook(payload('web_fetch', { prompt: 'Summarise the example.com homepage' }), flags), 'ask');
  });

  it('names MCP tools by mcp_context, and never splits an ambiguous name into an allowed server', () => {
    const flags = ['--config', CONFIG];
    const ctx = (tool: string) => ({
      mcp_context: { server_name: 'github', tool_name: tool, command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] },
    });
    expectDecision(hook(payload('mcp_github_create_issue', { title: 'Bug' }, ctx('create_issue')), flags), 'allow');
    expectDecision(hook(payload('mcp_github_delete_repo', { repo: 'x' }, ctx('delete_repo')), flags), 'deny');
    // Without mcp_context the name could be server github or github_create: no allow applies.
    expectDecision(hook(payload('mcp_github_create_issue', { title: 'Bug' }), flags), 'ask');
    // Before v0.34 a clashing MCP tool was `<server>__<tool>`.
    expectDecision(hook(payload('github__create_issue', { title: 'Bug' }), flags), 'allow');
    expectDecision(hook(payload('github__delete_repo', { repo: 'x' }), flags), 'deny');
  });

  it('applies modes passed with --mode: yolo keeps a guard deny, plan denies a write', () => {
    expectDecision(hook(payload('run_shell_command', { command: 'rm -rf ~' }), ['--mode', 'yolo']), 'deny');
    expectDecision(hook(payload('run_shell_command', { command: 'git push origin main' }), ['--mode', 'yolo']), 'allow');
    const plan = hook(payload('write_file', { file_path: 'notes.md', content: 'x' }), ['--mode', 'plan']);
    expectDecision(plan, 'deny');
    expect(plan.json?.reason).toMatch(/plan mode/);
    expectDecision(hook(payload('replace', { file_path: 'README.md', old_string: 'a', new_string: 'b', instruction: 'x' }), ['--mode', 'plan']), 'deny');
    expectDecision(hook(payload('read_file', { file_path: 'README.md' }), ['--mode', 'plan']), 'allow');
  });

  it("imports tools.exclude from the user settings; the project's tools.allowed lifts nothing", () => {
    const r = hook(payload('run_shell_command', { command: 'curl -s https://example.com' }));
    expectDecision(r, 'deny');
    expect(r.json?.reason).toContain('.gemini/settings.json');
    // The folder is not trusted (no trust file), and a repository's file may never widen anyway.
    expectDecision(hook(payload('run_shell_command', { command: 'npm test -- --watch=false' })), 'ask');
  });

  it("gives no opinion on the agent's own tools", () => {
    const r = hook(payload('write_todos', { todos: [{ description: 'x', status: 'pending' }] }));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
  });
});

describe('gemini-cli hook: every failure blocks', () => {
  const cases: [string, string][] = [
    ['not JSON', 'run_shell_command rm -rf /'],
    ['empty stdin', ''],
    ['a JSON array', '[]'],
    ['missing tool_name', JSON.stringify({ hook_event_name: 'BeforeTool', cwd: WS, tool_input: { command: 'ls' } })],
    ['tool_input a string', payload('run_shell_command', 'ls')],
    ['tool_input an array', payload('run_shell_command', ['ls'])],
    ['tool_input missing', JSON.stringify({ hook_event_name: 'BeforeTool', cwd: WS, tool_name: 'run_shell_command' })],
    ['an unknown tool', payload('discovered_tool_deploy', { env: 'prod' })],
    [
      'a cwd that does not exist',
      JSON.stringify({ hook_event_name: 'BeforeTool', cwd: join(WS, 'gone'), tool_name: 'read_file', tool_input: { file_path: 'a' } }),
    ],
  ];
  for (const [what, input] of cases) {
    it(`blocks on ${what}`, () => {
      const r = hook(input);
      expectBlocked(r);
      expect(r.json?.reason).toMatch(/^shellgate: /);
    });
  }

  it('blocks on a bad flag', () => {
    expectBlocked(hook(payload('read_file', { file_path: 'README.md' }), ['--mode', 'turbo']));
  });
});

describe('gemini-cli profile', () => {
  it('registers a BeforeTool hook for every tool with hooks switched on, timeout in milliseconds', () => {
    const s = geminiCli.init.snippet('shellgate hook gemini-cli') as {
      hooksConfig: { enabled: boolean };
      hooks: Record<string, { matcher: string; hooks: { type: string; command: string; timeout: number }[] }[]>;
    };
    expect(Object.keys(s.hooks)).toEqual(['BeforeTool']);
    expect(s.hooksConfig.enabled).toBe(true);
    expect(s.hooks.BeforeTool[0].matcher).toBe('*');
    expect(s.hooks.BeforeTool[0].hooks[0]).toMatchObject({ type: 'command', command: 'shellgate hook gemini-cli' });
    expect(s.hooks.BeforeTool[0].hooks[0].timeout).toBeGreaterThanOrEqual(10_000);
  });
});
