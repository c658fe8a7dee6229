/** `audit.file` in shellgate's settings: where decisions are logged when no `--audit-log` is given. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function auditFileFromConfig(config: string): { file: string; maxBytes?: number } | null {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(config, 'utf8'));
  } catch {
    return null; // the gate reports an unreadable config with its own error
  }
  const audit = (data as { audit?: { file?: unknown; maxBytes?: unknown } } | null)?.audit;
  if (typeof audit?.file !== 'string') return null;
  return { file: resolve(dirname(config), audit.file), ...(typeof audit.maxBytes === 'number' ? { maxBytes: audit.maxBytes } : {}) };
}
