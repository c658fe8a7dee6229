// Time a function over a list of commands, one sample per command, in µs.
import { summarize } from './stats.mjs';

/**
 * Run `fn` once over `warmup` (JIT compilation, lazy loading: what a long-running gate has already
 * paid), then once over `commands` with a timer around each call. The mean is the pass's wall time
 * over its length, so it also holds what falls between calls (garbage collection included).
 * @param {(command: string) => unknown} fn
 * @param {string[]} commands
 * @param {{ warmup?: string[] }} [options]
 */
export function timeEach(fn, commands, { warmup = commands } = {}) {
  for (const c of warmup) fn(c);
  const samples = new Float64Array(commands.length);
  const start = performance.now();
  for (let i = 0; i < commands.length; i++) {
    const t = performance.now();
    fn(commands[i]);
    samples[i] = (performance.now() - t) * 1000;
  }
  const wallMs = performance.now() - start;
  const s = summarize(samples);
  return { ...s, mean: (wallMs * 1000) / commands.length, perSecond: Math.round((commands.length / wallMs) * 1000) };
}

/** Wrap a function that may throw on some inputs (a peer rejecting a command is still a result). */
export function swallowing(fn) {
  return (c) => {
    try {
      return fn(c);
    } catch {
      return undefined;
    }
  };
}
