/** Reading an agent's hook JSON: every missing or mistyped field is a `HookInputError` naming it. */
import { HookInputError, type HookAnswer, type HookRequest } from './types.js';

export function expectObject(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new HookInputError(`${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

export function expectString(o: Record<string, unknown>, key: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') throw new HookInputError(`the hook input has no "${key}" string`);
  return v;
}

export function optionalString(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new HookInputError(`"${key}" must be a string`);
  return v;
}

/** Arguments that arrive as a JSON-encoded string (Copilot CLI's `toolArgs`). */
export function objectOrJson(v: unknown, what: string): Record<string, unknown> {
  if (typeof v === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      throw new HookInputError(`${what} is a string that is not JSON`);
    }
    return expectObject(parsed, what);
  }
  return expectObject(v, what);
}

/**
 * Claude Code's PreToolUse payload, which Codex and Qwen Code send too: `{session_id, cwd,
 * permission_mode, hook_event_name, tool_name, tool_input}`. `onlyPreToolUse`: another event's
 * answer has another shape, so a deny printed for it would be ignored — refuse it.
 */
export function decodePreToolUse(input: unknown, onlyPreToolUse = false): HookRequest {
  const o = expectObject(input, 'the hook input');
  const event = optionalString(o, 'hook_event_name');
  if (onlyPreToolUse && event !== undefined && event !== 'PreToolUse') throw new HookInputError(`shellgate answers PreToolUse events, not "${event}"`);
  const tool = expectString(o, 'tool_name');
  const args = expectObject(o.tool_input, '"tool_input"');
  return { tool, args, event, cwd: optionalString(o, 'cwd'), session: optionalString(o, 'session_id'), mode: optionalString(o, 'permission_mode') };
}

/** Exit 2 with the reason on stderr: the blocking failure of the Claude-style protocols. */
export function exitTwo(reason: string): HookAnswer {
  return { stdout: '', stderr: `shellgate: ${reason}\n`, exitCode: 2 };
}
