/** `audit.file` in shellgate's settings: where decisions are logged when no `--audit-log` is given. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AuditLog } from './log.js';

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

/** The log `--audit-log` names (sized by the config's `audit.maxBytes`), else the config's `audit.file`, else none. */
export function openAuditLog(flag: string | null, config: string | null, onError: (message: string) => void): AuditLog | null {
  const fromConfig = config ? auditFileFromConfig(config) : null;
  const maxBytes = fromConfig?.maxBytes !== undefined ? { maxBytes: fromConfig.maxBytes } : {};
  if (flag !== null) return new AuditLog(resolve(flag), { ...maxBytes, onError });
  return fromConfig ? new AuditLog(fromConfig.file, { ...maxBytes, onError }) : null;
}
