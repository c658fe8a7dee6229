/**
 * Global command-line tools that hand off to the project's own copy: installed globally, they
 * look for the package in `node_modules` from the working directory upwards (Node's resolution)
 * and, when it is there, run it instead of themselves — before they read their argv, so
 * `ng version` or `gulp --version` runs the project's JavaScript. Checked in each tool's source:
 * - `ng` (@angular/cli `bin/ng.js` → `lib/init.js`): resolves `@angular/cli` from the cwd and
 *   requires the local copy;
 * - `gulp` (gulp-cli, through liftoff): finds the local `gulp` and the gulpfile, and loads
 *   `.gulp.*` configuration;
 * - `grunt` (grunt-cli): requires the local `grunt` (its `--version` prints the local version by
 *   loading it);
 * - `jest`, `webpack` (webpack-cli), `lerna`, `nx`, `ava`: `import-local`, or their own lookup,
 *   run the local package's bin.
 * `tsc`, `eslint` and `prettier` are left out: their bins run the code beside them and print
 * `--version` before loading any configuration.
 */
import { posix } from 'node:path';
import { StampedCache } from './file-probe.js';
import type { ProjectContext, RepoCode } from './types.js';

/** Program → the packages whose local copy it runs. */
export const HANDS_OFF: Readonly<Record<string, readonly string[]>> = {
  ng: ['@angular/cli'],
  gulp: ['gulp', 'gulp-cli'],
  grunt: ['grunt', 'grunt-cli'],
  jest: ['jest', 'jest-cli'],
  webpack: ['webpack-cli', 'webpack'],
  'webpack-cli': ['webpack-cli'],
  lerna: ['lerna'],
  nx: ['nx'],
  ava: ['ava'],
};

const cache = new StampedCache<RepoCode[]>();

export function nodeLauncherRepoCode(ctx: ProjectContext): RepoCode[] {
  const program = ctx.cmd.program ?? '';
  const packages = HANDS_OFF[program] ?? [];
  const out: RepoCode[] = [];
  for (const name of ['NODE_PATH', 'NODE_OPTIONS'])
    if (ctx.lineSets(name)) out.push({ kind: 'key', where: 'the environment the line sets', what: name, value: ctx.variable(name) });
  const found = cache.get(JSON.stringify([program, ctx.cwd]), (probe) => {
    for (let d = ctx.cwd; ; d = posix.dirname(d)) {
      for (const p of packages) {
        const dir = posix.join(d, 'node_modules', p);
        if (probe.exists(dir)) return [{ kind: 'file', where: dir, what: `the project's own ${p}, which ${program} runs instead of itself` }];
      }
      if (d === '/') return [];
    }
  });
  return [...out, ...found];
}
