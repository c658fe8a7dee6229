/**
 * `shellgate playground [--port N]`: serve the static playground (dist/playground/, built by `npm
 * run playground`) on 127.0.0.1 and print its URL. The page runs shellgate in the browser; this
 * server only hands out its files.
 */
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { UsageError } from './args.js';

export const PLAYGROUND_USAGE = `usage: shellgate playground [--port N]

Serve the playground (a page that runs shellgate in the browser) on http://127.0.0.1:N/ (default: a
free port) and print the URL. Build it first with \`npm run playground\`; the page also works
opened straight from dist/playground/index.html.`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The page's policy (also in its <meta>): its own scripts, styles and images; nothing fetched, framed or sent. */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

export function playgroundDir(): string {
  return fileURLToPath(new URL('../playground/', import.meta.url));
}

export function parsePlaygroundArgs(argv: string[]): { port: number } {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { port: { type: 'string', short: 'p' } }, strict: true }));
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message.split('\n')[0]! : String(e));
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number (0–65535), not ${JSON.stringify(values.port)}`);
  return { port };
}

/** Serve until the process is stopped; resolves with the URL once listening. */
export function servePlayground(port: number, dir = playgroundDir()): Promise<{ url: string; close(): void }> {
  if (!existsSync(join(dir, 'index.html'))) throw new UsageError(`${dir}index.html is missing: build the playground first (npm run playground)`);
  const server = createServer((req, res) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      // `/%E0%A4%A` and the like: a request, not a reason to stop serving
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request: the path is not a valid URL\n');
      return;
    }
    const rel = normalize(path === '/' ? '/index.html' : path).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, rel);
    if (!file.startsWith(dir) || !TYPES[extname(file)] || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res
      .writeHead(200, {
        'content-type': TYPES[extname(file)]!,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        'content-security-policy': PAGE_POLICY,
      })
      .end(readFileSync(file));
  });
  return new Promise((resolve, reject) => {
    server.once('error', (e) => reject(new UsageError(`cannot listen on 127.0.0.1:${port}: ${e.message}`)));
    server.listen(port, '127.0.0.1', () => {
      const a = server.address();
      const p = typeof a === 'object' && a ? a.port : port;
      resolve({ url: `http://127.0.0.1:${p}/`, close: () => server.close() });
    });
  });
}
