/**
 * The library's entry to the linter. Its YAML parser and source kinds are loaded on the first
 * call, not with the library: an agent scheduler that only decides commands does not pay for them
 * (the library bundle splits them into a chunk of their own).
 */
import type { Linter, LinterOptions } from './linter.js';

export type { Linter, LinterOptions } from './linter.js';

export async function createLinter(options: LinterOptions): Promise<Linter> {
  const { createLinterNow } = await import('./linter.js');
  return createLinterNow(options);
}
