/**
 * cargo: `cargo metadata` and `cargo tree` ask rustc for target information, through
 * `build.rustc-wrapper` / `build.rustc` from `.cargo/config.toml` (or `.cargo/config`) in the
 * working directory and every parent, `$CARGO_HOME/config.toml`, `--config`, and the RUSTC /
 * RUSTC_WRAPPER / CARGO_BUILD_* variables the line sets. And `cargo` itself is usually rustup's
 * proxy, which runs the toolchain a `rust-toolchain.toml` (or `rust-toolchain`) found upwards
 * names: `[toolchain] path = "…"` is any directory's `bin/cargo`, for every cargo subcommand
 * (rustup.ts, shared with every proxy).
 * (build.rs and proc macros run on build/check/test, which already ask.)
 */
import { posix } from 'node:path';
import { StampedCache, type FileProbe } from './file-probe.js';
import { parseToml, readTomlConfig } from './toml.js';
import { rustupRepoCode } from './rustup.js';
import { toolHome, type ProjectContext, type RepoCode } from './types.js';

/** Keys that start a program when cargo queries rustc (metadata, tree, info). */
const RUSTC_KEYS = new Set(['build.rustc', 'build.rustc-wrapper', 'build.rustc-workspace-wrapper']);
/** Keys that start a credential provider (registry commands: search, info). */
const CREDENTIAL_KEY = /^(registry\.credential-provider|registry\.global-credential-providers|registries\.[^.]+\.credential-provider|credential-alias\..+)$/;
/** Variables the line can set to the same effect. */
const RUSTC_VARIABLES = [
  'RUSTC',
  'RUSTC_WRAPPER',
  'RUSTC_WORKSPACE_WRAPPER',
  'CARGO_BUILD_RUSTC',
  'CARGO_BUILD_RUSTC_WRAPPER',
  'CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER',
];
/** A compiler cache is a wrapper every user of it trusts. */
const HARMLESS_WRAPPER = /^(?:\/usr\/(?:local\/)?bin\/)?(sccache|)$/;

interface CargoFacts {
  /** [file, dotted key, value] for every program-naming key. */
  keys: { file: string; key: string; value: string }[];
  problems: RepoCode[];
}

const cache = new StampedCache<CargoFacts>();

function configFiles(probe: FileProbe, cwd: string, cargoHome: string | null): string[] {
  const files: string[] = [];
  for (let d = cwd; ; d = posix.dirname(d)) {
    for (const name of ['.cargo/config', '.cargo/config.toml']) {
      const f = posix.join(d, name);
      if (probe.isFile(f)) files.push(f);
    }
    if (d === '/') break;
  }
  if (cargoHome)
    for (const name of ['config', 'config.toml']) {
      const f = posix.join(cargoHome, name);
      if (probe.isFile(f) && !files.includes(f)) files.push(f);
    }
  return files;
}

function readConfig(probe: FileProbe, file: string, facts: CargoFacts, depth: number): void {
  for (const e of readTomlConfig(probe, file, 'cargo', facts.problems)) {
    const key = e.path.join('.');
    if (RUSTC_KEYS.has(key) || CREDENTIAL_KEY.test(key)) facts.keys.push({ file, key, value: e.value });
    // config-include (`include = "other.toml"`): read what it names too.
    if (e.path.length === 1 && e.path[0] === 'include' && depth < 4) {
      for (const m of e.value.startsWith('[') ? e.value.matchAll(/"([^"]*)"|'([^']*)'/g) : [[e.value, e.value]]) {
        const target = m[1] ?? m[2];
        if (target) readConfig(probe, posix.resolve(posix.dirname(file), target), facts, depth + 1);
      }
    }
  }
}

export function cargoRepoCode(ctx: ProjectContext): RepoCode[] {
  const { parsed } = ctx;
  const sub = parsed.subcommands[0] ?? null;
  const has = (...names: string[]) => parsed.options.some((o) => names.includes(o.name));
  const queriesRustc = (sub === 'metadata' && !has('--no-deps')) || sub === 'tree' || sub === 'info';
  const usesRegistry = sub === 'search' || sub === 'info';
  const home = ctx.lineSets('HOME') ? (ctx.variable('HOME') ?? null) : ctx.home;
  // `cargo -C DIR` (nightly) moves before configuration is searched.
  let cwd = ctx.cwd;
  for (const o of parsed.options) {
    if (o.depth !== 0 || o.name !== '-C') continue;
    if (!o.value || o.value.dynamic) return [{ kind: 'unknown', where: 'cargo -C', what: 'a directory not known here, whose configuration cargo reads' }];
    cwd = posix.resolve(cwd, o.value.value);
  }
  const cargoHomeVar = ctx.variable('CARGO_HOME');
  const cargoHome = toolHome(cargoHomeVar, home, '.cargo');
  const out: RepoCode[] = [];
  if (cargoHome === null)
    out.push({
      kind: 'unknown',
      where: ctx.lineSets('CARGO_HOME') ? 'CARGO_HOME' : 'HOME',
      what: 'set to a directory not known here, whose cargo configuration cargo reads',
    });
  // --config KEY=VALUE (TOML) or --config FILE.
  const cliConfig: string[] = [];
  for (const o of parsed.options) {
    if (o.name !== '--config') continue;
    if (!o.value || o.value.dynamic) out.push({ kind: 'unknown', where: 'the command line', what: 'cargo --config with a value not known here' });
    else cliConfig.push(o.value.value);
  }
  const facts = cache.get(JSON.stringify([cwd, cargoHome, cliConfig]), (probe) => {
    const f: CargoFacts = { keys: [], problems: [] };
    for (const file of configFiles(probe, cwd, cargoHome)) readConfig(probe, file, f, 0);
    for (const c of cliConfig) {
      const path = posix.resolve(cwd, c);
      if (/^[A-Za-z0-9_.'"-]+\s*=/.test(c) && !probe.isFile(path)) {
        const p = parseToml(c);
        if (p.error) f.problems.push({ kind: 'unknown', where: 'the command line', what: `cargo --config ${c}: not a setting shellgate can read` });
        for (const e of p.entries) {
          const key = e.path.join('.');
          if (RUSTC_KEYS.has(key) || CREDENTIAL_KEY.test(key)) f.keys.push({ file: 'the command line (--config)', key, value: e.value });
        }
      } else readConfig(probe, path, f, 0);
    }
    return f;
  });
  out.push(...rustupRepoCode(ctx, cwd), ...facts.problems);
  for (const k of facts.keys) {
    const relevant = RUSTC_KEYS.has(k.key) ? queriesRustc : usesRegistry;
    if (relevant && !(k.key !== 'build.rustc' && HARMLESS_WRAPPER.test(k.value))) out.push({ kind: 'key', where: k.file, what: k.key, value: k.value });
  }
  if (queriesRustc) {
    for (const name of RUSTC_VARIABLES) {
      if (!ctx.lineSets(name)) continue;
      const v = ctx.variable(name) ?? null;
      if (v === null || (name.endsWith('RUSTC') ? v !== 'rustc' : !HARMLESS_WRAPPER.test(v)))
        out.push({ kind: 'key', where: 'the environment the line sets', what: name, value: v });
    }
  }
  return out;
}
