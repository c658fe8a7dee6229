/** Every program's hooks by program name: each hooks/<program>.ts module registers itself here. */
import type { ProgramHooks } from '../hook-types.js';
import type { ProgramTag } from '../spec-types.js';
import { atHooks } from './at.js';
import { chrootHooks } from './chroot.js';
import { commandHooks } from './command.js';
import { envHooks } from './env.js';
import { evalHooks } from './eval.js';
import { parallelHooks } from './parallel.js';
import { chrtHooks, ioniceHooks, tasksetHooks } from './process-tools.js';
import { shellHooks } from './shell.js';
import { flockHooks, shellStringHooks, suHooks } from './shell-string.js';
import { sshHooks } from './ssh.js';
import { sudoHooks } from './sudo.js';
import { watchHooks } from './watch.js';
import { xargsHooks } from './xargs.js';
import { gitHooks } from './git.js';
import { jqHooks } from './jq.js';
import { LINE_FILTER_HOOKS } from './line-filters.js';
import { fdHooks, lsHooks, rgHooks, treeHooks } from './name-listers.js';
import { awkHooks } from './awk.js';
import { interpreterHooks } from './interpreter.js';
import { curlHooks, httpieHooks, wgetHooks } from './curl.js';
import { ddHooks } from './dd.js';
import { findHooks } from './find.js';
import { fingerHooks } from './finger.js';
import { grepHooks } from './grep.js';
import { hledgerHooks } from './hledger.js';
import { kubectlHooks } from './kubectl.js';
import { pagerHooks } from './pager.js';
import { pipHooks } from './pip.js';
import { psHooks } from './ps.js';
import { rpmHooks } from './rpm.js';
import { sedHooks } from './sed.js';
import { dateHooks, ifconfigHooks, sysctlHooks } from './system-settings.js';
import { tarHooks } from './tar.js';
import { urlOperandHooks } from './url-operands.js';

export const HOOKS: Readonly<Record<string, ProgramHooks>> = {
  grep: grepHooks,
  egrep: grepHooks,
  fgrep: grepHooks,
  find: findHooks,
  finger: fingerHooks,
  git: gitHooks,
  hledger: hledgerHooks,
  kubectl: kubectlHooks,
  javap: urlOperandHooks,
  mediainfo: urlOperandHooks,
  gdalinfo: urlOperandHooks,
  okular: urlOperandHooks,
  sed: sedHooks,
  gsed: sedHooks,
  awk: awkHooks,
  gawk: awkHooks,
  mawk: awkHooks,
  nawk: awkHooks,
  tar: tarHooks,
  gtar: tarHooks,
  dd: ddHooks,
  // dd's descendants read if= and write of= alike
  dcfldd: ddHooks,
  dc3dd: ddHooks,
  sg_dd: ddHooks,
  ddpt: ddHooks,
  curl: curlHooks,
  http: httpieHooks,
  https: httpieHooks,
  xh: httpieHooks,
  xhs: httpieHooks,
  wget: wgetHooks,
  man: pagerHooks,
  less: pagerHooks,
  more: pagerHooks,
  date: dateHooks,
  gdate: dateHooks,
  sysctl: sysctlHooks,
  ifconfig: ifconfigHooks,
  ps: psHooks,
  pip: pipHooks,
  pip3: pipHooks,
  rpm: rpmHooks,
  at: atHooks,
  batch: atHooks,
  chroot: chrootHooks,
  chrt: chrtHooks,
  command: commandHooks,
  doas: sudoHooks,
  env: envHooks,
  eval: evalHooks,
  flock: flockHooks,
  ionice: ioniceHooks,
  parallel: parallelHooks,
  runuser: suHooks,
  script: shellStringHooks,
  ssh: sshHooks,
  su: suHooks,
  sudo: sudoHooks,
  taskset: tasksetHooks,
  watch: watchHooks,
  xargs: xargsHooks,
  jq: jqHooks,
  gojq: jqHooks,
  fd: fdHooks,
  fdfind: fdHooks,
  rg: rgHooks,
  ls: lsHooks,
  tree: treeHooks,
  ...LINE_FILTER_HOOKS,
};

/** Hooks shared by every program with a tag, for a program with none of its own (every shell reads `-c` alike). */
export const TAG_HOOKS: Readonly<Partial<Record<ProgramTag, ProgramHooks>>> = {
  shell: shellHooks,
  interpreter: interpreterHooks,
};
