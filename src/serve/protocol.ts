/**
 * The Unix-socket protocol of `shellgate serve`, shared by the server and the hook's client mode:
 * newline-delimited JSON, one request per line, one answer per line, in order.
 *
 *   request  {"agent": "claude-code", "input": "<the hook JSON text>", …optional fields below}
 *   answer   {"stdout": "…", "stderr": "…", "exitCode": 0}            (the HookAnswer)
 *
 * When the server refuses a request (an unknown agent, a peer of another uid, options or a version
 * that differ from the client's) the answer is still a blocking HookAnswer, so a naive client can
 * never read a refusal as "go ahead", and it carries `error`: shellgate's own client then decides
 * in-process instead. This module imports nothing heavy: the client loads it on every hook call.
 */
import { isShellDialect } from '../syntax/dialects.js';

/** The policy flags a hook or a server runs with; a server answers only clients with the same. */
export interface PolicyOptions {
  /** shellgate's settings file, absolute (`--config`). */
  config: string | null;
  presets: string[];
  mode: string | null;
  /** Absolute workspace roots (`--workspace`). */
  workspaces: string[];
  agentSettings: boolean;
  /** Absolute audit log file (`--audit-log`). */
  auditLog: string | null;
  /** `--ask-as-deny` (absent: false). */
  askAsDeny?: boolean;
  /** `--shell` (absent: the settings', else the agent's own). */
  shell?: string;
}

export interface ServeRequest {
  agent: string;
  input: string;
  /** The client's policy flags: answered only if they equal the server's (else `error`). */
  options?: PolicyOptions;
  /** The client's shellgate version: a server of another version refuses (its decisions may differ). */
  version?: string;
  /** The directory the hook runs in, for events that name no cwd (the in-process default). */
  cwd?: string;
  /** The hook's environment: what `$VAR` in a command expands to, as in-process. */
  env?: Record<string, string>;
  /** The client's pid: where the server looks first for the peer's process (it is verified, never trusted). */
  pid?: number;
}

export interface ServeAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Set when the server refused to decide; the blocking answer above is what a naive client gets. */
  error?: string;
}

/** Requests larger than this are refused (the analyser's own limit is 4 MiB of command text). */
export const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** One comparable text for a set of policy options (order of presets does not matter). */
export function optionsKey(o: PolicyOptions): string {
  return JSON.stringify({
    config: o.config,
    presets: [...o.presets].sort(),
    mode: o.mode,
    workspaces: o.workspaces,
    agentSettings: o.agentSettings,
    auditLog: o.auditLog,
    askAsDeny: o.askAsDeny === true,
    shell: o.shell ?? null,
  });
}

/** A request line, checked; a string says what is wrong with it. */
export function parseRequest(line: string): ServeRequest | string {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch (e) {
    return `the request is not JSON (${(e as Error).message})`;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'the request must be a JSON object {"agent", "input"}';
  const o = data as Record<string, unknown>;
  if (typeof o.agent !== 'string') return 'the request has no "agent" string';
  if (typeof o.input !== 'string') return 'the request has no "input" string (the hook JSON as text)';
  const req: ServeRequest = { agent: o.agent, input: o.input };
  if (o.options !== undefined) {
    const p = o.options as Record<string, unknown> | null;
    const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
    const nullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';
    if (
      typeof p !== 'object' ||
      p === null ||
      !nullableString(p.config) ||
      !strings(p.presets) ||
      !nullableString(p.mode) ||
      !strings(p.workspaces) ||
      typeof p.agentSettings !== 'boolean' ||
      !nullableString(p.auditLog) ||
      !(p.shell === undefined || isShellDialect(p.shell))
    ) {
      return 'the request\'s "options" are malformed';
    }
    req.options = {
      config: p.config,
      presets: p.presets,
      mode: p.mode,
      workspaces: p.workspaces,
      agentSettings: p.agentSettings,
      auditLog: p.auditLog,
      askAsDeny: p.askAsDeny === true,
      ...(typeof p.shell === 'string' ? { shell: p.shell } : {}),
    };
  }
  if (o.version !== undefined) {
    if (typeof o.version !== 'string') return '"version" must be a string';
    req.version = o.version;
  }
  if (o.cwd !== undefined) {
    if (typeof o.cwd !== 'string') return '"cwd" must be a string';
    req.cwd = o.cwd;
  }
  if (o.env !== undefined) {
    const env = o.env as Record<string, unknown> | null;
    if (typeof env !== 'object' || env === null || Array.isArray(env) || Object.values(env).some((v) => typeof v !== 'string'))
      return '"env" must be an object of strings';
    req.env = env as Record<string, string>;
  }
  if (o.pid !== undefined) {
    if (!Number.isSafeInteger(o.pid) || (o.pid as number) <= 0) return '"pid" must be a positive integer';
    req.pid = o.pid as number;
  }
  return req;
}

/** An answer line, checked (the client never prints something that is not a whole HookAnswer). */
export function parseAnswer(line: string): ServeAnswer | null {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const o = data as Record<string, unknown>;
  if (typeof o.stdout !== 'string' || typeof o.stderr !== 'string' || !Number.isInteger(o.exitCode)) return null;
  return { stdout: o.stdout, stderr: o.stderr, exitCode: o.exitCode as number, ...(typeof o.error === 'string' ? { error: o.error } : {}) };
}
