/**
 * Option tables of the programs that run another program (wrappers), as data. The shape is what
 * unwrap-wrappers.ts needs to find where the wrapped command starts: which options take a value.
 * Sources: the man pages of sudo, doas, GNU coreutils (env, nice, timeout, stdbuf, chroot), util-linux
 * (ionice, setsid, flock, script, su, runuser), procps (watch), findutils (xargs), GNU parallel, ssh.
 */

export interface WrapperOptions {
  /** Short options that take a value (`-u root`, `-uroot`). */
  shortValue: string;
  /** Long options that take a value (`--user root`, `--user=root`). */
  longValue: string[];
  /** Short options whose value is optional and only attached (`xargs -i{}`, `-l5`). */
  shortOptionalValue?: string;
  /** Options after which the wrapped command is a shell string (`su -c`, `flock -c`). */
  shellStringShort?: string;
  shellStringLong?: string[];
}

export const WRAPPER_OPTIONS: Record<string, WrapperOptions> = {
  sudo: {
    shortValue: 'ugpCDrthUTR',
    longValue: ['--user', '--group', '--prompt', '--close-from', '--chdir', '--role', '--type', '--host', '--other-user', '--command-timeout', '--chroot'],
  },
  doas: { shortValue: 'uC', longValue: [] },
  pkexec: { shortValue: '', longValue: ['--user'] },
  env: {
    shortValue: 'uCSP',
    longValue: ['--unset', '--chdir', '--split-string', '--default-signal', '--ignore-signal', '--block-signal'],
  },
  command: { shortValue: '', longValue: [] },
  builtin: { shortValue: '', longValue: [] },
  exec: { shortValue: 'a', longValue: [] },
  nohup: { shortValue: '', longValue: [] },
  nice: { shortValue: 'n', longValue: ['--adjustment'] },
  ionice: { shortValue: 'cnpPu', longValue: ['--class', '--classdata', '--pid', '--pgid', '--uid'] },
  timeout: { shortValue: 'sk', longValue: ['--signal', '--kill-after'] },
  time: { shortValue: 'fo', longValue: ['--format', '--output'] },
  stdbuf: { shortValue: 'ioe', longValue: ['--input', '--output', '--error'] },
  setsid: { shortValue: '', longValue: [] },
  watch: { shortValue: 'nq', longValue: ['--interval', '--equexit', '--differences'] },
  xargs: {
    shortValue: 'ILnPsdEa',
    longValue: ['--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--delimiter', '--eof', '--arg-file', '--process-slot-var'],
    shortOptionalValue: 'iel',
  },
  parallel: {
    shortValue: 'jSaIdEnNLX',
    longValue: ['--jobs', '--sshlogin', '--arg-file', '--colsep', '--delimiter', '--delay', '--timeout', '--results', '--tmpdir', '--workdir', '--joblog', '--max-args', '--max-lines', '--retries', '--halt', '--memfree', '--load', '--env', '--tag-string', '--basefile', '--transfer-file', '--return', '--sshloginfile'],
  },
  busybox: { shortValue: '', longValue: [] },
  taskset: { shortValue: '', longValue: [] },
  chrt: { shortValue: 'T', longValue: ['--sched-runtime', '--sched-period', '--sched-deadline'] },
  unbuffer: { shortValue: '', longValue: [] },
  caffeinate: { shortValue: 'tw', longValue: [] },
  torsocks: { shortValue: 'uPa', longValue: ['--user', '--pass', '--address', '--port'] },
  proxychains: { shortValue: 'f', longValue: [] },
  proxychains4: { shortValue: 'f', longValue: [] },
  firejail: { shortValue: '', longValue: [] },
  at: { shortValue: 'qfmMtbl', longValue: [] },
  batch: { shortValue: 'qfmM', longValue: [] },
  chroot: { shortValue: '', longValue: ['--userspec', '--groups'] },
  su: {
    shortValue: 'sgGwc',
    longValue: ['--shell', '--group', '--supp-group', '--whitelist-environment', '--command', '--session-command'],
    shellStringShort: 'c',
    shellStringLong: ['--command', '--session-command'],
  },
  runuser: {
    shortValue: 'usgGwc',
    longValue: ['--user', '--shell', '--group', '--supp-group', '--whitelist-environment', '--command', '--session-command'],
    shellStringShort: 'c',
    shellStringLong: ['--command', '--session-command'],
  },
  flock: {
    shortValue: 'wEc',
    longValue: ['--timeout', '--conflict-exit-code', '--command'],
    shellStringShort: 'c',
    shellStringLong: ['--command'],
  },
  script: {
    shortValue: 'cEIOmT',
    longValue: ['--command', '--echo', '--log-in', '--log-out', '--log-io', '--logging-format', '--log-timing', '--output-limit'],
    shellStringShort: 'c',
    shellStringLong: ['--command'],
  },
  ssh: {
    shortValue: 'pilo FJLRDbcEeImOQSWwB'.replace(' ', ''),
    longValue: [],
  },
};

/** Shells whose `-c STRING` is analysed as a script. */
export const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'rbash', 'yash', 'fish', 'tcsh', 'csh']);

/** Shell options that take a value, written before `-c` (`-o pipefail`, `--rcfile f`). */
export const SHELL_VALUE_OPTIONS = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

/** Programs that run with raised privileges. */
export const PRIVILEGE_WRAPPERS = new Set(['sudo', 'doas', 'pkexec', 'su', 'runuser', 'chroot']);
