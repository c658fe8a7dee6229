/** Every program's hooks by program name: each hooks/<program>.ts module registers itself here. */
import type { ProgramHooks } from '../hook-types.js';
import { awkHooks } from './awk.js';
import { curlHooks, httpieHooks, wgetHooks } from './curl.js';
import { ddHooks } from './dd.js';
import { findHooks } from './find.js';
import { grepHooks } from './grep.js';
import { pagerHooks } from './pager.js';
import { psHooks } from './ps.js';
import { rpmHooks } from './rpm.js';
import { sedHooks } from './sed.js';
import { dateHooks, ifconfigHooks, sysctlHooks } from './system-settings.js';
import { tarHooks } from './tar.js';

export const HOOKS: Readonly<Record<string, ProgramHooks>> = {
  grep: grepHooks,
  egrep: grepHooks,
  fgrep: grepHooks,
  find: findHooks,
  sed: sedHooks,
  gsed: sedHooks,
  awk: awkHooks,
  gawk: awkHooks,
  mawk: awkHooks,
  nawk: awkHooks,
  tar: tarHooks,
  gtar: tarHooks,
  dd: ddHooks,
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
  rpm: rpmHooks,
};
