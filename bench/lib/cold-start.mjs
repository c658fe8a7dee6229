// Cold start, each figure the median of fresh processes:
//  - in-process: from the first line of a fresh ES module to the first verdict (import of
//    the package entry dist/lib/shellgate.mjs, createAnalyzer with its defaults, one analysis), and whether any WebAssembly
//    was compiled on the way (the default path must have none);
//  - the one-shot CLI on a realistic command, wall time from spawn to exit, beside `node -e 0`
//    timed in the same run, the two interleaved so load on the machine falls on both alike.
// HOME and XDG_CACHE_HOME point into a fresh folder: no user config, and the CLI's code cache is
// written by one warm-up run, as it is after the first call of a real install.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REALISTIC_COMMAND } from './context.mjs';
import { median } from './stats.mjs';

// The package's entry point (package.json exports): the library bundled into one module.
const INDEX = new URL('../../dist/lib/shellgate.mjs', import.meta.url).href;
const BIN = fileURLToPath(new URL('../../bin/shellgate.cjs', import.meta.url));

// Counts WebAssembly compilations before anything is imported, then times import → first verdict.
const IN_PROCESS = `const t0 = performance.now();
let wasm = 0;
const W = globalThis.WebAssembly;
for (const k of ['compile', 'instantiate', 'compileStreaming', 'instantiateStreaming']) { const f = W[k]; if (f) W[k] = function (...a) { wasm++; return f.apply(this, a); }; }
W.Module = new Proxy(W.Module, { construct(t, a, n) { wasm++; return Reflect.construct(t, a, n); } });
const { createAnalyzer } = await import(${JSON.stringify(INDEX)});
const a = await createAnalyzer();
const v = a.analyze(${JSON.stringify(REALISTIC_COMMAND)}, { cwd: '/ws/project', workspaceRoots: ['/ws/project'], home: '/home/user', env: {} });
const ms = performance.now() - t0;
console.log(JSON.stringify({ ms, wasm, level: v.level }));`;

export function measureColdStart({ runs = 7 } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'sg-bench-cold-'));
  mkdirSync(join(home, '.cache'));
  const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, '.cache') };
  const inProcess = Array.from({ length: runs }, () =>
    JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', IN_PROCESS], { encoding: 'utf8', env })),
  );

  const cliArgs = [BIN, 'check', '--cwd', '/tmp', '--', REALISTIC_COMMAND];
  const wall = (args) => {
    const t = performance.now();
    try {
      execFileSync(process.execPath, args, { stdio: 'ignore', env });
    } catch {
      // `check` exits 1 or 2 for ask and deny: the time is still the time of one call.
    }
    return performance.now() - t;
  };
  wall(cliArgs); // writes the code cache
  const nodeMs = [];
  const cliMs = [];
  for (let i = 0; i < runs; i++) {
    nodeMs.push(wall(['-e', '0']));
    cliMs.push(wall(cliArgs));
  }
  rmSync(home, { recursive: true, force: true });
  const node = median(nodeMs);
  const cli = median(cliMs);
  return {
    runs,
    inProcessMs: median(inProcess.map((r) => r.ms)),
    inProcessRunsMs: inProcess.map((r) => r.ms),
    wasmCompilations: Math.max(...inProcess.map((r) => r.wasm)),
    firstVerdict: inProcess[0].level,
    cliCommand: `node bin/shellgate.cjs check --cwd /tmp -- '${REALISTIC_COMMAND}'`,
    cliMs: cli,
    nodeMs: node,
    cliOverNode: cli / node,
  };
}
