/** `node:os` for the browser build: the home the page names (set before each analysis). */
let home = '/home/user';
export function setHome(h: string): void {
  home = h;
}
export function homedir(): string {
  return home;
}
export function tmpdir(): string {
  return '/tmp';
}
export function platform(): string {
  return 'linux';
}
export const EOL = '\n';
export default { homedir, tmpdir, platform, EOL };
