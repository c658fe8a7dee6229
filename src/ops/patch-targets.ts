/**
 * The files `patch` writes are named inside the diff, not on the command line (`patch -p1 <
 * fix.diff`). Where the diff is known — a heredoc, a here-string, or a file on disk — its
 * header names are read as GNU patch reads them (ops/patch-headers.ts: indented, `X`-quoted, CRLF,
 * C-quoted names) and every name that is an exec-config file (paths/exec-config.ts) under any `-p`
 * strip level becomes a Write operation; where it is not known, the written files are unknown (a
 * dynamic Write), so no edit mode approves them blindly.
 */
import { readFileSync, statSync } from 'node:fs';
import type { Arg } from '../walk/types.js';
import type { OpBuilder } from './op-builder.js';
import { hasOption, type ParsedArgv } from '../programs/argv.js';
import { diffHeaderNames, stripLevels } from './patch-headers.js';

const MAX_DIFF_BYTES = 256 * 1024;

export function patchTargets(b: OpBuilder, p: ParsedArgv): void {
  if (p.operands.length > 0 || hasOption(p, '-o', '--output', '--dry-run')) return; // the file to patch is named
  const dirOption = p.options.find((o) => (o.name === '-d' || o.name === '--directory') && o.value !== null)?.value ?? null;
  const diff = diffText(b, p);
  if (diff === null) {
    b.add('Write', 'operand', b.cmd.span, { target: 'files named in the diff', dynamic: true });
    return;
  }
  const seen = new Set<string>();
  for (const name of diffHeaderNames(diff)) {
    // Every strip level: which one applies depends on -p and on what exists.
    for (const rel of stripLevels(name)) {
      const value = dirOption && !dirOption.dynamic ? `${dirOption.value.replace(/\/+$/, '')}/${rel}` : rel;
      if (seen.has(value)) continue;
      seen.add(value);
      if (b.classesOf(value)?.includes('exec-config') ?? true) b.path('Write', { value, dynamic: false, glob: false, span: b.cmd.span }, 'operand');
    }
  }
}

/** The diff: stdin text, `-i FILE`, or a file redirected to stdin; null when unknown. */
function diffText(b: OpBuilder, p: ParsedArgv): string | null {
  if (b.cmd.stdinText !== null) return b.cmd.stdinText;
  const input: Arg | null =
    p.options.find((o) => (o.name === '-i' || o.name === '--input') && o.value !== null)?.value ??
    b.cmd.redirects.find((r) => r.op === '<' && r.path !== null)?.path ??
    null;
  if (input === null || input.dynamic || input.glob) return null;
  const path = b.physicalOf(input.value);
  if (path === null) return null;
  try {
    if (statSync(path).size > MAX_DIFF_BYTES) return null;
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
