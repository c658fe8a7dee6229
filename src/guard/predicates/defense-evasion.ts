/**
 * Named predicates for the defense-evasion rules (rules/builtin/defense-evasion.json): which
 * daemons a command stops, disables or uninstalls (the same grammar serves the logging, security
 * agent and firewall rules), auditctl switching auditing off, `date` setting the clock, and path
 * names made to deceive (trailing spaces, all-dot names, double extensions).
 */
import type { Subject } from '../subject.js';
import { forPrograms, requires, type Predicate } from './programs.js';

/** Daemons that record what happens on the machine: auditing, syslog, the journal (Linux, BSD, macOS). */
const LOGGING_DAEMON =
  /^(auditd|audit|audispd|rsyslogd?|syslogd?|syslog-ng|sysklogd|klogd|metalog|systemd-journald(-dev-log|-audit)?|journald|com\.apple\.(syslogd|auditd|logd))$/i;

/**
 * Endpoint detection, antivirus and host monitoring agents, by service name, launchd label or
 * package: CrowdStrike, Carbon Black, SentinelOne, Sophos, osquery, ClamAV, Defender, Wazuh/OSSEC,
 * Elastic, Tanium, Qualys, Rapid7, Cylance, Trellix/FireEye, Trend Micro, McAfee, Cisco AMP,
 * Falco, Little Snitch, LuLu and the Objective-See tools, Cisco Umbrella, Jamf Protect.
 */
const SECURITY_AGENT = new RegExp(
  '^(' +
    [
      'falcon-sensor',
      'falcond',
      'com\\.crowdstrike\\..*',
      'cbagentd',
      'cbdaemon',
      'cb-psc-sensor',
      'cbsensor',
      'cb-enterprise',
      'com\\.carbonblack\\..*',
      'com\\.vmware\\.carbonblack\\..*',
      'sentinelone',
      'sentinelagent',
      'sentinel-agent',
      'com\\.sentinelone\\..*',
      'sophos.*',
      'sav-protect',
      'sav-rms',
      'savd',
      'com\\.sophos\\..*',
      'osqueryd?',
      'com\\.facebook\\.osqueryd',
      'clamav-daemon',
      'clamav-freshclam',
      'clamd(@.*)?',
      'freshclam',
      'clamav',
      'mdatp',
      'wdavdaemon',
      'com\\.microsoft\\.(wdav|fresno|dlp).*',
      'auditbeat',
      'wazuh-agent',
      'ossec(-hids)?',
      'elastic-agent',
      'elastic-endpoint',
      'co\\.elastic\\..*',
      'taniumclient',
      'com\\.tanium\\..*',
      'qualys-cloud-agent',
      'ir_agent',
      'com\\.rapid7\\..*',
      'cylancesvc',
      'com\\.cylance\\..*',
      'xagt',
      'com\\.fireeye\\..*',
      'ds_agent',
      'com\\.trendmicro\\..*',
      'mfetp',
      'mfeespd',
      'com\\.mcafee\\..*',
      'cisco-amp',
      'ampdaemon',
      'com\\.cisco\\.amp\\..*',
      'falco',
      'falco-.*',
      'at\\.obdev\\.littlesnitch.*',
      'littlesnitch.*',
      'com\\.objective-see\\..*',
      'com\\.opendns\\..*',
      'com\\.jamf\\.protect.*',
    ].join('|') +
    ')$',
  'i',
);

/** Host firewalls: services whose stop leaves every port open (Linux, BSD, macOS's application firewall). */
const FIREWALL_SERVICE =
  /^(firewalld|ufw|nftables|iptables|ip6tables|netfilter-persistent|iptables-persistent|ebtables|shorewall6?|pf|pflog|ipfw|firewall|csf|lfd|com\.apple\.alf(\.agent|\.useragent)?)$/i;

/**
 * A service, unit, launchd job or package as named on a command line, reduced to its name:
 * `/Library/LaunchDaemons/com.x.plist` → `com.x`, `system/com.x` → `com.x`, `auditd.service`
 * → `auditd`, `syslogd_enable=NO` → `syslogd`.
 */
function serviceName(word: string): string {
  const base = word.slice(word.lastIndexOf('/') + 1);
  return base.replace(/\.plist$/, '').replace(/\.(service|socket|target|timer)$/, '');
}

/**
 * Signals that ask a daemon to reload or reopen its files rather than exit (`killall -HUP rsyslogd`
 * after log rotation), in the spellings kill, pkill and killall accept.
 */
const HARMLESS_SIGNAL = /^(0|1|HUP|10|USR1|12|USR2|18|CONT|28|WINCH)$/;

function sendsHarmlessSignal(words: readonly string[]): boolean {
  return words.some((w, i) => {
    let sig: string | null = null;
    if (w === '-s' || w === '--signal') sig = words[i + 1] ?? null;
    else if (w.startsWith('--signal=')) sig = w.slice('--signal='.length);
    else if (w.startsWith('-')) sig = w.slice(1);
    return sig !== null && HARMLESS_SIGNAL.test(sig.toUpperCase().replace(/^SIG/, ''));
  });
}

/** Words that are not options (a crude reading for programs whose specs the walker may lack). */
function operands(s: Subject): string[] {
  return s.cmd.args.filter((a) => !a.dynamic && !a.value.startsWith('-')).map((a) => a.value);
}

/**
 * The daemons a substitution feeding `kill` names: `$(pidof NAME)`, `$(pgrep NAME)`, or its pid
 * file read back (`$(cat /run/NAME.pid)`).
 */
function killedDaemons(f: Subject): string[] {
  if (f.cmd.program === 'pidof' || f.cmd.program === 'pgrep') return operands(f);
  if (f.cmd.program !== 'cat' && f.cmd.program !== 'head') return [];
  return f.ops.flatMap((o) => (o.kind === 'Read' && o.path?.endsWith('.pid') ? [serviceName(o.path).replace(/\.pid$/, '')] : []));
}

/** Package managers and the words that remove a package with them. */
const REMOVERS: Record<string, RegExp> = {
  apt: /^(remove|purge|autoremove)$/,
  'apt-get': /^(remove|purge|autoremove)$/,
  aptitude: /^(remove|purge)$/,
  yum: /^(remove|erase)$/,
  dnf: /^(remove|erase)$/,
  microdnf: /^remove$/,
  zypper: /^(remove|rm)$/,
  brew: /^(uninstall|remove|rm)$/,
  snap: /^remove$/,
};

/**
 * The names a command stops, disables, masks, unloads, kills or uninstalls: `systemctl stop|
 * disable|mask|kill|freeze`, `service NAME stop`, `launchctl unload|bootout|disable|remove|stop`,
 * `update-rc.d NAME disable|remove`, `chkconfig NAME off`, `sysrc NAME_enable=NO`, `rc-update
 * del`, `rc-service NAME stop`, `pkill|killall NAME`, `kill $(pidof NAME)`, and package removal.
 */
function stoppedNames(s: Subject): string[] {
  const p = s.cmd.program;
  const words = s.cmd.args.filter((a) => !a.dynamic).map((a) => a.value);
  const ops = operands(s);
  switch (p) {
    case 'systemctl': {
      if (words.includes('--user')) return [];
      const [sub, ...names] = ops;
      return /^(stop|disable|mask|kill|freeze)$/.test(sub ?? '') ? names : [];
    }
    case 'service':
    case 'rc-service':
      return ops.length >= 2 && /^(stop|onestop|forcestop|disable|onedisable)$/.test(ops[1]) ? [ops[0]] : [];
    case 'launchctl':
      return /^(unload|bootout|disable|remove|stop|kill)$/.test(ops[0] ?? '') ? ops.slice(1) : [];
    case 'update-rc.d':
      return ops.some((w) => w === 'disable' || w === 'remove') ? ops.slice(0, 1) : [];
    case 'chkconfig':
      return ops.includes('off') || words.includes('--del') ? ops.filter((w) => w !== 'off' && !/^\d+$/.test(w)) : [];
    case 'sysrc':
      return ops.filter((w) => /_enable=["']?(no|false|off|0)["']?$/i.test(w)).map((w) => w.replace(/_enable=.*$/, ''));
    case 'rc-update':
      return ops[0] === 'del' || ops[0] === 'delete' ? ops.slice(1, 2) : [];
    case 'pkill':
    case 'killall':
      if (words.some((w) => /^-(l|L|-list|V|-version|-help)$/.test(w))) return [];
      return sendsHarmlessSignal(words) ? [] : ops;
    case 'kill':
      if (sendsHarmlessSignal(words) || words.includes('-l')) return [];
      return s.feeders().flatMap(killedDaemons);
    case 'rpm':
      return words.some((w) => w === '-e' || w === '--erase') ? ops : [];
    case 'dpkg':
      return words.some((w) => /^(-r|-P|--remove|--purge)$/.test(w)) ? ops : [];
    case 'pacman':
      return words.some((w) => /^(-R[a-z]*|--remove)$/.test(w)) ? ops : [];
    default: {
      const remove = p !== null ? REMOVERS[p] : undefined;
      return remove && remove.test(ops[0] ?? '') ? ops.slice(1) : [];
    }
  }
}

const STOPPERS = [
  'systemctl',
  'service',
  'rc-service',
  'launchctl',
  'update-rc.d',
  'chkconfig',
  'sysrc',
  'rc-update',
  'pkill',
  'killall',
  'kill',
  'rpm',
  'dpkg',
  'pacman',
  ...Object.keys(REMOVERS),
];

function stops(kind: RegExp): (s: Subject) => boolean {
  return (s) => stoppedNames(s).some((n) => kind.test(serviceName(n)));
}

/** `auditctl -D` (delete every rule) or `auditctl -e 0` (auditing off); `-e 2` locks it on and does not match. */
function auditingOff(s: Subject): boolean {
  if (s.cmd.program !== 'auditctl') return false;
  const words = s.cmd.args.map((a) => a.value);
  return words.some((w, i) => w === '-D' || w === '-e0' || (w === '-e' && words[i + 1] === '0'));
}

/** The iptables family: every build and address family reads the same options. */
const IPTABLES = ['iptables', 'ip6tables', 'iptables-legacy', 'iptables-nft', 'ip6tables-legacy', 'ip6tables-nft'];

/**
 * `iptables -F` / `--flush` with no chain, in the filter table: every filtering rule goes, and
 * with the usual ACCEPT policies the firewall is off. Flushing one chain (`-F DOCKER-USER`) or the
 * nat/mangle/raw tables does not filter traffic and does not match.
 */
function iptablesFlushAll(s: Subject): boolean {
  if (s.cmd.program === null || !IPTABLES.includes(s.cmd.program)) return false;
  const words = s.cmd.args.map((a) => a.value);
  const table = words.find((w, i) => i > 0 && (words[i - 1] === '-t' || words[i - 1] === '--table')) ?? words.find((w) => w.startsWith('--table='))?.slice(8);
  if (table !== undefined && table !== 'filter') return false;
  return words.some((w, i) => (w === '-F' || w === '--flush') && (i + 1 >= words.length || words[i + 1].startsWith('-')));
}

/**
 * `date` given a time to set: `date MMDDhhmm[[CC]YY][.ss]` (GNU and BSD), `date -s|--set TIME`.
 * BSD's `-j` only parses; `+FORMAT` and `-d|-r` values only print.
 */
function setsClock(s: Subject): boolean {
  if (s.cmd.program !== 'date' && s.cmd.program !== 'gdate') return false;
  const words = s.cmd.args.map((a) => a.value);
  if (words.includes('-j')) return false;
  if (words.some((w) => w === '-s' || w === '--set' || w.startsWith('--set=') || /^-[uR]*s/.test(w))) return true;
  return s.parsed.operands.some((a) => !a.dynamic && /^\d{4,12}(\.\d{2})?$/.test(a.value));
}

/**
 * A path component made to be overlooked: only dots (`...`), or a name ending in a space or tab
 * (`init `, `.. `). A trailing carriage return is left out: macOS names its folder-icon file `Icon\r`.
 */
const DECEPTIVE_COMPONENT = /^\.{3,}$|^[^/]*[^\s/][ \t]+$|^\.+[ \t]+$/;

/** A document or media extension followed by a script or binary one (`report.pdf.sh`, `photo.jpg.command`). */
const DOUBLE_EXTENSION =
  /\.(pdf|docx?|xlsx?|pptx?|odt|rtf|txt|csv|jpe?g|png|gif|bmp|svg|mp[34]|mov|avi|wav|zip|rar)\.(sh|bash|zsh|command|py|pl|rb|php|js|exe|scr|bat|cmd|ps1|app|bin|elf|out|run)$/i;

/**
 * Writes or runs, outside the workspace, a path with a component made to be overlooked (T1036.006,
 * T1036.005, T1564.001). Inside the project `...` is a placeholder in pasted examples (`mv a b ...`)
 * and a stray space a typo, both visible to the user in their own tree.
 */
function deceptivePath(s: Subject): boolean {
  return s.ops.some((o) => {
    if (o.path === undefined || (o.kind !== 'Write' && o.kind !== 'Exec')) return false;
    if (o.classes?.includes('workspace')) return false;
    return o.path.split('/').some((c) => c !== '' && DECEPTIVE_COMPONENT.test(c));
  });
}

/** Writes, makes executable or runs a file named with a double extension (T1036.007). */
function doubleExtension(s: Subject): boolean {
  return s.ops.some((o) => o.path !== undefined && (o.kind === 'Write' || o.kind === 'Exec') && DOUBLE_EXTENSION.test(o.path));
}

/** Loader variables that make the dynamic linker load a library into every program it starts. */
const LOADER_INJECTION = new Set(['LD_PRELOAD', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES']);
/** Where a dropped library hides: temp dirs, a dot-directory, another user's or the home's top. */
const INJECTED_FROM =
  /(^|[\s:])(\/tmp\/|\/var\/tmp\/|\/dev\/shm\/|\/private\/tmp\/|~\/\.|\$HOME\/\.|\/home\/[^/]+\/\.|\/Users\/[^/]+\/\.|[^\s:]*\/\.[^/\s:]+\.(so|dylib))/;

/**
 * `LD_PRELOAD=/tmp/x.so ls`, `env LD_PRELOAD=… ls` (the command env runs gets it as an assignment)
 * or `sudo LD_PRELOAD=… ls` (sudo's own argument): a library from a place a dropper uses.
 */
function libraryInjection(s: Subject): boolean {
  const values = s.cmd.assignments.filter((a) => LOADER_INJECTION.has(a.name)).map((a) => a.value);
  if (s.cmd.program === 'sudo' || s.cmd.program === 'doas') {
    for (const a of s.cmd.args) {
      const eq = a.value.indexOf('=');
      if (eq > 0 && LOADER_INJECTION.has(a.value.slice(0, eq))) values.push(a.value.slice(eq + 1));
    }
  }
  return values.some((v) => v !== null && INJECTED_FROM.test(v));
}

export const defenseEvasionPredicates: Record<string, Predicate> = {
  'defense-evasion/library-injection': requires([{ features: ['Env'], programs: ['sudo', 'doas'] }], libraryInjection),
  'defense-evasion/stops-logging': forPrograms(STOPPERS, stops(LOGGING_DAEMON)),
  'defense-evasion/stops-security-agent': forPrograms(STOPPERS, stops(SECURITY_AGENT)),
  'defense-evasion/stops-firewall': forPrograms(STOPPERS, stops(FIREWALL_SERVICE)),
  'defense-evasion/auditing-off': forPrograms(['auditctl'], auditingOff),
  'defense-evasion/iptables-flush-all': forPrograms(IPTABLES, iptablesFlushAll),
  'defense-evasion/sets-clock': forPrograms(['date', 'gdate'], setsClock),
  // Both look only at Write and Exec operations.
  'defense-evasion/deceptive-path': requires([{ features: ['Write', 'Exec'] }], deceptivePath),
  'defense-evasion/double-extension': requires([{ features: ['Write', 'Exec'] }], doubleExtension),
};
