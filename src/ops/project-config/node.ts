/**
 * JavaScript package managers whose "read-only" subcommands can run project code:
 * - yarn: `.yarnrc.yml` `yarnPath` (Berry) or `.yarnrc` `yarn-path` (classic), found upwards,
 *   make every yarn command run that JavaScript file instead of yarn — `yarn --version` too;
 *   `.yarnrc.yml` `plugins` are JavaScript loaded by every command. Read with a YAML parser.
 * - yarn and pnpm through corepack's shim: `packageManager` in package.json picks the version
 *   corepack downloads and runs, before the tool reads its argv.
 * - pnpm: `.pnpmfile.cjs` (or the file `pnpmfile` names) holds hooks, some of which (updateConfig)
 *   run for every command; `configDependencies` in pnpm-workspace.yaml load packages the same way.
 * - npm: `npm help` opens its pages with the `viewer` / `browser` an `.npmrc` names (project
 *   `.npmrc` found upwards, `~/.npmrc`); `npm docs`/`bugs`/`repo`/`home` use `browser`.
 * Only npm is installed here; `npm config edit` (editor) already asks as unknown in the spec.
 */
import { posix } from 'node:path';
import { isMap, isScalar, parseAllDocuments } from 'yaml';
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
  for (const name of ['YARN_YARN_PATH', 'YARN_PLUGINS', 'YARN_RC_FILENAME', 'YARN_IGNORE_PATH', 'COREPACK_ENABLE_STRICT']) {
    if (ctx.lineSets(name)) out.push({ kind: 'key', where: 'the environment the line sets', what: name, value: ctx.variable(name) });
  }
  const home = ctx.lineSets('HOME') ? (ctx.variable('HOME') ?? null) : ctx.home;
  const found = cache.get(JSON.stringify(['yarn', ctx.cwd, home]), (probe) => {
    const hits: RepoCode[] = [];
    const dirs: string[] = [];
    each(ctx.cwd, (d) => void dirs.push(d));
    if (home !== null) dirs.push(home);
    for (const d of dirs) {
      const file = posix.join(d, '.yarnrc.yml');
      const berry = probe.read(file);
      if (berry.kind === 'error') hits.push({ kind: 'unknown', where: file, what: `yarn settings that could not be read (${berry.reason})` });
      else if (berry.kind === 'text') hits.push(...berryCode(file, berry.text));
      const classicFile = posix.join(d, '.yarnrc');
      const classic = text(probe, classicFile);
      // yarn 1 reads `.yarnrc` with its lockfile parser (quoted keys take JSON escapes): any
      // spelling of yarn-path, or any escape, is taken as one.
      if (classic !== null && (/yarn[-_]?path/i.test(classic) || classic.includes('\\')))
        hits.push({ kind: 'key', where: classicFile, what: 'yarn-path (yarn runs this file instead of itself)' });
    }
    hits.push(...packageManagerCode(probe, ctx.cwd));
    return hits;
  });
  return [...out, ...found];
}

/** Yarn settings keys that run JavaScript: compared without case, `-` or `_`. */
const BERRY_CODE_KEYS: Record<string, string> = {
  yarnpath: 'yarnPath (yarn runs this file instead of itself)',
  plugins: 'plugins (JavaScript every yarn command loads)',
};

/**
 * `.yarnrc.yml` read with a YAML parser, so that every spelling of a key counts (quoted, escaped,
 * flow mappings, explicit `? key`): a document that is not one plain mapping of plain keys, or
 * that uses merge keys or anchors, is not read further and asks.
 */
function berryCode(file: string, source: string): RepoCode[] {
  let docs;
  try {
    docs = parseAllDocuments(source, { uniqueKeys: false });
  } catch {
    return [{ kind: 'unknown', where: file, what: 'yarn settings shellgate cannot read' }];
  }
  if (!Array.isArray(docs) || docs.length > 1) return [{ kind: 'unknown', where: file, what: 'yarn settings in a form shellgate does not read' }];
  const doc = docs[0];
  if (doc === undefined || (doc.contents === null && doc.errors.length === 0)) return [];
  if (doc.errors.length > 0 || !isMap(doc.contents)) return [{ kind: 'unknown', where: file, what: 'yarn settings shellgate cannot read' }];
  const hits: RepoCode[] = [];
  for (const pair of doc.contents.items) {
    const key = pair.key;
    if (!isScalar(key) || typeof key.value !== 'string' || key.value === '<<' || (isScalar(key) && key.anchor !== undefined)) {
      hits.push({ kind: 'unknown', where: file, what: 'a yarn settings key shellgate cannot read' });
      continue;
    }
    const what = BERRY_CODE_KEYS[key.value.replace(/[-_]/g, '').toLowerCase()];
    if (what === undefined) continue;
    const value = isScalar(pair.value) && typeof pair.value.value === 'string' ? pair.value.value : null;
    hits.push({ kind: 'key', where: file, what, value });
  }
  return hits;
}

/**
 * Corepack: when `yarn` or `pnpm` is corepack's shim, the nearest package.json with a
 * `packageManager` field picks the version it downloads and runs (a URL is allowed too).
 */
function packageManagerCode(probe: FileProbe, cwd: string): RepoCode[] {
  for (let d = cwd; ; d = posix.dirname(d)) {
    const file = posix.join(d, 'package.json');
    const t = text(probe, file);
    // A JSON escape may spell the key (`package\u004danager`): then the file is parsed too.
    if (t !== null && (t.includes('packageManager') || t.includes('\\u'))) {
      let value: unknown;
      try {
        value = (JSON.parse(t) as Record<string, unknown>).packageManager;
      } catch {
        return [{ kind: 'unknown', where: file, what: 'a package.json shellgate cannot read (corepack reads its packageManager)' }];
      }
      if (value !== undefined)
        return [
          { kind: 'key', where: file, what: 'packageManager (corepack downloads and runs that version)', value: typeof value === 'string' ? value : null },
        ];
    }
    if (d === '/') return [];
  }
}

export function pnpmRepoCode(ctx: ProjectContext): RepoCode[] {
  // Corepack's shim picks the version before pnpm reads its argv (`pnpm --version` too).
  const shim = cache.get(JSON.stringify(['corepack', ctx.cwd]), (probe) => packageManagerCode(probe, ctx.cwd));
  const sub = ctx.parsed.subcommands[0] ?? null;
  if (sub === 'help' || sub === null) return shim;
  return [...shim, ...pnpmFiles(ctx)];
}

function pnpmFiles(ctx: ProjectContext): RepoCode[] {
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
