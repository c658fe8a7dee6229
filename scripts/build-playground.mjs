/**
 * `npm run playground`: the browser build of shellgate (src/playground/engine.ts and the same gate
 * and analyser as the CLI) into dist/playground/. Node's file system, os, url and module are
 * replaced by in-memory shims (src/playground/shims/); shellgate's own data (command specs, guard
 * rules) is embedded and served from a virtual /shellgate/ tree, where `import.meta.url` points.
 * Nothing is fetched at run time.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'playground');
const shims = join(root, 'src', 'playground', 'shims');

/** Every file under rules/, as path → text, for the virtual /shellgate/rules/ tree. */
function dataFiles() {
  const files = {};
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.json')) files['/shellgate/' + relative(root, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(join(root, 'rules'));
  return files;
}

const data = {
  name: 'shellgate-data',
  setup(b) {
    b.onResolve({ filter: /^shellgate-data$/ }, () => ({ path: 'shellgate-data', namespace: 'shellgate-data' }));
    b.onLoad({ filter: /.*/, namespace: 'shellgate-data' }, () => ({ contents: `export default ${JSON.stringify(dataFiles())};`, loader: 'js' }));
  },
};

/** What both builds share: the shims in place of Node, the data, and where import.meta.url points. */
const common = {
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  alias: {
    'node:fs': join(shims, 'fs.ts'),
    'node:os': join(shims, 'os.ts'),
    'node:url': join(shims, 'url.ts'),
    'node:module': join(shims, 'module.ts'),
    'node:path': 'path-browserify',
    'web-tree-sitter': join(shims, 'unavailable.ts'),
    'bash-parser': join(shims, 'unavailable.ts'),
  },
  inject: [join(shims, 'process.ts')],
  // Every module sits one level below dist/ in the Node build; the data is at /shellgate/rules/.
  define: { 'import.meta.url': '"file:///shellgate/dist/lib/shellgate.js"' },
  plugins: [data],
  logLevel: 'warning',
  legalComments: 'none',
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// The page's script: a classic script (not a module), so the page also works opened from disk.
const page = await build({
  ...common,
  metafile: true,
  entryPoints: [join(root, 'src', 'playground', 'app.ts')],
  outfile: join(out, 'shellgate-playground.js'),
  format: 'iife',
});
// The engine alone as an ES module, for tests and for pages of one's own.
const engine = await build({
  ...common,
  metafile: true,
  entryPoints: [join(root, 'src', 'playground', 'browser-entry.ts')],
  outfile: join(out, 'engine.mjs'),
  format: 'esm',
});
// Self-contained or no build: an import left to resolve at run time would fail from disk, or fetch.
const external = [page, engine].flatMap((r) => Object.values(r.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)));
if (external.length > 0) throw new Error(`the playground bundle still imports ${[...new Set(external)].join(', ')}`);
writeFileSync(join(out, 'build-meta.json'), JSON.stringify({ inputs: Object.keys(page.metafile.inputs).length, external }, null, 2) + '\n');
for (const f of ['index.html', 'playground.css']) copyFileSync(join(root, 'src', 'playground', 'page', f), join(out, f));
