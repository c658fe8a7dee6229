/**
 * JavaScript package managers whose "read-only" subcommands can run project code:
 * - yarn: `.yarnrc.yml` `yarnPath` (Berry) or `.yarnrc` `yarn-path` (classic), found upwards,
 *   make every yarn command run that JavaScript file instead of yarn; `.yarnrc.yml` `plugins`
 *   are JavaScript loaded by every command.
 * - pnpm: `.pnpmfile.cjs` (or the file `pnpmfile` names) holds hooks, some of which (updateConfig)
 *   run for every command; `configDependencies` in pnpm-workspace.yaml load packages the same way.
 * - npm: `npm help` opens its pages with the `viewer` / `browser` an `.npmrc` names (project
 *   `.npmrc` found upwards, `~/.npmrc`); `npm docs`/`bugs`/`repo`/`home` use `browser`.
 * Only npm is installed here; `npm config edit` (editor) already asks as unknown in the spec.
 */
import { posix } from 'node:path';
import { StampedCache, type FileProbe } from './file-probe.js';
import type { ProjectContext, RepoCode } from './types.js';

const cache = new StampedCache<RepoCode[]>();

function each<T>(start: string, visit: (dir: string) => T | undefined): T | undefined {
  for (let d = start; ; d = posix.dirname(d)) {
    const r = visit(d);
    if (r !== undefined) return r;
    if (d === '/') return undefined;
  }
}

function text(probe: FileProbe, file: string): string | null {
  const r = probe.read(file);
  return r.kind === 'text' ? r.text : null;
}

export function yarnRepoCode(ctx: ProjectContext): RepoCode[] {
  const out: RepoCode[] = [];
  for (const name of ['YARN_YARN_PATH', 'YARN_PLUGINS', 'YARN_RC_FILENAME']) {
    if (ctx.lineSets(name)) out.push({ kind: 'key', where: 'the environment the line sets', what: name, value: ctx.variable(name) });
  }
  const home = ctx.lineSets('HOME') ? (ctx.variable('HOME') ?? null) : ctx.home;
  const found = cache.get(JSON.stringify(['yarn', ctx.cwd, home]), (probe) => {
    const hits: RepoCode[] = [];
    const dirs: string[] = [];
    each(ctx.cwd, (d) => void dirs.push(d));
    if (home !== null) dirs.push(home);
    for (const d of dirs) {
      const berry = text(probe, posix.join(d, '.yarnrc.yml'));
      if (berry !== null) {
        const path = /^\s*["']?yarnPath["']?\s*:\s*(.+)$/m.exec(berry);
        if (path)
          hits.push({ kind: 'key', where: posix.join(d, '.yarnrc.yml'), what: 'yarnPath (yarn runs this file instead of itself)', value: path[1].trim() });
        if (/^\s*["']?plugins["']?\s*:/m.test(berry))
          hits.push({ kind: 'key', where: posix.join(d, '.yarnrc.yml'), what: 'plugins (JavaScript every yarn command loads)' });
      }
      const classic = text(probe, posix.join(d, '.yarnrc'));
      const path = classic === null ? null : /^\s*["']?yarn-path["']?\s+(.+)$/m.exec(classic);
      if (path) hits.push({ kind: 'key', where: posix.join(d, '.yarnrc'), what: 'yarn-path (yarn runs this file instead of itself)', value: path[1].trim() });
    }
    return hits;
  });
  return [...out, ...found];
}

export function pnpmRepoCode(ctx: ProjectContext): RepoCode[] {
  const sub = ctx.parsed.subcommands[0] ?? null;
  if (sub === 'help' || sub === null) return [];
  return cache.get(JSON.stringify(['pnpm', ctx.cwd]), (probe) => {
    const hits: RepoCode[] = [];
    each(ctx.cwd, (d) => {
      const pnpmfile = posix.join(d, '.pnpmfile.cjs');
      if (probe.isFile(pnpmfile)) hits.push({ kind: 'file', where: pnpmfile, what: 'pnpm hooks (JavaScript pnpm loads)' });
      const workspace = text(probe, posix.join(d, 'pnpm-workspace.yaml'));
      if (workspace !== null && /^\s*(configDependencies|pnpmfile)\s*:/m.test(workspace))
        hits.push({ kind: 'key', where: posix.join(d, 'pnpm-workspace.yaml'), what: 'configDependencies / pnpmfile (JavaScript pnpm loads)' });
      const npmrc = text(probe, posix.join(d, '.npmrc'));
      const pnpmfileKey = npmrc === null ? null : /^\s*(global-)?pnpmfile\s*=\s*(.+)$/m.exec(npmrc);
      if (pnpmfileKey) hits.push({ kind: 'key', where: posix.join(d, '.npmrc'), what: `${pnpmfileKey[1] ?? ''}pnpmfile`, value: pnpmfileKey[2].trim() });
      return undefined;
    });
    return hits;
  });
}

/** npm subcommands that open a page with a configured program. */
const NPM_OPENS: Record<string, readonly string[]> = {
  help: ['viewer', 'browser'],
  docs: ['browser'],
  home: ['browser'],
  bugs: ['browser'],
  issues: ['browser'],
  repo: ['browser'],
};

export function npmRepoCode(ctx: ProjectContext): RepoCode[] {
  const sub = ctx.parsed.subcommands[0] ?? null;
  const keys = sub === null ? undefined : NPM_OPENS[sub];
  if (!keys) return [];
  const home = ctx.lineSets('HOME') ? (ctx.variable('HOME') ?? null) : ctx.home;
  const userconfig = ctx.variable('NPM_CONFIG_USERCONFIG') ?? ctx.variable('npm_config_userconfig');
  const found = cache.get(JSON.stringify(['npm', ctx.cwd, home, userconfig, keys]), (probe) => {
    const files: string[] = [];
    each(ctx.cwd, (d) => void files.push(posix.join(d, '.npmrc')));
    if (home !== null) files.push(posix.join(home, '.npmrc'));
    if (typeof userconfig === 'string') files.push(posix.resolve(ctx.cwd, userconfig));
    const hits: RepoCode[] = [];
    for (const f of files) {
      const t = text(probe, f);
      if (t === null) continue;
      for (const m of t.matchAll(/^\s*([A-Za-z-]+)\s*=\s*(.*)$/gm)) {
        if (!keys.includes(m[1])) continue;
        const value = m[2].trim();
        // `viewer = man` / `browser` pick npm's own ways of showing help.
        if (m[1] === 'viewer' && /^(man|browser|woman)$/.test(value)) continue;
        hits.push({ kind: 'key', where: f, what: m[1], value });
      }
    }
    return hits;
  });
  const out = [...found];
  for (const k of keys)
    if (ctx.lineSets(`npm_config_${k}`))
      out.push({ kind: 'key', where: 'the environment the line sets', what: `npm_config_${k}`, value: ctx.variable(`npm_config_${k}`) });
  return out;
}
