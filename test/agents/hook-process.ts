/**
 * Runs `shellgate hook AGENT` as the agent does: a separate process, the event JSON on stdin, a
 * private HOME (so the tester's own agent settings never apply), and reads back what the agent
 * reads — the exit code, stdout parsed as JSON when there is any, and stderr.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');

export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON, or null when it is empty. */
  json: Record<string, unknown> | null;
}

export interface Sandbox {
  /** The hook process's working directory (as an agent's hook runner would set it). */
  base: string;
  home: string;
  /** A project folder inside `base`. */
  project(name: string): string;
  /** Writes a file (creating its folders) and returns its path. */
  write(path: string, text: string): string;
  run(agent: string, payload: unknown, flags?: string[]): HookRun;
}

export function sandbox(prefix: string): Sandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(base, 'home');
  mkdirSync(home);
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  return {
    base,
    home,
    project(name: string) {
      const dir = join(base, name);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
    write,
    run(agent, payload, flags = []) {
      const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
      const env: Record<string, string | undefined> = { ...process.env, HOME: home, USERPROFILE: home, NO_COLOR: '1' };
      delete env.CLAUDE_CONFIG_DIR;
      const r = spawnSync(process.execPath, [BIN, 'hook', agent, ...flags], { input, encoding: 'utf8', cwd: base, env });
      const out = r.stdout ?? '';
      return { code: r.status, stdout: out, stderr: r.stderr ?? '', json: out.trim() === '' ? null : (JSON.parse(out) as Record<string, unknown>) };
    },
  };
}

/** A Claude Code PreToolUse event as Claude Code sends it (hooks reference: every input field). */
export function claudeEvent(where: { cwd: string; home: string }, tool: string, input: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    session_id: '8f0c6a1e-5d2b-4c3e-9a7f-1b2c3d4e5f60',
    transcript_path: join(where.home, '.claude', 'projects', 'project', 'transcript.jsonl'),
    cwd: where.cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: input,
    tool_use_id: 'toolu_01ABC123',
    ...extra,
  };
}
