/**
 * git: which programs a read-only git command can start because of configuration. The
 * repository is found as git finds it (discovery.ts), its configuration read as git reads it
 * (config-load.ts, with includes, the command line and GIT_CONFIG_* variables), and only the
 * keys the run reaches count (run-parts.ts): `git log` is not affected by core.fsmonitor, `git
 * status` is, and so are the submodules it recurses into.
 */
import { posix } from 'node:path';
import type { FileProbe } from '../file-probe.js';
import { StampedCache } from '../file-probe.js';
import type { ProjectContext, RepoCode } from '../types.js';
import { parseGitConfig } from './config-syntax.js';
import { codeKeyFamily, isPlainPager, runsProgram, type GitRunPart } from './code-keys.js';
import { candidates, gitBool, loadGitConfig, type CommandLineConfig, type LoadedConfig, type LoadedEntry } from './config-load.js';
import { commonDirOf, discoverRepository, isGitDirectory, type Discovery, type GitRepo } from './discovery.js';
import { hookRisks } from './hooks.js';
import { gitRun, type GitRun } from './run-parts.js';

/** Submodules followed (git status recurses into each one). */
const MAX_SUBMODULES = 32;
const MAX_MODULE_DIRS = 256;

interface RepoState {
  repo: GitRepo;
  config: LoadedConfig;
  /** Executable post-index-change hooks and configured hooks for it. */
  indexHooks: RepoCode[];
}

interface Setup {
  discovery: Discovery;
  main: RepoState | null;
  /** Configuration when there is no repository (global, system, command line). */
  outside: LoadedConfig | null;
  submodules: RepoState[];
  problems: RepoCode[];
}

const setups = new StampedCache<Setup>();

interface SetupInput {
  start: string;
  gitDir: string | null | undefined;
  commonDir: string | null | undefined;
  objectDirectory: string | null | undefined;
  workTree: string | null | undefined;
  home: string | null;
  vars: Record<string, string | null | undefined>;
  commandLine: CommandLineConfig[];
}

/** Variables that decide which files git reads. */
const LOCATION_VARIABLES = ['XDG_CONFIG_HOME', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM'];

function repoState(probe: FileProbe, repo: GitRepo, input: SetupInput): RepoState {
  const config = loadGitConfig(probe, { repo, home: input.home, variable: (n) => input.vars[n], commandLine: input.commandLine });
  return { repo, config, indexHooks: hookRisks(probe, repo, config, input.home, ['post-index-change']) };
}

/** Submodule repositories: absorbed ones under `modules/`, and those `.gitmodules` places in the work tree. */
function findSubmodules(probe: FileProbe, repo: GitRepo, objectDirectory: string | null | undefined): { repos: GitRepo[]; limit: boolean } {
  const found = new Map<string, GitRepo>();
  let dirs = 0;
  let limit = false;
  const walk = (dir: string, depth: number): void => {
    if (limit || depth > 8) return;
    for (const name of probe.list(dir) ?? []) {
      if (++dirs > MAX_MODULE_DIRS || found.size >= MAX_SUBMODULES) {
        limit = true;
        return;
      }
      const p = posix.join(dir, name);
      if (!probe.isDir(p)) continue;
      if (isGitDirectory(probe, p, objectDirectory)) {
        found.set(p, { gitDir: p, commonDir: commonDirOf(probe, p), workTree: null });
        walk(posix.join(p, 'modules'), depth + 1);
      } else {
        walk(p, depth + 1); // names with slashes nest
      }
    }
  };
  walk(posix.join(repo.commonDir, 'modules'), 0);
  if (repo.workTree) {
    const r = probe.read(posix.join(repo.workTree, '.gitmodules'));
    if (r.kind === 'text') {
      for (const e of parseGitConfig(r.text).entries) {
        if (e.section !== 'submodule' || e.key !== 'path' || !e.value) continue;
        const at = posix.resolve(repo.workTree, e.value);
        const dotGit = posix.join(at, '.git');
        const st = probe.stat(dotGit);
        let gitDir: string | null = null;
        if (st?.isDirectory() && isGitDirectory(probe, dotGit, objectDirectory)) gitDir = dotGit;
        else if (st?.isFile()) {
          const g = probe.read(dotGit, 4096);
          const m = g.kind === 'text' ? /^gitdir: (.+?)\s*$/m.exec(g.text) : null;
          if (m) gitDir = posix.resolve(at, m[1]);
        }
        if (gitDir === null) continue;
        const known = found.get(gitDir);
        if (known) known.workTree = at;
        else if (found.size < MAX_SUBMODULES) found.set(gitDir, { gitDir, commonDir: commonDirOf(probe, gitDir), workTree: at });
        else limit = true;
      }
    }
  }
  return { repos: [...found.values()], limit };
}

function computeSetup(probe: FileProbe, input: SetupInput): Setup {
  const discovery = discoverRepository(probe, {
    start: input.start,
    gitDir: input.gitDir,
    commonDir: input.commonDir,
    objectDirectory: input.objectDirectory,
    workTree: input.workTree,
  });
  const problems: RepoCode[] = [];
  if (discovery.kind === 'unknown') problems.push({ kind: 'unknown', where: discovery.where, what: discovery.why });
  if (discovery.kind !== 'repo') {
    const outside = loadGitConfig(probe, { repo: null, home: input.home, variable: (n) => input.vars[n], commandLine: input.commandLine });
    return { discovery, main: null, outside, submodules: [], problems };
  }
  const main = repoState(probe, discovery.repo, input);
  const subs = findSubmodules(probe, discovery.repo, input.objectDirectory);
  if (subs.limit)
    problems.push({
      kind: 'unknown',
      where: posix.join(discovery.repo.commonDir, 'modules'),
      what: `more submodules than shellgate follows (${MAX_SUBMODULES})`,
    });
  return { discovery, main, outside: null, submodules: subs.repos.map((r) => repoState(probe, r, input)), problems };
}

/** `-c name=value` and `--config-env=name=VAR`; GIT_CONFIG_COUNT…; GIT_CONFIG_PARAMETERS. */
function commandLineConfig(ctx: ProjectContext, problems: RepoCode[]): CommandLineConfig[] {
  const out: CommandLineConfig[] = [];
  const count = ctx.variable('GIT_CONFIG_COUNT');
  if (count === null) problems.push({ kind: 'unknown', where: 'GIT_CONFIG_COUNT', what: 'set to a value not known here' });
  else if (count !== undefined && count !== '') {
    const n = /^\d+$/.test(count) ? Number(count) : NaN;
    if (!(n >= 0 && n <= 100)) problems.push({ kind: 'unknown', where: 'GIT_CONFIG_COUNT', what: `a count shellgate does not follow (${count})` });
    for (let i = 0; i < Math.min(n, 100); i++) {
      // A variable neither the line nor the context sets may still be in the real environment.
      const key = ctx.variable(`GIT_CONFIG_KEY_${i}`) ?? null;
      const value = ctx.variable(`GIT_CONFIG_VALUE_${i}`) ?? null;
      if (key === null) {
        problems.push({ kind: 'unknown', where: `GIT_CONFIG_KEY_${i}`, what: 'names a configuration key not known here' });
        continue;
      }
      out.push({ name: key, value, unknown: value === null, origin: `GIT_CONFIG_KEY_${i}` });
    }
  }
  const params = ctx.variable('GIT_CONFIG_PARAMETERS');
  if (params === null) problems.push({ kind: 'unknown', where: 'GIT_CONFIG_PARAMETERS', what: 'set to a value not known here' });
  else if (params) {
    const parsed = parseConfigParameters(params);
    if (parsed === null) problems.push({ kind: 'unknown', where: 'GIT_CONFIG_PARAMETERS', what: 'a value shellgate cannot read' });
    else for (const p of parsed) out.push({ ...p, origin: 'GIT_CONFIG_PARAMETERS' });
  }
  for (const o of ctx.parsed.options) {
    if (o.depth !== 0 || (o.name !== '-c' && o.name !== '--config-env')) continue;
    if (!o.value || o.value.dynamic) {
      problems.push({ kind: 'unknown', where: 'the command line', what: `git ${o.name} with a setting not known here` });
      continue;
    }
    const text = o.value.value;
    if (o.name === '-c') {
      const eq = text.indexOf('=');
      out.push({ name: eq < 0 ? text : text.slice(0, eq), value: eq < 0 ? null : text.slice(eq + 1), origin: '-c' });
    } else {
      const eq = text.lastIndexOf('=');
      if (eq <= 0) continue; // git refuses it
      // Unset, git refuses to run; but a variable the context does not list may be set all the same.
      const value = ctx.variable(text.slice(eq + 1)) ?? null;
      out.push({ name: text.slice(0, eq), value, unknown: value === null, origin: '--config-env' });
    }
  }
  return out;
}

/** GIT_CONFIG_PARAMETERS: `'name'='value'` items (or the older `'name=value'`), shell single-quoted. */
export function parseConfigParameters(text: string): { name: string; value: string | null }[] | null {
  const out: { name: string; value: string | null }[] = [];
  let i = 0;
  const quoted = (): string | null => {
    if (text[i] !== "'") return null;
    let s = '';
    i++;
    for (;;) {
      if (i >= text.length) return null;
      const c = text[i++];
      if (c !== "'") {
        s += c;
        continue;
      }
      // `'\''` and `'\!'` continue the string with a quote or `!`.
      if (text[i] === '\\' && (text[i + 1] === "'" || text[i + 1] === '!') && text[i + 2] === "'") {
        s += text[i + 1];
        i += 3;
        continue;
      }
      return s;
    }
  };
  while (i < text.length) {
    if (/\s/.test(text[i])) {
      i++;
      continue;
    }
    const first = quoted();
    if (first === null) return null;
    if (text[i] === '=') {
      i++;
      const value = /\s/.test(text[i] ?? ' ') ? null : quoted();
      if (value === null && i < text.length && !/\s/.test(text[i])) return null;
      out.push({ name: first, value });
    } else {
      const eq = first.indexOf('=');
      out.push({ name: eq < 0 ? first : first.slice(0, eq), value: eq < 0 ? null : first.slice(eq + 1) });
    }
  }
  return out;
}

function isTrue(e: LoadedEntry): boolean {
  return e.unknownValue === true || gitBool(e.value) !== false;
}

/**
 * Risks in one repository's configuration for a run. `indexHooks`: the repository's hooks for
 * index writes; `child`: a submodule git runs with its output piped.
 */
function configRisks(config: LoadedConfig, indexHooks: readonly RepoCode[], run: GitRun, ctx: ProjectContext, child: boolean): RepoCode[] {
  const out: RepoCode[] = [...config.problems];
  const entries = config.entries;
  const parts = new Set<GitRunPart>(run.parts);
  if (child) parts.delete('pager');
  // log.showSignature turns signature checks on for the log family and show.
  if (run.showSignature === null && ['log', 'whatchanged', 'reflog', 'show'].includes(run.command ?? '')) {
    if (candidates(entries, (e) => e.name === 'log.showsignature').some(isTrue)) parts.add('signature');
  }
  const add = (e: LoadedEntry) => out.push({ kind: 'key', where: e.file, what: e.name, value: e.unknownValue ? null : e.value });

  // The pager: pager.<cmd> can turn it on or off or name one; GIT_PAGER (the user's or the line's) replaces configuration.
  if (parts.has('pager')) {
    const perCommand = run.command === null ? [] : candidates(entries, (e) => e.section === 'pager' && e.subsection === null && e.key === run.command);
    const wants =
      run.pager === 'forced' || perCommand.some((e) => e.unknownValue || gitBool(e.value) !== false) || (run.pager === 'default' && perCommand.length === 0);
    if (wants && ctx.variable('GIT_PAGER') === undefined) {
      for (const e of perCommand) if (e.unknownValue || (gitBool(e.value) === null && !isPlainPager(e.value))) add(e);
      for (const e of candidates(entries, (x) => x.name === 'core.pager')) if (e.unknownValue || !isPlainPager(e.value)) add(e);
      for (const e of entries) if (e.section === 'delta' && e.key === 'pager' && (e.unknownValue || !isPlainPager(e.value))) add(e);
    }
  }

  // Every other program-naming key the run reaches; single-valued keys: the values git may use.
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.name)) continue;
    seen.add(e.name);
    const family = codeKeyFamily(e.section, e.subsection, e.key);
    if (!family || family.parts.includes('pager')) continue;
    if (family.parts.includes('alias')) {
      const alias = e.subsection ?? e.key;
      if (!parts.has('alias') || alias !== run.command) continue;
    } else if (!family.parts.some((p) => parts.has(p))) continue;
    const values = family.parts.includes('network') ? entries.filter((x) => x.name === e.name) : candidates(entries, (x) => x.name === e.name);
    for (const c of values) if (runsProgram(family, c.value, c.subsection, c.unknownValue)) add(c);
  }
  if (parts.has('index')) out.push(...indexHooks);
  return out;
}

/**
 * The first source that gives a value: null is "given, but unknown" and must win over the sources
 * after it (`??` would skip it: `git --git-dir="$D"` is not a plain discovery).
 */
function firstGiven<T>(...sources: (T | null | undefined)[]): T | null | undefined {
  for (const v of sources) if (v !== undefined) return v;
  return undefined;
}

export function gitRepoCode(ctx: ProjectContext): RepoCode[] {
  const problems: RepoCode[] = [];
  const { parsed } = ctx;
  // `git -C DIR` (each relative to the one before) moves before anything is looked up.
  let start = ctx.cwd;
  for (const o of parsed.options) {
    if (o.depth !== 0 || o.name !== '-C') continue;
    if (!o.value || o.value.dynamic || o.value.glob)
      return [{ kind: 'unknown', where: 'git -C', what: 'a directory not known here, whose repository configuration git reads' }];
    if (o.value.value !== '') start = posix.resolve(start, o.value.value);
  }
  const optionValue = (name: string): string | null | undefined => {
    const o = [...parsed.options].reverse().find((x) => x.depth === 0 && x.name === name);
    if (!o) return undefined;
    return !o.value || o.value.dynamic ? null : o.value.value;
  };
  // `--bare` without GIT_DIR makes the working directory the git directory (its `config` file).
  const bare = parsed.options.some((o) => o.depth === 0 && o.name === '--bare') ? start : undefined;
  const gitDir = firstGiven(optionValue('--git-dir'), ctx.variable('GIT_DIR'), bare);
  const home = ctx.lineSets('HOME') ? (ctx.variable('HOME') ?? null) : ctx.home;
  const vars: Record<string, string | null | undefined> = {};
  for (const n of LOCATION_VARIABLES) vars[n] = ctx.variable(n);
  const input: SetupInput = {
    start,
    gitDir,
    commonDir: ctx.variable('GIT_COMMON_DIR'),
    objectDirectory: ctx.variable('GIT_OBJECT_DIRECTORY'),
    workTree: firstGiven(optionValue('--work-tree'), ctx.variable('GIT_WORK_TREE')),
    home,
    vars,
    commandLine: commandLineConfig(ctx, problems),
  };
  const setup = setups.get(JSON.stringify(input), (probe) => computeSetup(probe, input));
  const run = gitRun(ctx.cmd, parsed);
  const out: RepoCode[] = [...problems, ...setup.problems];
  if (setup.main) out.push(...configRisks(setup.main.config, setup.main.indexHooks, run, ctx, false));
  else if (setup.outside) out.push(...configRisks(setup.outside, [], run, ctx, false));
  // git status and git diff run git in every submodule, with that submodule's configuration.
  if (run.parts.has('index')) for (const s of setup.submodules) out.push(...configRisks(s.config, s.indexHooks, run, ctx, true));
  return dedupe(out);
}

function dedupe(list: RepoCode[]): RepoCode[] {
  const seen = new Set<string>();
  return list.filter((c) => {
    const k = `${c.kind}\0${c.where}\0${c.what}\0${c.value}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** For tests: forget cached setups. */
export function clearGitSetupCache(): void {
  setups.clear();
}
