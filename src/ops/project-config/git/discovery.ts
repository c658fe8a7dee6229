/**
 * Which repository git uses, found the way git's setup.c finds it: `GIT_DIR` / `--git-dir` when
 * given (no search), else from the working directory upwards, testing in each directory first
 * `.git` (a `gitdir: PATH` file, or a directory that passes is_git_directory), then the directory
 * itself as a bare repository (HEAD, objects/, refs/ — so `git -C some.git log` and a command run
 * inside `.git/` use that directory's configuration). The configuration lives in the common
 * directory (`commondir` file of a linked worktree, or `GIT_COMMON_DIR`).
 *
 * Deliberately not modelled, because each only makes git use *no* repository where we read one:
 * GIT_CEILING_DIRECTORIES, stopping at a filesystem boundary, `safe.directory` ownership checks
 * and `safe.bareRepository=explicit` (which older gits do not know).
 */
import { posix } from 'node:path';
import type { FileProbe } from '../file-probe.js';

export interface GitRepo {
  /** The git directory (`.git`, a worktree's `.git/worktrees/x`, or a bare repository). */
  gitDir: string;
  /** Where `config` and `hooks/` live. */
  commonDir: string;
  /** The work tree root when there is one (the directory holding `.git`); null for a bare repository. */
  workTree: string | null;
}

export type Discovery =
  | { kind: 'none' }
  | { kind: 'repo'; repo: GitRepo }
  /** git would read something we cannot (a `.git` file that cannot be read, a dynamic GIT_DIR…). */
  | { kind: 'unknown'; where: string; why: string };

/** validate_headref: HEAD is a `refs/…` symlink, a `ref: refs/…` file, or a hex object name. */
function validHead(probe: FileProbe, head: string): boolean {
  const link = probe.readlink(head);
  if (link !== null) return link.startsWith('refs/');
  const r = probe.read(head, 4096);
  if (r.kind !== 'text') return false;
  const text = r.text.slice(0, 255);
  const ref = /^ref:\s*(.*)/.exec(text);
  if (ref && ref[1].startsWith('refs/')) return true;
  return /^[0-9a-f]{40}(?:[0-9a-f]{24})?(?:\s|$)/.test(text);
}

/** The common directory of a git directory: its `commondir` file, else itself. */
export function commonDirOf(probe: FileProbe, gitDir: string): string {
  const r = probe.read(posix.join(gitDir, 'commondir'), 4096);
  if (r.kind !== 'text') return gitDir;
  const target = r.text.replace(/[\r\n]+$/, '');
  return target === '' ? gitDir : posix.resolve(gitDir, target);
}

/** is_git_directory: a valid HEAD, and objects/ and refs/ in the common directory. */
export function isGitDirectory(probe: FileProbe, dir: string, objectDirectory: string | null | undefined): boolean {
  if (!validHead(probe, posix.join(dir, 'HEAD'))) return false;
  const common = commonDirOf(probe, dir);
  // GIT_OBJECT_DIRECTORY replaces the objects/ test; an unknown value may or may not exist: read on.
  const objectsOk = objectDirectory === undefined ? probe.isDir(posix.join(common, 'objects')) : objectDirectory === null || probe.isDir(objectDirectory);
  return objectsOk && probe.isDir(posix.join(common, 'refs'));
}

/** read_gitfile: the `gitdir: PATH` line of a `.git` file, relative to the file's directory. */
function readGitFile(probe: FileProbe, file: string): string | null {
  const r = probe.read(file, 4096);
  if (r.kind !== 'text') return null;
  const m = /^gitdir: (.+?)\s*$/m.exec(r.text);
  return m ? posix.resolve(posix.dirname(file), m[1]) : null;
}

export interface DiscoveryInput {
  /** The directory git starts in (after every `-C`). */
  start: string;
  /** `--git-dir` or `GIT_DIR`: a path, null when unknown, undefined when not given. */
  gitDir: string | null | undefined;
  /** `GIT_COMMON_DIR`. */
  commonDir: string | null | undefined;
  /** `GIT_OBJECT_DIRECTORY`. */
  objectDirectory: string | null | undefined;
  /** `--work-tree` or `GIT_WORK_TREE`: where `.gitmodules` is read and relative hook paths resolve. */
  workTree: string | null | undefined;
}

export function discoverRepository(probe: FileProbe, input: DiscoveryInput): Discovery {
  const withCommon = (gitDir: string, found: string | null): Discovery => {
    if (input.commonDir === null) return { kind: 'unknown', where: 'GIT_COMMON_DIR', why: 'set to a value not known here' };
    if (input.workTree === null) return { kind: 'unknown', where: 'GIT_WORK_TREE / --work-tree', why: 'names a work tree not known here' };
    const workTree = input.workTree !== undefined ? posix.resolve(input.start, input.workTree) : found;
    const commonDir = input.commonDir !== undefined ? posix.resolve(input.start, input.commonDir) : commonDirOf(probe, gitDir);
    return { kind: 'repo', repo: { gitDir, commonDir, workTree } };
  };
  if (input.gitDir === null) return { kind: 'unknown', where: 'GIT_DIR / --git-dir', why: 'names a repository not known here' };
  if (input.gitDir !== undefined) {
    // An explicit git directory may itself be a `.git` file.
    let dir = posix.resolve(input.start, input.gitDir);
    if (probe.isFile(dir)) {
      const target = readGitFile(probe, dir);
      if (target === null) return { kind: 'unknown', where: dir, why: 'a .git file that could not be read' };
      dir = target;
    }
    // Without GIT_WORK_TREE git takes the current directory as the top of the work tree.
    return withCommon(dir, input.start);
  }
  for (let d = input.start; ; d = posix.dirname(d)) {
    const dotGit = posix.join(d, '.git');
    const st = probe.stat(dotGit);
    if (st?.isFile()) {
      const target = readGitFile(probe, dotGit);
      if (target === null) return { kind: 'unknown', where: dotGit, why: 'a .git file that could not be read' };
      return withCommon(target, d);
    }
    if (st?.isDirectory() && isGitDirectory(probe, dotGit, input.objectDirectory)) return withCommon(dotGit, d);
    if (isGitDirectory(probe, d, input.objectDirectory)) return withCommon(d, null);
    if (d === '/') return { kind: 'none' };
  }
}
