/**
 * One small registry: program → the check that knows which project configuration it loads and
 * which of it runs code. Called for commands whose spec says read-only; a finding makes the
 * command's class unknown and adds an Exec operation from `config` naming the file and key.
 */
import { own } from '../../own.js';
import { commandVariable, commandVariableNames } from '../../walk/command-env.js';
import type { WalkedCommand } from '../../walk/types.js';
import type { ParsedArgv } from '../../programs/argv.js';
import { cargoRepoCode } from './cargo.js';
import { gitRepoCode } from './git/index.js';
import { hgRepoCode } from './hg.js';
import { jjRepoCode } from './jj.js';
import { npmRepoCode, pnpmRepoCode, yarnRepoCode } from './node.js';
import { bundleRepoCode, railsRepoCode, vagrantRepoCode } from './ruby.js';
import { terraformRepoCode } from './terraform.js';
import { mavenRepoCode } from './maven.js';
import { RUSTUP_PROXIES, rustupRepoCode } from './rustup.js';
import { HANDS_OFF, nodeLauncherRepoCode } from './node-launchers.js';
import { interpreterRepoCode } from './interpreter.js';
import { interpreterFamily } from '../../programs/interpreters.js';
import type { ProjectCheck, ProjectContext, RepoCode } from './types.js';

export const PROJECT_CHECKS: Readonly<Record<string, ProjectCheck>> = {
  git: gitRepoCode,
  cargo: cargoRepoCode,
  terraform: terraformRepoCode,
  tofu: terraformRepoCode,
  hg: hgRepoCode,
  jj: jjRepoCode,
  bundle: bundleRepoCode,
  bundler: bundleRepoCode,
  rails: railsRepoCode,
  vagrant: vagrantRepoCode,
  yarn: yarnRepoCode,
  pnpm: pnpmRepoCode,
  npm: npmRepoCode,
  yarnpkg: yarnRepoCode,
  mvn: mavenRepoCode,
  mvnw: mavenRepoCode,
  mvnDebug: mavenRepoCode,
  ...Object.fromEntries(RUSTUP_PROXIES.filter((p) => p !== 'cargo').map((p) => [p, (ctx: ProjectContext) => rustupRepoCode(ctx)])),
  ...Object.fromEntries(Object.keys(HANDS_OFF).map((p) => [p, nodeLauncherRepoCode])),
};

/** Checks that read the program's own directory options (`git -C`, `cargo -C`, `terraform -chdir`) from its argv. */
const READS_OWN_DIRECTORY = new Set(['git', 'cargo', 'terraform', 'tofu', 'hg', 'jj']);

export function projectRepoCode(
  program: string,
  cmd: WalkedCommand,
  parsed: ParsedArgv,
  home: string,
  vars: Readonly<Record<string, string | undefined>> | undefined,
  /** Where the program works after its `chdir` options (`yarn --cwd DIR`); the command's cwd by default. */
  workDir: string | null = cmd.cwd,
): RepoCode[] {
  const check = own(PROJECT_CHECKS, program) ?? (interpreterFamily(program) !== null ? interpreterRepoCode : undefined);
  if (!check) return [];
  const cwd = READS_OWN_DIRECTORY.has(program) ? cmd.cwd : workDir;
  if (cwd === null) {
    // Where it runs decides which configuration it loads.
    return [{ kind: 'unknown', where: 'the working directory', what: `not known here, and ${program} loads configuration from it` }];
  }
  const ctx: ProjectContext = {
    cmd,
    parsed,
    cwd,
    home,
    variable: (name) => {
      const v = commandVariable(cmd, name);
      if (v !== undefined) return v;
      return vars && Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : undefined;
    },
    lineSets: (name) => commandVariable(cmd, name) !== undefined,
    variableNames: () => [...new Set([...commandVariableNames(cmd), ...Object.keys(vars ?? {}).filter((k) => vars![k] !== undefined)])],
  };
  return check(ctx);
}
