/**
 * rustup's proxies: `cargo`, `rustc`, `rustfmt`, `rustdoc`, `clippy-driver`, `rust-analyzer`… are
 * usually rustup's own binary, which picks a toolchain before the tool reads its argv — so even
 * `rustc --version` runs the chosen toolchain's binary. The choice comes from (rustup book,
 * "Overrides"): a `+toolchain` first argument, `RUSTUP_TOOLCHAIN`, a directory override in the
 * user's settings (the user's own), or a `rust-toolchain.toml` / `rust-toolchain` file found
 * upwards from the working directory. A file's `[toolchain] path = "…"` runs that directory's
 * binaries; a channel that is not a plain release name (`stable`, `1.79.0`, `nightly-2024-01-01`,
 * with an optional host triple) is not known to be an installed toolchain, so it asks too.
 */
import { posix } from 'node:path';
import { StampedCache, type FileProbe } from './file-probe.js';
import { parseToml } from './toml.js';
import type { ProjectContext, RepoCode } from './types.js';

/** Programs rustup installs as proxies of the active toolchain. */
export const RUSTUP_PROXIES = [
  'cargo',
  'rustc',
  'rustdoc',
  'rustfmt',
  'cargo-fmt',
  'cargo-clippy',
  'clippy-driver',
  'rust-analyzer',
  'rust-gdb',
  'rust-gdbgui',
  'rust-lldb',
  'rls',
  'cargo-miri',
  'rustup',
] as const;

/** A release channel, a version or a dated nightly, optionally with a host triple: a toolchain rustup installs from its own server. */
const PLAIN_CHANNEL = /^(stable|beta|nightly|\d+\.\d+(\.\d+)?)(-\d{4}-\d{2}-\d{2})?(-[a-z0-9_]+(-[a-z0-9_]+){1,3})?$/;

const cache = new StampedCache<RepoCode[]>();

/** The toolchain file upwards from `cwd` (the nearest wins, `rust-toolchain` before `.toml` as rustup reads them). */
function toolchainFile(probe: FileProbe, cwd: string): RepoCode[] {
  for (let d = cwd; ; d = posix.dirname(d)) {
    for (const name of ['rust-toolchain', 'rust-toolchain.toml']) {
      const f = posix.join(d, name);
      const r = probe.read(f, 64 * 1024);
      if (r.kind === 'missing') continue;
      if (r.kind === 'error') return [{ kind: 'unknown', where: f, what: `a toolchain file that could not be read (${r.reason})` }];
      // The legacy file may hold just a channel name.
      if (name === 'rust-toolchain' && !/^\s*\[/.test(r.text) && !r.text.includes('=')) {
        const channel = r.text.trim();
        return PLAIN_CHANNEL.test(channel)
          ? []
          : [{ kind: 'key', where: f, what: 'a toolchain that is not a release channel (rustup runs it)', value: channel }];
      }
      const parsed = parseToml(r.text);
      if (parsed.error) return [{ kind: 'unknown', where: f, what: 'a toolchain file shellgate cannot read' }];
      const out: RepoCode[] = [];
      for (const e of parsed.entries) {
        const key = e.path.join('.');
        if (key === 'toolchain.path') out.push({ kind: 'key', where: f, what: 'toolchain.path (rustup runs that toolchain’s binaries)', value: e.value });
        else if (key === 'toolchain.channel' && !PLAIN_CHANNEL.test(e.value))
          out.push({ kind: 'key', where: f, what: 'toolchain.channel that is not a release channel (rustup runs it)', value: e.value });
      }
      return out;
    }
    if (d === '/') return [];
  }
}

/** What toolchain a rustup proxy runs, when the line or the project chooses one that is not a plain release. */
export function rustupRepoCode(ctx: ProjectContext, cwd: string = ctx.cwd): RepoCode[] {
  const out: RepoCode[] = [];
  const first = ctx.cmd.args[0];
  if (first !== undefined && first.value.startsWith('+')) {
    const name = first.value.slice(1);
    if (first.dynamic || !PLAIN_CHANNEL.test(name))
      out.push({ kind: 'key', where: 'the command line', what: '+toolchain (rustup runs that toolchain)', value: first.dynamic ? null : name });
    return out; // `+toolchain` wins over the environment and the files
  }
  if (ctx.lineSets('RUSTUP_TOOLCHAIN')) {
    const v = ctx.variable('RUSTUP_TOOLCHAIN');
    if (typeof v !== 'string' || !PLAIN_CHANNEL.test(v))
      out.push({ kind: 'key', where: 'the environment the line sets', what: 'RUSTUP_TOOLCHAIN (rustup runs that toolchain)', value: v });
    return out;
  }
  return cache.get(cwd, (probe) => toolchainFile(probe, cwd));
}
