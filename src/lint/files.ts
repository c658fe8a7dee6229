/**
 * The files `shellgate lint PATH…` reads: given files as they are, directories walked with
 * `.gitignore` honoured (each directory's own file, from the repository root down), never into
 * `node_modules`, `.git` or a symlinked directory.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

const NEVER = new Set(['node_modules', '.git']);

export interface FoundFile {
  /** Absolute path. */
  abs: string;
  /** Path relative to the workspace root, `/`-separated: what a source kind's name tests see. */
  rel: string;
  /** Named on the command line (read even when ignored or of no known kind). */
  explicit: boolean;
}

/** The repository holding `dir` (the nearest ancestor with `.git`), or null. */
export function repositoryRoot(dir: string): string | null {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return null;
  }
}

const toPosix = (p: string): string => (sep === '/' ? p : p.split(sep).join('/'));

/**
 * A file's path relative to the workspace root, `/`-separated (the absolute path when it is the
 * root itself): what a source kind's name tests read, and what fingerprints hold, so neither
 * depends on the directory the linter was started from.
 */
export function workspacePath(root: string, abs: string): string {
  return toPosix(relative(root, abs)) || abs;
}

/** `.gitignore` rules per directory, read once each. */
class IgnoreRules {
  private readonly byDir = new Map<string, Ignore | null>();

  constructor(private readonly root: string) {}

  private rulesOf(dir: string): Ignore | null {
    let r = this.byDir.get(dir);
    if (r !== undefined) return r;
    r = null;
    const files = [join(dir, '.gitignore'), ...(dir === this.root ? [join(dir, '.git', 'info', 'exclude')] : [])];
    for (const f of files) {
      let text: string;
      try {
        text = readFileSync(f, 'utf8');
      } catch {
        continue;
      }
      r = (r ?? ignore()).add(text);
    }
    this.byDir.set(dir, r);
    return r;
  }

  /** Whether a path under the root is ignored by the `.gitignore` of any directory above it. */
  ignored(abs: string, isDir: boolean): boolean {
    const rel = relative(this.root, abs);
    if (rel === '' || rel.startsWith('..')) return false;
    const parts = rel.split(sep);
    let dir = this.root;
    for (let i = 0; i < parts.length; i++) {
      const rules = this.rulesOf(dir);
      if (rules) {
        const sub = toPosix(parts.slice(i).join('/')) + (isDir ? '/' : '');
        if (rules.ignores(sub)) return true;
      }
      dir = join(dir, parts[i]!);
    }
    return false;
  }
}

/** Every file to read under `paths`, in a stable order (a walk sorted by name). */
export function findFiles(paths: readonly string[], root: string): FoundFile[] {
  const rules = new IgnoreRules(root);
  const out: FoundFile[] = [];
  const seen = new Set<string>();
  const add = (abs: string, explicit: boolean) => {
    if (seen.has(abs)) return;
    seen.add(abs);
    out.push({ abs, rel: workspacePath(root, abs), explicit });
  };
  const walk = (dir: string) => {
    let entries;
    try {
      // By code unit, not locale: the same order on every machine.
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => Number(a.name > b.name) - Number(a.name < b.name));
    } catch {
      return;
    }
    for (const e of entries) {
      if (NEVER.has(e.name)) continue;
      const abs = join(dir, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        // A symlinked directory could loop or leave the tree (git stores the link, not its files);
        // a symlinked file is read.
        const st = statSync(abs, { throwIfNoEntry: false });
        if (!st || st.isDirectory()) continue;
        isFile = st.isFile();
        isDir = false;
      }
      if (rules.ignored(abs, isDir)) continue;
      if (isDir) walk(abs);
      else if (isFile) add(abs, false);
    }
  };
  for (const p of paths) {
    const abs = resolve(p);
    const st = statSync(abs, { throwIfNoEntry: false });
    if (!st) throw new LintPathError(`${p}: no such file or directory`);
    if (st.isDirectory()) walk(abs);
    else add(abs, true);
  }
  return out;
}

export class LintPathError extends Error {}
