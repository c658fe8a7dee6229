/** Reading an agent's hook JSON: every missing or mistyped field is a `HookInputError` naming it. */
import { HookInputError } from './types.js';

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
