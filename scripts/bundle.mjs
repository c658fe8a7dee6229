/**
 * Bundle the CLI into one CommonJS file, dist/cli/shellgate.cjs, which bin/shellgate.cjs runs with
 * a V8 code cache. One file instead of ~150 ES modules, and compiled code reused between runs, is
 * what brings a hook call near `node -e 0` (bench/hook-latency.mjs).
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * jsonc-parser's ES build: its `main` is a UMD module whose factory requires its parts by computed
 * paths, which esbuild cannot follow (the bundle would fail with "Cannot find module './impl/format'").
 */
const JSONC_PARSER = { 'jsonc-parser': `${root}node_modules/jsonc-parser/lib/esm/main.js` };

/** A CommonJS bundle of one CLI module, written beside it in dist/cli/ (or in `dir`, one level below dist/ too). */
const cliBundle = (entry, outfile, dir = 'cli') =>
  build({
    entryPoints: [`${root}dist/${dir}/${entry}`],
    outfile: `${root}dist/${dir}/${outfile}`,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // bash-parser is loaded only for `parser: 'consensus'`; web-tree-sitter is bundled and told
    // where its .wasm is (src/syntax/tree-sitter/parser.ts).
    external: ['bash-parser'],
    // Its CommonJS build: the ES one loads node:fs with import(), which code run through vm.Script cannot.
    alias: { 'web-tree-sitter': `${root}node_modules/web-tree-sitter/tree-sitter.cjs`, ...JSONC_PARSER },
    // The bundle sits in dist/cli/ like the module it is built from, so paths relative to
    // import.meta.url (the specs, the rules, a worker) stay right.
    define: { 'import.meta.url': '__shellgate_import_meta_url' },
    banner: { js: 'const __shellgate_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    logLevel: 'warning',
    legalComments: 'none',
  });

await cliBundle('main.js', 'shellgate.cjs');
// `shellgate lint` in a bundle of its own, which main.ts requires only for that command: its YAML
// parser and source kinds stay out of what a hook call loads.
await cliBundle('lint-command.js', 'lint.cjs');
// The analysis thread of `shellgate serve` (src/serve/analysis-pool.ts starts it): a thread that
// replaces one stopped at a deadline starts from one file, not ~150 modules.
await cliBundle('analysis-worker.js', 'analysis-worker.cjs', 'serve');

// The library in one ES module, dist/lib/shellgate.mjs: the package's entry point. Loading ~150
// modules one by one was most of an in-process cold start. The tree-sitter front end is inside
// (loaded only for `parser: 'tree-sitter'` or 'consensus'); web-tree-sitter, its grammar and
// bash-parser stay packages of their own, imported only then. dist/lib/ sits one level below
// dist/ like every module it is built from, so paths relative to import.meta.url stay right.
// Chunk names carry a hash: an earlier build's chunks are removed first, so none is left behind.
rmSync(`${root}dist/lib`, { recursive: true, force: true });
// The linter (createLinter) is split into a chunk loaded on its first call; chunks sit in dist/lib/
// beside the entry, so they too are one level below dist/.
await build({
  entryPoints: { shellgate: `${root}dist/index.js` },
  outdir: `${root}dist/lib`,
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: '[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['bash-parser', 'web-tree-sitter', 'tree-sitter-bash'],
  alias: JSONC_PARSER,
  // Bundled CommonJS packages (yaml) call require('process') and the like: an ES module has no
  // require, and esbuild's stand-in throws "Dynamic require … is not supported" at the first use.
  banner: { js: "import { createRequire as __shellgateCreateRequire } from 'node:module'; const require = __shellgateCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  legalComments: 'none',
});
