/**
 * `node:fs` for the browser build: an in-memory tree that the page describes (the analyser's own
 * data files, the workspace and home directories, files and symlinks the user declares). Nothing
 * else exists. Every query the analyser makes is recorded, so the page can say which parts of a
 * verdict looked at the disk: in a real shell those paths may hold what the page does not show.
 */

interface Entry {
  kind: 'file' | 'dir' | 'symlink';
  text?: string;
  target?: string;
}

const tree = new Map<string, Entry>([['/', { kind: 'dir' }]]);
/** Paths queried since the last `takeQueries`, outside the analyser's own data. */
const queries = new Set<string>();
/** Paths of the analyser's own data (rules, specs): queries there are not the user's disk. */
let dataRoot = '/shellgate/';

function normal(p: string): string {
  const parts: string[] = [];
  for (const seg of String(p).split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return '/' + parts.join('/');
}

function note(p: string): void {
  if (!p.startsWith(dataRoot)) queries.add(p);
}

function addParents(p: string): void {
  for (let d = p.slice(0, p.lastIndexOf('/')) || '/'; ; d = d.slice(0, d.lastIndexOf('/')) || '/') {
    if (!tree.has(d)) tree.set(d, { kind: 'dir' });
    if (d === '/') break;
  }
}

/** Declare a file, directory or symlink (parents are created). */
export function declare(path: string, entry: Entry): void {
  const p = normal(path);
  addParents(p);
  tree.set(p, entry);
}

/** Remove one declared entry (its parents stay). */
export function remove(path: string): void {
  tree.delete(normal(path));
}

/** Remove every declared entry under `prefix` (the analyser's data stays). */
export function clearUnder(prefix: string): void {
  const p = normal(prefix);
  for (const k of [...tree.keys()]) if (k === p || k.startsWith(p === '/' ? '/' : p + '/')) if (!k.startsWith(dataRoot) && k !== '/') tree.delete(k);
}

export function setDataRoot(root: string): void {
  dataRoot = root;
}

/** The paths the analyser asked about since the last call (its own data excluded). */
export function takeQueries(): string[] {
  const out = [...queries].sort();
  queries.clear();
  return out;
}

function error(code: string, syscall: string, p: string): Error {
  const e = new Error(`${code}: ${syscall} '${p}'`) as Error & { code: string; syscall: string; path: string };
  e.code = code;
  e.syscall = syscall;
  e.path = p;
  return e;
}

/** Follow symlinks (at most 40 hops, as Linux does). */
function resolveLinks(path: string): string | null {
  let p = normal(path);
  for (let hops = 0; hops < 40; hops++) {
    // Resolve each component, so a link in a parent directory is followed too.
    const parts = p.split('/').filter(Boolean);
    let cur = '';
    let changed = false;
    for (let i = 0; i < parts.length; i++) {
      cur += '/' + parts[i];
      const e = tree.get(cur);
      if (e?.kind === 'symlink') {
        const t = e.target!.startsWith('/') ? e.target! : (cur.slice(0, cur.lastIndexOf('/')) || '') + '/' + e.target!;
        p = normal(t + '/' + parts.slice(i + 1).join('/'));
        changed = true;
        break;
      }
    }
    if (!changed) return tree.has(p) ? p : null;
  }
  return null;
}

/** What Stats and Dirent share: the kind of the entry. */
class Kinded {
  constructor(protected readonly entry: Entry) {}
  isFile(): boolean {
    return this.entry.kind === 'file';
  }
  isDirectory(): boolean {
    return this.entry.kind === 'dir';
  }
  isSymbolicLink(): boolean {
    return this.entry.kind === 'symlink';
  }
}

const MODES: Record<Entry['kind'], number> = { dir: 0o40755, file: 0o100644, symlink: 0o120777 };

class Stats extends Kinded {
  isFIFO(): boolean {
    return false;
  }
  isSocket(): boolean {
    return false;
  }
  isCharacterDevice(): boolean {
    return false;
  }
  isBlockDevice(): boolean {
    return false;
  }
  get size(): number {
    return this.entry.text?.length ?? 0;
  }
  get mode(): number {
    return MODES[this.entry.kind];
  }
  uid = 1000;
  gid = 1000;
  nlink = 1;
  mtimeMs = 0;
  ino = 0;
  dev = 0;
}

class Dirent extends Kinded {
  constructor(
    readonly name: string,
    entry: Entry,
  ) {
    super(entry);
  }
}

interface Options {
  throwIfNoEntry?: boolean;
  withFileTypes?: boolean;
}

export function statSync(path: string, opts?: Options): Stats | undefined {
  note(normal(path));
  const r = resolveLinks(path);
  if (r === null) {
    if (opts?.throwIfNoEntry === false) return undefined;
    throw error('ENOENT', 'stat', path);
  }
  return new Stats(tree.get(r)!);
}

export function lstatSync(path: string, opts?: Options): Stats | undefined {
  const p = normal(path);
  note(p);
  const parent = resolveLinks(p.slice(0, p.lastIndexOf('/')) || '/');
  const e = parent === null ? undefined : tree.get(normal(parent + '/' + p.slice(p.lastIndexOf('/') + 1)));
  if (!e) {
    if (opts?.throwIfNoEntry === false) return undefined;
    throw error('ENOENT', 'lstat', path);
  }
  return new Stats(e);
}

export function existsSync(path: string): boolean {
  note(normal(path));
  return resolveLinks(path) !== null;
}

export function readFileSync(path: string | URL, _enc?: unknown): string {
  const p = normal(typeof path === 'string' ? path : decodeURIComponent(path.pathname));
  note(p);
  const r = resolveLinks(p);
  const e = r === null ? undefined : tree.get(r);
  if (!e) throw error('ENOENT', 'open', p);
  if (e.kind !== 'file') throw error('EISDIR', 'read', p);
  return e.text ?? '';
}

export function readdirSync(path: string | URL, opts?: Options): (string | Dirent)[] {
  const p = normal(typeof path === 'string' ? path : decodeURIComponent(path.pathname));
  note(p);
  const r = resolveLinks(p);
  if (r === null) throw error('ENOENT', 'scandir', p);
  if (tree.get(r)!.kind !== 'dir') throw error('ENOTDIR', 'scandir', p);
  const prefix = r === '/' ? '/' : r + '/';
  const out: (string | Dirent)[] = [];
  for (const [k, e] of tree) {
    if (!k.startsWith(prefix) || k === r) continue;
    const rest = k.slice(prefix.length);
    if (rest.includes('/')) continue;
    out.push(opts?.withFileTypes ? new Dirent(rest, e) : rest);
  }
  return out.sort((a, b) => (String(typeof a === 'string' ? a : a.name) < String(typeof b === 'string' ? b : b.name) ? -1 : 1));
}

export function readlinkSync(path: string): string {
  const p = normal(path);
  note(p);
  const e = tree.get(p);
  if (!e || e.kind !== 'symlink') throw error('EINVAL', 'readlink', p);
  return e.target!;
}

export function realpathSync(path: string): string {
  note(normal(path));
  const r = resolveLinks(path);
  if (r === null) throw error('ENOENT', 'realpath', path);
  return r;
}
realpathSync.native = realpathSync;

export function opendirSync(path: string): { readSync(): Dirent | null; closeSync(): void } {
  const entries = readdirSync(path, { withFileTypes: true }) as Dirent[];
  let i = 0;
  return { readSync: () => entries[i++] ?? null, closeSync: () => {} };
}

/** The page never writes: "always allow" approvals and audit logs are not kept. */
export function writeFileSync(path: string): void {
  throw error('EROFS', 'write', path);
}
export function unlinkSync(path: string): void {
  throw error('EROFS', 'unlink', path);
}
export function mkdirSync(path: string): void {
  throw error('EROFS', 'mkdir', path);
}

export type { Stats, Dirent };
export type Dir = ReturnType<typeof opendirSync>;
export default { statSync, lstatSync, existsSync, readFileSync, readdirSync, readlinkSync, realpathSync, opendirSync, writeFileSync, unlinkSync, mkdirSync };
