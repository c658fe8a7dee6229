/**
 * Ruby project tools that evaluate project files as Ruby whatever the subcommand:
 * - bundler: `bundle list/show/check/info/outdated…` evaluate the Gemfile (`BUNDLE_GEMFILE`, or
 *   `Gemfile` / `gems.rb` found upwards), which is Ruby (and may `eval_gemfile`, load a gemspec).
 * - rails: inside an application the `rails` command execs the application's `bin/rails`
 *   (or `script/rails`) found upwards, which boots the application for `rails routes`, `about`…
 * - vagrant: every subcommand, `vagrant status` included, loads the Vagrantfile found upwards
 *   from `VAGRANT_CWD` (named `VAGRANT_VAGRANTFILE`, `Vagrantfile` or `vagrantfile`) and
 *   `$VAGRANT_HOME/Vagrantfile` (`~/.vagrant.d`).
 * Ruby and these tools are not installed here: this follows their documentation.
 */
import { posix } from 'node:path';
import { StampedCache, type FileProbe } from './file-probe.js';
import { toolHome, type ProjectContext, type RepoCode } from './types.js';

const cache = new StampedCache<string | null>();

/** The first of `names` found in `start` or a parent directory. */
function findUp(probe: FileProbe, start: string, names: readonly string[]): string | null {
  for (let d = start; ; d = posix.dirname(d)) {
    for (const n of names) {
      const f = posix.join(d, n);
      if (probe.isFile(f)) return f;
    }
    if (d === '/') return null;
  }
}

function cachedFindUp(start: string, names: readonly string[]): string | null {
  return cache.get(JSON.stringify([start, names]), (probe) => findUp(probe, start, names));
}

function cachedIsFile(path: string): boolean {
  return cache.get(JSON.stringify([path]), (probe) => (probe.isFile(path) ? path : null)) !== null;
}

/** bundle subcommands that do not read the Gemfile. */
const BUNDLE_NO_GEMFILE = new Set(['version', 'help', 'init', 'gem', 'platform-help']);

export function bundleRepoCode(ctx: ProjectContext): RepoCode[] {
  const sub = ctx.parsed.subcommands[0] ?? null;
  if (sub === null || BUNDLE_NO_GEMFILE.has(sub)) return [];
  const gemfile = ctx.variable('BUNDLE_GEMFILE');
  if (gemfile === null) return [{ kind: 'unknown', where: 'BUNDLE_GEMFILE', what: 'names a Gemfile (Ruby) not known here' }];
  if (gemfile) {
    const f = posix.resolve(ctx.cwd, gemfile);
    return cachedIsFile(f) ? [{ kind: 'file', where: f, what: 'a Gemfile: Ruby that bundler evaluates' }] : [];
  }
  const found = cachedFindUp(ctx.cwd, ['gems.rb', 'Gemfile']);
  return found ? [{ kind: 'file', where: found, what: 'a Gemfile: Ruby that bundler evaluates' }] : [];
}

export function railsRepoCode(ctx: ProjectContext): RepoCode[] {
  const found = cachedFindUp(ctx.cwd, ['bin/rails', 'script/rails']);
  return found ? [{ kind: 'file', where: found, what: 'the application’s own rails command, which boots the application' }] : [];
}

export function vagrantRepoCode(ctx: ProjectContext): RepoCode[] {
  const out: RepoCode[] = [];
  const cwdVar = ctx.variable('VAGRANT_CWD');
  const nameVar = ctx.variable('VAGRANT_VAGRANTFILE');
  const homeVar = ctx.variable('VAGRANT_HOME');
  const home = ctx.lineSets('HOME') ? (ctx.variable('HOME') ?? null) : ctx.home;
  if (cwdVar === null || nameVar === null)
    return [{ kind: 'unknown', where: cwdVar === null ? 'VAGRANT_CWD' : 'VAGRANT_VAGRANTFILE', what: 'names a Vagrantfile (Ruby) not known here' }];
  const start = posix.resolve(ctx.cwd, cwdVar ?? '.');
  const names = nameVar ? [nameVar, 'Vagrantfile', 'vagrantfile'] : ['Vagrantfile', 'vagrantfile'];
  const found = cachedFindUp(start, names);
  if (found) out.push({ kind: 'file', where: found, what: 'a Vagrantfile: Ruby that every vagrant command loads' });
  const vagrantHome = toolHome(homeVar, home, '.vagrant.d');
  if (vagrantHome === null)
    out.push({
      kind: 'unknown',
      where: homeVar === null ? 'VAGRANT_HOME' : 'HOME',
      what: 'set to a directory not known here, whose Vagrantfile vagrant loads',
    });
  else {
    const userFile = posix.join(vagrantHome, 'Vagrantfile');
    if (cachedIsFile(userFile)) out.push({ kind: 'file', where: userFile, what: 'a Vagrantfile: Ruby that every vagrant command loads' });
  }
  return out;
}
