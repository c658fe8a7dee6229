/**
 * vitest's global setup: every test run gets one temp folder of its own, and it is removed when
 * the run ends, whatever the tests left in it. Tests make fixtures with `mkdtemp(tmpdir())`, the
 * built CLI they start writes its own temp files, and a test that fails half-way cannot clean up:
 * pointing TMPDIR at this folder keeps all of that out of the machine's /tmp. The worker processes
 * and every child process they start inherit the variable.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'shellgate-test-'));
  // The oracles' sandboxes run as an otherwise unused uid: it must be able to pass through.
  chmodSync(root, 0o755);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}
