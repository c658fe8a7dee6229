// cc-safety-net (a devDependency), called as its README tells its users to: `checkCommand` from
// 'cc-safety-net/api' with the command and an absolute working directory, once per command.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { swallowing } from './timing.mjs';

/** @returns {Promise<{ check: ((command: string) => unknown) | null, version?: string, note?: string }>} */
export async function loadPeer() {
  try {
    const { checkCommand } = await import('cc-safety-net/api');
    const { createRequire } = await import('node:module');
    const { version } = createRequire(import.meta.url)('cc-safety-net/package.json');
    // An empty project of its own: no project config of this checkout changes what it does.
    const cwd = mkdtempSync(join(tmpdir(), 'sg-bench-peer-'));
    process.once('exit', () => rmSync(cwd, { recursive: true, force: true }));
    // It throws on an empty command (its users must treat that as "do not run"): still an answer.
    return { check: swallowing((command) => checkCommand({ command, cwd })), version };
  } catch (e) {
    return { check: null, note: `cc-safety-net not available: ${e.message}` };
  }
}
