/**
 * Which shells read the code being walked, and what is walked for each. bash's reading is the
 * text; dash's and zsh's are the text said in bash (src/syntax/shell-readings.ts): the same where
 * every construct means the same there, rewritten where shellgate can say what that shell does,
 * and asking with `dialect-difference`, naming the shell, where it cannot.
 */
import type { Script, Span } from '../syntax/ast.js';
import type { ParseResult } from '../syntax/parse-result.js';
import { readAs, type Reader, type ShellReading } from '../syntax/shell-readings.js';
import type { ShellDialect } from '../syntax/dialects.js';
import type { CommandContext } from './types.js';
import type { SourceFrame } from './source-frame.js';
import type { Walker } from './walker-api.js';

/**
 * Shells a body may be run by, each with the readings it gets: `sh` is dash on Debian and Ubuntu
 * but bash (in POSIX mode) on macOS, so it gets both; ash and busybox get dash's.
 */
const SHELL_READERS: Readonly<Record<string, readonly Reader[]>> = {
  sh: ['bash', 'dash'],
  dash: ['dash'],
  ash: ['dash'],
  busybox: ['dash'],
  bash: ['bash'],
  ksh: ['bash'],
  mksh: ['bash'],
  zsh: ['zsh'],
};

/** The top-level `shell` option's readings: `sh` as a nested `sh` is, `auto` all of them. */
const TOP_READERS: Readonly<Record<ShellDialect, readonly Reader[]>> = {
  bash: ['bash'],
  sh: SHELL_READERS.sh,
  zsh: ['zsh'],
  auto: ['bash', 'dash', 'zsh'],
};

/** The shells that may read the code being walked: the innermost shell that runs it, else the line's own. */
export function readersOf(ctx: CommandContext, top: ShellDialect): readonly Reader[] {
  for (let i = ctx.via.length - 1; i >= 0; i--) {
    const program = /^(?:shell-c|shell-stdin|wrapper):(.+)$/.exec(ctx.via[i])?.[1];
    if (program !== undefined && SHELL_READERS[program] !== undefined) return SHELL_READERS[program];
  }
  return TOP_READERS[top];
}

const NAMES: Readonly<Record<Exclude<Reader, 'bash'>, string>> = { dash: 'dash (`sh` on Debian and Ubuntu)', zsh: 'zsh' };

/** `text` (parsed by bash as `parsed`) as each of `readers` reads it. */
export function readingsOf(readers: readonly Reader[], text: string, parsed: ParseResult, parse: (t: string) => ParseResult): ShellReading[] {
  return readers.map((reader) => readAs(reader, text, parsed, parse));
}

/** Whether some reading walks the text as written (whose parse issues then count). */
export const walksText = (readings: readonly ShellReading[]): boolean => readings.some((r) => r.map === null);

/**
 * A script to walk, and for a shell's rewritten reading the `via` its commands carry
 * (`reading:zsh`), so a verdict says which shell's reading a command and its findings come from.
 */
export interface ReadingToWalk {
  script: Script;
  frame: SourceFrame;
  via: string | null;
}

/**
 * Report, once per shell, the first construct the shell may read to do more than its walk shows,
 * and give the scripts to walk: the text as written once for every shell that reads it so, and
 * each rewritten reading with a frame that maps its spans back onto the text.
 */
export function readingsToWalk(w: Walker, readings: readonly ShellReading[], frame: SourceFrame, owner?: number): ReadingToWalk[] {
  const out: ReadingToWalk[] = [];
  let asWritten = false;
  for (const r of readings) {
    if (r.reader !== 'bash' && r.difference !== null)
      w.finding('dialect-difference', `${NAMES[r.reader]} reads ${r.difference.what}`, frame.map(r.difference.span), owner);
    if (r.map === null) {
      if (!asWritten) out.push({ script: r.parsed.script, frame, via: null });
      asWritten = true;
      continue;
    }
    const back = r.map;
    out.push({
      script: r.parsed.script,
      frame: { source: r.text, scriptDepth: frame.scriptDepth, map: (s: Span) => frame.map(back(s)) },
      via: `reading:${r.reader}`,
    });
  }
  return out;
}
