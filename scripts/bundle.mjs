/**
 * Bundle the CLI into one CommonJS file, dist/cli/shellgate.cjs, which bin/shellgate.cjs runs with
 * a V8 code cache. One file instead of ~150 ES modules, and compiled code reused between runs, is
 * what brings a hook call near `node -e 0` (bench/hook-latency.mjs). web-tree-sitter stays outside:
 * it finds its .wasm beside its own script.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  entryPoints: [`${root}dist/cli/main.js`],
  outfile: `${root}dist/cli/shellgate.cjs`,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['web-tree-sitter', 'bash-parser'],
  // The bundle sits in dist/cli/ like main.js, so paths relative to import.meta.url stay right.
  define: { 'import.meta.url': '__shellgate_import_meta_url' },
  banner: { js: 'const __shellgate_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
  legalComments: 'none',
});
