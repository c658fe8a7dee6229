// Scaling: each shape at 1 KB, 10 KB, 100 KB and 1 MB through the full verdict, in a child process
// per shape with a time limit per size. Flat time per byte is linear; a size over the limit is
// reported as such and the larger sizes of that shape are not tried.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SHAPES, SIZES } from './shapes.mjs';

const CHILD = fileURLToPath(new URL('./scaling-child.mjs', import.meta.url));
/** The analyser's maxInputLength for these runs: far above the largest size, so the whole input is read. */
export const SCALING_MAX_INPUT = 4 * 1024 * 1024;

/**
 * @param {{ limitSeconds: number }} options
 * @returns {Promise<{ shape: string, sizes: ({ label: string, bytes: number, ms: number, nsPerByte: number, runs: number, level: string, commands: number } | { label: string, bytes: number, timedOut: true, limitSeconds: number } | { label: string, bytes: number, failed: string })[] }[]>}
 */
export async function measureScaling({ limitSeconds }) {
  const out = [];
  for (const shape of Object.keys(SHAPES)) out.push({ shape, sizes: await runShape(shape, limitSeconds) });
  return out;
}

function runShape(shape, limitSeconds) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', CHILD, String(SCALING_MAX_INPUT), shape, ...SIZES.map(([, b]) => String(b))], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const rows = [];
    let buffered = '';
    let stderr = '';
    let timer;
    let timedOut = false;
    // The limit runs from the child's start for the first size (its start-up included: generous),
    // then from each reported size to the next.
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => {
          timedOut = true;
          child.kill('SIGKILL');
        },
        limitSeconds * 1000 + (rows.length === 0 ? 5000 : 0),
      );
    };
    arm();
    child.stdout.on('data', (d) => {
      buffered += d;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.trim() === '') continue;
        rows.push({ label: SIZES[rows.length][0], ...JSON.parse(line) });
        arm();
      }
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      clearTimeout(timer);
      const rest = SIZES.slice(rows.length).map(([label, bytes], i) =>
        timedOut && i === 0
          ? { label, bytes, timedOut: true, limitSeconds }
          : { label, bytes, failed: timedOut ? 'not tried: a smaller size was over the limit' : `exit ${code}: ${stderr.trim().split('\n').pop() ?? ''}` },
      );
      resolve([...rows, ...rest]);
    });
  });
}
