/**
 * Loading the `bash-parser` package. It is CommonJS, so it comes through createRequire, and it is
 * loaded on demand: only the consensus parser and the differential tests need it.
 */
import { createRequire } from 'node:module';
import type { BPNode } from './tree.js';

export type BashParserFn = (source: string, options?: { mode?: string; insertLOC?: boolean }) => BPNode;

let bashParser: BashParserFn | null = null;
let loading: Promise<void> | null = null;

/** Load bash-parser once per process (it is CommonJS; loaded through createRequire). */
export async function loadBashParser(): Promise<void> {
  if (bashParser) return;
  if (!loading) {
    loading = Promise.resolve().then(() => {
      const require = createRequire(import.meta.url);
      bashParser = require('bash-parser') as BashParserFn;
    });
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/** The loaded parser, or null before loadBashParser() has finished. */
export function loadedBashParser(): BashParserFn | null {
  return bashParser;
}
