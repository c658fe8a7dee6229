/** `node:url` for the browser build: file URLs of the bundle's virtual data tree. */
export function fileURLToPath(u: string | URL): string {
  const url = typeof u === 'string' ? new URL(u) : u;
  if (url.protocol !== 'file:') throw new TypeError(`not a file URL: ${url.href}`);
  return decodeURIComponent(url.pathname);
}
export function pathToFileURL(p: string): URL {
  return new URL('file://' + encodeURI(p));
}
export default { fileURLToPath, pathToFileURL };
