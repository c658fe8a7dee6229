/**
 * Shell scripts: `*.sh`, `*.bash`, `*.zsh`, or any file whose shebang names sh, bash or zsh. The whole file is
 * one snippet, so functions, heredocs and continuations are read as bash reads them, and the
 * state one line sets (a `cd`, a variable) is known to the lines after it.
 */
import { basename } from 'node:path';
import { verbatimText } from '../source-text.js';
import type { SourceKind } from './types.js';

/** Shells whose scripts shellgate reads (as bash: what bash would run is what these would). */
const POSIX_SHELLS = new Set(['sh', 'bash', 'dash', 'ash', 'ksh', 'mksh', 'busybox']);

/**
 * The interpreter a shebang names: `#!/bin/sh -e` → sh, `#!/usr/bin/env bash` → bash,
 * `#!/usr/bin/env -S bash -eu` → bash; null without a shebang.
 */
export function shebangProgram(head: string): string | null {
  if (!head.startsWith('#!')) return null;
  const words = head.slice(2).split('\n', 1)[0]!.trim().split(/\s+/);
  let i = 0;
  if (basename(words[0] ?? '') === 'env') {
    i = 1;
    while (i < words.length && (words[i]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) i++;
  }
  const prog = basename(words[i] ?? '');
  return prog === '' ? null : prog;
}

const SCRIPT_NAME = /\.(sh|bash|zsh)$/;

/** The shell a script is read as: bash, zsh, or sh (dash's reading) for dash, busybox sh, ksh and their kin; fish and the rest are not read. */
function scriptShell(prog: string | null, path: string): string {
  if (prog === null) return /\.(bash|zsh)$/.exec(path)?.[1] ?? 'sh';
  if (prog === 'bash' || prog === 'zsh') return prog;
  return POSIX_SHELLS.has(prog) ? 'sh' : prog;
}

export const shellScript: SourceKind = {
  name: 'shell',
  matches(path, head) {
    if (SCRIPT_NAME.test(path)) return true;
    const prog = shebangProgram(head);
    return prog !== null && (POSIX_SHELLS.has(prog) || prog === 'zsh');
  },
  extract(text, path) {
    const shell = scriptShell(shebangProgram(text.slice(0, 256)), path);
    return { snippets: [{ ...verbatimText(text, 0, text.length), origin: 'script', shell, where: 'host' }], findings: [] };
  },
};
