/** Readers for ../shared/corpus (never copied into the repo). Missing files fail loudly. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus');

function read(name: string): string {
  const p = join(SHARED, name);
  if (!existsSync(p)) throw new Error(`shared corpus file missing: ${p} (it sits beside the project as ../shared/corpus)`);
  return readFileSync(p, 'utf8');
}

export function nl2bash(): string[] {
  return read('nl2bash.txt')
    .split('\n')
    .filter((l) => l !== '');
}

export function tldr(): { platform: string; page: string; command: string }[] {
  return read('tldr.tsv')
    .split('\n')
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => {
      const [platform, page, command] = l.split('\t');
      return { platform, page, command: command ?? '' };
    });
}

export function jsonl<T>(name: string): T[] {
  return read(name)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}
