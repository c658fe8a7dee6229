/**
 * terraform / tofu: `validate`, `graph`, `providers schema`, `show` and `state show` start the
 * provider plugins to read their schemas. Those are executables in the working directory's data
 * directory (`.terraform/providers/…`, `TF_DATA_DIR`), which a repository can ship together with
 * a `.terraform.lock.hcl` whose hashes match them, or directories a CLI configuration's
 * `dev_overrides` names (`TF_CLI_CONFIG_FILE`, `~/.terraformrc`). A `credentials_helper` in the
 * CLI configuration runs whenever a command reaches a remote backend or registry.
 */
import { posix } from 'node:path';
import { StampedCache, type FileProbe } from './file-probe.js';
import type { ProjectContext, RepoCode } from './types.js';

interface TerraformFacts {
  providers: RepoCode[];
  devOverrides: RepoCode[];
  credentialsHelpers: RepoCode[];
  problems: RepoCode[];
}

const cache = new StampedCache<TerraformFacts>();

/** HCL with comments removed, enough to find a block name. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:"])(#|\/\/).*$/gm, '$1');
}

function cliConfigFacts(probe: FileProbe, files: string[], facts: TerraformFacts): void {
  for (const f of files) {
    const r = probe.read(f);
    if (r.kind === 'missing') continue;
    if (r.kind === 'error') {
      facts.problems.push({ kind: 'unknown', where: f, what: `a CLI configuration that could not be read (${r.reason})` });
      continue;
    }
    const text = withoutComments(r.text);
    if (/\bdev_overrides\b/.test(text))
      facts.devOverrides.push({ kind: 'key', where: f, what: 'provider_installation.dev_overrides (provider binaries from the directories it names)' });
    const helper = /\bcredentials_helper\s+"([^"]*)"/.exec(text);
    if (helper) facts.credentialsHelpers.push({ kind: 'key', where: f, what: 'credentials_helper', value: `terraform-credentials-${helper[1]}` });
  }
}

/** Subcommands that start provider plugins. */
function startsProviders(sub: string | null, next: string | null): boolean {
  if (
    sub === 'validate' ||
    sub === 'graph' ||
    sub === 'show' ||
    sub === 'console' ||
    sub === 'plan' ||
    sub === 'apply' ||
    sub === 'refresh' ||
    sub === 'import' ||
    sub === 'test'
  )
    return true;
  if (sub === 'providers') return next === 'schema';
  if (sub === 'state') return next === 'show';
  return false;
}

export function terraformRepoCode(ctx: ProjectContext): RepoCode[] {
  const program = ctx.cmd.program ?? 'terraform';
  const sub = ctx.parsed.subcommands[0] ?? null;
  const next = ctx.parsed.subcommands[1] ?? null;
  if (sub === 'version' || sub === 'help' || sub === 'fmt' || sub === null) return [];
  const out: RepoCode[] = [];
  // -chdir=DIR (only that spelling) comes before the subcommand.
  let dir = ctx.cwd;
  for (const a of ctx.cmd.args) {
    if (!a.value.startsWith('-')) break;
    const m = /^-chdir=(.*)$/.exec(a.value);
    if (!m) continue;
    if (a.dynamic) return [{ kind: 'unknown', where: `${program} -chdir`, what: 'a directory not known here, whose providers it starts' }];
    dir = posix.resolve(dir, m[1]);
  }
  const dataDirVar = ctx.variable('TF_DATA_DIR');
  const home = ctx.lineSets('HOME') ? (ctx.variable('HOME') ?? null) : ctx.home;
  const cliFileVars = ['TF_CLI_CONFIG_FILE', 'TERRAFORM_CONFIG', 'TOFU_CLI_CONFIG_FILE'].map((n) => [n, ctx.variable(n)] as const);
  for (const [n, v] of cliFileVars) if (v === null) out.push({ kind: 'unknown', where: n, what: 'names a CLI configuration not known here' });
  if (dataDirVar === null) out.push({ kind: 'unknown', where: 'TF_DATA_DIR', what: 'names a data directory (with provider binaries) not known here' });
  if (home === null) out.push({ kind: 'unknown', where: 'HOME', what: `set to a directory not known here, whose CLI configuration ${program} reads` });
  const dataDir = posix.resolve(dir, dataDirVar ?? '.terraform');
  const cliFiles = cliFileVars.flatMap(([, v]) => (typeof v === 'string' && v !== '' ? [posix.resolve(ctx.cwd, v)] : []));
  if (home !== null) cliFiles.push(posix.join(home, '.terraformrc'), posix.join(home, '.tofurc'));
  const facts = cache.get(JSON.stringify([dataDir, cliFiles]), (probe) => {
    const f: TerraformFacts = { providers: [], devOverrides: [], credentialsHelpers: [], problems: [] };
    for (const name of ['providers', 'plugins']) {
      const p = posix.join(dataDir, name);
      const entries = probe.list(p);
      if (entries && entries.length > 0) f.providers.push({ kind: 'file', where: p, what: 'provider plugin executables it starts' });
    }
    cliConfigFacts(probe, cliFiles, f);
    return f;
  });
  out.push(...facts.problems);
  if (startsProviders(sub, next)) out.push(...facts.providers, ...facts.devOverrides);
  // Remote state and registries: everything but local-only commands may ask the helper for a token.
  if (sub !== 'validate' && sub !== 'graph') out.push(...facts.credentialsHelpers);
  return out;
}
