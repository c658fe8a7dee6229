/** Exit statuses every command shares, and the package version. */
import { readFileSync } from 'node:fs';
import type { Level } from '../verdict/types.js';

export const EXIT: Record<Level, number> = { allow: 0, ask: 1, deny: 2 };
export const EXIT_USAGE = 64;
export const EXIT_INTERNAL = 70;

export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
