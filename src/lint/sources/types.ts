/**
 * What a source kind hands the linter: the shell code a file holds (each piece mapped back to the
 * file), the shell that runs it and where, and the findings only the file's own format can show
 * (an untrusted `${{ … }}` spliced into a workflow's `run:`, a shell shellgate cannot read).
 */
import type { Level } from '../../findings/types.js';
import type { MappedText } from '../source-text.js';

/** The kinds of file `shellgate lint` reads. */
export const SOURCE_KINDS = ['shell', 'dockerfile', 'github-actions', 'gitlab-ci', 'package-json', 'makefile', 'compose'] as const;
export type SourceKindName = (typeof SOURCE_KINDS)[number];

/**
 * Where the code runs, which decides what "inside the workspace" means:
 * - `host`: on the machine that holds the repository (scripts, CI jobs, npm scripts, make);
 *   the workspace is the linted tree, relative paths start from `cwd`.
 * - `container`: inside an image being built or a container (Dockerfile RUN, compose command);
 *   the container's filesystem is the build's own, so the workspace is `/` and `cwd` is WORKDIR.
 *   Fetching and running code, leaking secrets and the like count the same as on the host.
 */
export type Where = 'host' | 'container';

export interface Snippet extends MappedText {
  /** Where in the file it comes from, for people: `RUN`, `jobs.build.steps[2].run`, `scripts.postinstall`, `recipe of clean`. */
  readonly origin: string;
  /**
   * The program that runs it: `bash`, `zsh` or `sh` (each read in its own reading: sh as dash and
   * bash both), or another program (`pwsh`, `python`, `cmd`), which shellgate does not read: the
   * linter reports `lint/unsupported-shell` for it.
   */
  readonly shell: string;
  readonly where: Where;
  /**
   * Directory the code runs in: absolute for `container` (WORKDIR, default `/`); for `host`,
   * relative to the file's directory (`.` the file's own directory; `npm` and `make` run there),
   * or absent when the source does not say (a script: it may be run from anywhere, so the
   * workspace root is used).
   */
  readonly cwd?: string;
  /** Set for npm install lifecycle scripts (`preinstall`, `install`, `postinstall`, `prepare`): code every `npm install` runs. */
  readonly lifecycle?: boolean;
}

/** A finding the source format itself shows, at file offsets [start, end). */
export interface SourceFinding {
  /** A lint rule id (`lint/script-injection`, `lint/unreadable-file`…; see lint/lint-rules.ts). */
  readonly rule: string;
  readonly level: Level;
  readonly message: string;
  readonly start: number;
  readonly end: number;
}

export interface Extracted {
  readonly snippets: Snippet[];
  readonly findings: SourceFinding[];
}

export interface SourceKind {
  readonly name: SourceKindName;
  /**
   * Whether a file is of this kind, from its path (relative to the linted root, `/`-separated)
   * and the start of its text (a shebang).
   */
  matches(path: string, head: string): boolean;
  /** The shell code in `text`; never throws for any text (an unreadable file is a `lint/unreadable-file` finding). */
  extract(text: string, path: string): Extracted;
}
