/** Named predicates for the shutdown rules (rules/builtin/shutdown.json). */
import type { Subject } from '../subject.js';
import { forPrograms, type Predicate } from './programs.js';

interface KillCall {
  /** The signal as written without its dash and `SIG` prefix, upper-cased; null for the default (TERM). */
  signal: string | null;
  /** Process ids / job specs as written. */
  targets: string[];
  /** `kill -l`, `kill -L`: only lists signals. */
  list: boolean;
  /** Some target is not known statically. */
  dynamic: boolean;
}

/**
 * Read kill's argv the way kill does: the first `-X` is the signal (`-9`, `-KILL`, `-SIGKILL`,
 * `-s KILL`, `-n 9`, `--signal=KILL`); after it, or after `--`, `-1` is a pid (every process).
 */
function readKill(s: Subject): KillCall {
  const args = s.cmd.args;
  const call: KillCall = { signal: null, targets: [], list: false, dynamic: false };
  let sawSignal = false;
  let end = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i].value;
    if (end || args[i].dynamic || !a.startsWith('-') || (sawSignal && /^-\d+$/.test(a))) {
      if (args[i].dynamic) call.dynamic = true;
      call.targets.push(a);
      continue;
    }
    if (a === '--') end = true;
    else if (a === '-l' || a === '-L' || a === '--list' || a === '--table') call.list = true;
    else if (a === '-s' || a === '-n' || a === '--signal') {
      call.signal = args[i + 1]?.value ?? null;
      sawSignal = true;
      i++;
    } else if (a.startsWith('--signal=')) {
      call.signal = a.slice('--signal='.length);
      sawSignal = true;
    } else if (!sawSignal) {
      call.signal = a.slice(1);
      sawSignal = true;
    } else call.targets.push(a);
  }
  if (call.signal !== null) call.signal = call.signal.toUpperCase().replace(/^SIG/, '');
  return call;
}

/** Signals that do not end a process by default (0 only checks; HUP/USR1/USR2 ask init to reload). */
const HARMLESS_TO_INIT = new Set(['0', '1', 'HUP', '10', 'USR1', '12', 'USR2', '18', 'CONT', '28', 'WINCH', '19', 'STOP', '20', 'TSTP', '17', 'CHLD']);

/**
 * `kill -9 1` (init: the kernel panics, the container stops) or `kill -9 -1` / `kill -- -1`
 * (every process the caller may signal: the session, the agent, and as root the whole machine).
 */
function killsInitOrAll(s: Subject): boolean {
  if (s.cmd.program !== 'kill') return false;
  const k = readKill(s);
  if (k.list) return false;
  if (k.targets.includes('-1') && k.signal !== '0') return true;
  return k.targets.includes('1') && (k.signal === null || !HARMLESS_TO_INIT.has(k.signal));
}

/**
 * `pkill -u root` / `killall -u root` with no name or pattern: every process of root (the whole
 * system), or a pattern that matches every process (`pkill -9 .`, `pkill -f '.*'`).
 */
function killsEveryProcessOfRoot(s: Subject): boolean {
  if (s.cmd.program !== 'pkill' && s.cmd.program !== 'killall') return false;
  const p = s.parsed;
  if (p.options.some((o) => o.name === '-l' || o.name === '--list' || o.name === '--help' || o.name === '-V')) return false;
  const operands = p.operands.map((a) => a.value);
  if (operands.some((o) => /^(\.|\.\*|\^|\$|\^\.\*\$?|\.\+|\^\.\*)$/.test(o)) && s.cmd.program === 'pkill') return true;
  const user = p.options.find((o) => ['-u', '--user', '--euid', '-U', '--uid'].includes(o.name))?.value?.value;
  if (user === undefined) return false;
  const users = user.split(',');
  return (users.includes('root') || users.includes('0')) && operands.length === 0;
}

/** `pkill -u USER` / `killall -u USER` with no process name: every process of that user (known or not). */
function killsEveryProcessOfUser(s: Subject): boolean {
  if (s.cmd.program !== 'pkill' && s.cmd.program !== 'killall') return false;
  const p = s.parsed;
  if (p.options.some((o) => o.name === '-l' || o.name === '--list' || o.name === '--help' || o.name === '-V')) return false;
  const user = p.options.find((o) => ['-u', '--user', '--euid', '-U', '--uid'].includes(o.name))?.value;
  return user !== undefined && user !== null && p.operands.length === 0;
}

/**
 * System daemons: the long-running services of a Linux or macOS host, by process name. Killing one
 * by name (`killall cron`, `pkill ^sshd$`, `kill $(pgrep rsyslogd)`) stops the service as surely as
 * `systemctl stop` does. Application servers a developer starts by hand (node, python, vite) are not
 * here.
 */
const SYSTEM_DAEMONS = new Set([
  'cron',
  'crond',
  'anacron',
  'atd',
  'sshd',
  'rsyslogd',
  'syslogd',
  'syslog-ng',
  'auditd',
  'journald',
  'systemd-journald',
  'systemd-logind',
  'systemd-networkd',
  'systemd-resolved',
  'systemd-timesyncd',
  'systemd-udevd',
  'udevd',
  'dbus-daemon',
  'NetworkManager',
  'wpa_supplicant',
  'dhclient',
  'dhcpcd',
  'chronyd',
  'ntpd',
  'cupsd',
  'avahi-daemon',
  'polkitd',
  'snapd',
  'firewalld',
  'dockerd',
  'containerd',
  'kubelet',
  'nginx',
  'httpd',
  'apache2',
  'lighttpd',
  'mysqld',
  'mariadbd',
  'postgres',
  'postmaster',
  'redis-server',
  'mongod',
  'memcached',
  'named',
  'dnsmasq',
  'postfix',
  'sendmail',
  'exim4',
  'dovecot',
  'smbd',
  'nmbd',
  'nfsd',
  'rpcbind',
  'xinetd',
  'inetd',
  'vsftpd',
  'proftpd',
  'slapd',
  'sssd',
  'winbindd',
  'nscd',
  'launchd',
  'mDNSResponder',
  'configd',
  'opendirectoryd',
  'securityd',
  'coreaudiod',
  'WindowServer',
  'loginwindow',
]);

/** The programs whose operands are process names. */
const DAEMON_NAMERS = ['pkill', 'killall', 'pgrep', 'pidof'];

/** A process-name operand of pkill/killall/pgrep/pidof (a pkill pattern with its anchors taken off) names a system daemon. */
function namesSystemDaemon(s: Subject): boolean {
  if (!DAEMON_NAMERS.includes(s.cmd.program ?? '')) return false;
  return s.parsed.operands.some((a) => !a.dynamic && SYSTEM_DAEMONS.has(a.value.replace(/^\^/, '').replace(/\$$/, '')));
}

export const shutdownPredicates: Record<string, Predicate> = {
  'shutdown/kills-init-or-all': forPrograms(['kill'], killsInitOrAll),
  'shutdown/kills-every-root-process': forPrograms(['pkill', 'killall'], killsEveryProcessOfRoot),
  'shutdown/kills-every-user-process': forPrograms(['pkill', 'killall'], killsEveryProcessOfUser),
  'shutdown/names-system-daemon': forPrograms(DAEMON_NAMERS, namesSystemDaemon),
};
