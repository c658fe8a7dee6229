/**
 * Every source kind, in the order a file is tried: names that say what a file is (Dockerfile,
 * a workflow, package.json) before the shell-script test, which also reads shebangs.
 */
import { compose } from './compose.js';
import { dockerfile } from './dockerfile.js';
import { githubActions } from './github-actions.js';
import { gitlabCi } from './gitlab-ci.js';
import { makefile } from './makefile.js';
import { packageJson } from './package-json.js';
import { shellScript } from './shell-script.js';
import type { SourceKind } from './types.js';

export const SOURCES: readonly SourceKind[] = [dockerfile, githubActions, gitlabCi, packageJson, makefile, compose, shellScript];

/** The kind of a file from its path (relative to the linted root) and its first bytes; null when the linter does not read it. */
export function kindOf(path: string, head: string): SourceKind | null {
  for (const k of SOURCES) if (k.matches(path, head)) return k;
  return null;
}
