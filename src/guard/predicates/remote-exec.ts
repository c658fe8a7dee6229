/** Named predicates for the remote-exec rules (rules/builtin/remote-exec.json). */
import type { Subject } from '../subject.js';
import { REVERSE_SHELL_TEXT } from './reverse-shell.js';
import { forPrograms, type Predicate } from './programs.js';
import { registry } from '../../programs/registry.js';

// ---------------------------------------------------------------------------------------------
// What a command line does to the machine it runs on

/** A word that starts a command in a command line (after a separator, sudo, `sh -c`…). */
const AT_COMMAND = String.raw`(?:^|(?<=[\s;&|({'"=]))(?<!(?:\b(?:echo|printf|grep|egrep|rg|logger|man|which|type|help|whatis)|\s-m)\s+)`;

/** The command word ends there: end of line, a separator, or only options follow. */
const ENDS = String.raw`(?=(?:\s+-{1,2}[a-zA-Z-]+)*\s*(?:$|[;&|)'"]))`;

/**
 * Targets of a recursive delete that destroy a system, a home or a service's data: `/`, a home
 * directory, a system or data directory down to three levels (`/var/www`, `/srv/app`,
 * `/data/*`), anything under /var/lib. Deeper paths (`/opt/app/releases/2023`) and temp
 * directories are routine cleanup and stay at ask.
 */
const RM_TARGET = String.raw`(?:/\*?|~/?\*?|\$HOME/?\*?|/(?:home|Users)/[^/\s;&|'"]+/?\*?|/var/lib/[^\s;&|'"]+|/(?!var/tmp(?:/|\s|$))(?:bin|boot|etc|lib|lib32|lib64|usr|var|srv|opt|data|root|mnt|media|sbin|snap)(?:/[^\s/;&|'"]+){0,2}/?\*?)`;

/**
 * Command lines that destroy data or take a machine down wherever they run: recursive delete
 * of /, a home or an absolute path outside the temp directories, mkfs/wipefs/dd to a disk,
 * reboot/shutdown, DROP DATABASE, `curl … | sh`, recursive chmod/chown of /, and the Windows
 * equivalents (Remove-Item -Recurse, del /s, format).
 */
const DESTRUCTIVE: RegExp[] = [
  new RegExp(
    AT_COMMAND +
      String.raw`rm\s+(?=(?:[^;&|\n]*\s)?(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?:\s|$))(?:[^;&|\n]*\s)?` +
      RM_TARGET +
      String.raw`(?:\s|$|[;&|'")])`,
  ),
  new RegExp(AT_COMMAND + String.raw`(?:reboot|poweroff|halt)` + ENDS),
  new RegExp(AT_COMMAND + String.raw`shutdown(?:\s+-[a-zA-Z]+)*\s+(?:now|\+?\d+|-[hHrP])`),
  new RegExp(AT_COMMAND + String.raw`(?:init|telinit)\s+[06]` + ENDS),
  /\bsystemctl\s+(?:reboot|poweroff|halt|kexec)\b/,
  new RegExp(AT_COMMAND + String.raw`(?:mkfs(?:\.\w+)?|mke2fs|mkswap|wipefs)\s`),
  /\bdd\b[^;&|\n]*\bof=\/dev\/(?:sd|nvme|hd|vd|xvd|mmcblk|disk|md|dm-)/,
  /\bDROP\s+(?:DATABASE|SCHEMA)\b|\bFLUSHALL\b|\bdropDatabase\s*\(/i,
  /\b(?:curl|wget)\b[^;&|\n]*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b/,
  /\bch(?:mod|own)\s+(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)\s+\S+\s+\/(?:\s|$|['";&|])/,
  /\bRemove-Item\b[^;|\n]*-Recurse|\b(?:del|erase)\s+\/[sSqQ]\b|\b(?:rd|rmdir)\s+\/[sS]\b|\bFormat-Volume\b|\bformat\s+[a-zA-Z]:/i,
];

/** Fleet-wide service stops are destructive too (`clush -a 'systemctl stop kubelet'`). */
const FLEET_DESTRUCTIVE = /\bsystemctl\s+(?:stop|disable|mask|kill)\b|\bservice\s+\S+\s+stop\b|\bkill(?:all)?\s+-9\b/;

export function destructiveText(text: string): boolean {
  return DESTRUCTIVE.some((r) => r.test(text));
}

/** `program arg…` of a walked command, for the text patterns. */
function argvText(s: Subject): string {
  return [s.cmd.program ?? s.cmd.programRaw, ...s.cmd.args.map((a) => a.value)].join(' ');
}

const FETCHERS = registry.tagged('network-fetcher');

/**
 * A command the walker unwrapped from `ssh host CMD` (context.remote) that destroys data or the
 * host: `ssh h 'rm -rf /var/www'`, `ssh h sudo reboot`, `ssh h 'curl … | sh'`,
 * `ssh h "psql -c 'DROP DATABASE app'"`. Recursive deletes under /tmp or a relative path stay
 * at the core's ask.
 */
function destructiveRemote(s: Subject): boolean {
  if (s.cmd.context.remote === null || s.cmd.program === null) return false;
  const p = s.cmd.program;
  if (['reboot', 'poweroff', 'halt'].includes(p)) return true;
  if ((p === 'shutdown' || p === 'init' || p === 'telinit') && !s.cmd.args.some((a) => a.value === '-c' || a.value === '--help')) {
    return p === 'shutdown' || s.cmd.args.some((a) => a.value === '0' || a.value === '6');
  }
  if (registry.has(p, 'shell') && s.cmd.execsStdin && s.pipelineNeighbours('before').some((o) => FETCHERS.has(o.cmd.program ?? ''))) return true;
  return destructiveText(argvText(s));
}

// ---------------------------------------------------------------------------------------------
// Tools that run a command line somewhere else

/**
 * For each launcher, the subcommands (first words) after which the rest of argv is a command
 * line that runs on a container, node or fleet; `null`: any use.
 */
const LAUNCHERS: Record<string, string[] | null> = {
  // `run` starts a fresh, throwaway container: a delete there only touches what it mounts
  kubectl: ['exec', 'debug'],
  oc: ['exec', 'debug', 'rsh'],
  docker: ['exec', 'compose exec', 'container exec'],
  podman: ['exec', 'container exec'],
  nerdctl: ['exec'],
  'docker-compose': ['exec'],
  lxc: ['exec'],
  incus: ['exec'],
  multipass: ['exec'],
  vagrant: ['ssh'],
  aws: ['ssm', 'ecs'],
  gcloud: ['compute', 'run', 'container'],
  az: ['vm', 'vmss', 'container', 'aks'],
  ansible: null,
  salt: null,
  'salt-ssh': null,
  pdsh: null,
  pssh: null,
  'parallel-ssh': null,
  clush: null,
  dsh: null,
  mussh: null,
  knife: ['ssh'],
  sshpass: null,
  ssh: null,
  'Invoke-Command': null,
  winrs: null,
  psexec: null,
  'psexec.exe': null,
};

const FLEET = new Set(['ansible', 'salt', 'salt-ssh', 'pdsh', 'pssh', 'parallel-ssh', 'clush', 'dsh', 'mussh', 'knife']);

/**
 * A launcher whose command-line argument destroys data or the target: `kubectl exec … -- sh -c
 * 'rm -rf /data/*'`, `docker exec db sh -c 'rm -rf /var/lib/postgresql/data'`,
 * `ansible all -m shell -a 'rm -rf /var/lib/app'`, `salt '*' cmd.run 'rm -rf /'`,
 * `aws ssm send-command … commands='rm -rf /srv/app'`, `gcloud compute ssh vm --command='sudo
 * shutdown -h now'`, `az vm run-command … --scripts 'curl …|sh'`. The walker does not unwrap these,
 * so the command line is read as text.
 */
function destructivePayload(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null || !Object.prototype.hasOwnProperty.call(LAUNCHERS, p)) return false;
  const subs = LAUNCHERS[p];
  const words = s.cmd.args.map((a) => a.value);
  if (subs !== null) {
    const plain = words.filter((w) => !w.startsWith('-'));
    if (!subs.includes(plain[0] ?? '') && !subs.includes(plain.slice(0, 2).join(' '))) return false;
  }
  // ssh's own command is walked (destructive-remote); here only when it is not (sshpass ssh …).
  if (p === 'ssh') return false;
  const text = words.join(' ');
  if (destructiveText(text)) return true;
  // stopping services counts when it targets the whole fleet (`all`, `'*'`, clush/pdsh -a)
  const everyHost = words.includes('all') || words.includes('*') || words.includes('--all') || (p !== 'ansible' && words.includes('-a'));
  return FLEET.has(p) && everyHost && FLEET_DESTRUCTIVE.test(text);
}

// ---------------------------------------------------------------------------------------------
// Transport commands that are really local commands

const SHELLISH = /^(?:\S*\/)?(?:(?:ba|da|z|k|c|tc|fi|a|mk)?sh|python[0-9.]*|perl|ruby|php|node|lua|busybox|env|eval|exec)$/;

/**
 * A transport command (what ssh/git/rsync run instead of plain ssh) that is a local shell
 * payload: a shell or interpreter as its program without the %h/%p a real proxy needs, shell
 * operators (`;`, `|`, `&&`, `$(…)`, backquotes, redirects), or a destructive / reverse-shell
 * command line. `ssh -W %h:%p bastion`, `nc -X connect -x proxy:8080 %h %p`,
 * `ssh -i ~/.ssh/deploy -o IdentitiesOnly=yes` are transports and pass.
 */
function hostileTransport(value: string, proxy: boolean): boolean {
  const v = value.trim();
  if (v === '') return false;
  if (destructiveText(v) || REVERSE_SHELL_TEXT.some((r) => r.test(v))) return true;
  if (v.startsWith(';') || v.startsWith('|') || v.startsWith('&')) return true;
  const first = v.split(/\s+/)[0];
  // a transport dropped in a temp directory is a payload, not an ssh build
  if (/^\/(tmp|var\/tmp|dev\/shm)\//.test(first)) return true;
  const hasPlaceholder = /%[hpnr]/.test(v);
  if (SHELLISH.test(first) && !(proxy && hasPlaceholder)) return true;
  if (/;|&&|\|\||`|\$\(|(^|\s)\d?>|\|(?!\|)/.test(v) && !(proxy && hasPlaceholder)) return true;
  return false;
}

/** Every program transportHijack reads, by the branch that reads it. */
const SSH_LIKE = ['ssh', 'scp', 'sftp', 'autossh', 'check_by_ssh', 'sshfs', 'sshpass'];
const RSH_USERS = ['tar', 'gtar', 'borg', 'cvs', 'rdist'];
const TRANSPORT_USERS = ['git', ...SSH_LIKE, 'rsync', ...RSH_USERS];

/**
 * The transport of ssh, scp, sftp, git, rsync, tar, borg or check_by_ssh replaced by a local
 * payload: `ssh -o ProxyCommand=';sh 0<&2 1>&2' x`, `ssh -o PermitLocalCommand=yes -o
 * LocalCommand=…`, `git -c core.sshCommand='sh -c …' fetch`, `GIT_SSH_COMMAND='sh -c …' git
 * fetch`, `rsync -e 'sh -c …'`, `RSYNC_RSH=…`, `tar --rsh-command=…`, `borg --rsh …`.
 */
function transportHijack(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null || !TRANSPORT_USERS.includes(p)) return false;
  const words = s.cmd.args.map((a) => a.value);
  const env = new Map(s.cmd.assignments.map((a) => [a.name, a.value]));
  if (p === 'git') {
    for (const name of ['GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_PROXY_COMMAND']) {
      const v = env.get(name);
      if (v && hostileTransport(v, name === 'GIT_PROXY_COMMAND')) return true;
    }
    for (let i = 0; i < words.length; i++) {
      const m = /^core\.(sshCommand|gitProxy)=(.*)$/is.exec(words[i]);
      if (m && hostileTransport(m[2], m[1].toLowerCase() === 'gitproxy')) return true;
      if (/^core\.sshCommand$/i.test(words[i]) && words.includes('config') && i + 1 < words.length && hostileTransport(words[i + 1], false)) return true;
      // the ext:: transport runs its URL as a command line
      if (/^ext::/.test(words[i])) return true;
      // --upload-pack/--receive-pack/--exec (any unambiguous prefix) run locally for local remotes
      const pack = /^--(upload-pa[a-z-]*|receive-pa[a-z-]*|exec)(?:=(.*))?$/s.exec(words[i]);
      if (pack) {
        const value = pack[2] ?? words[i + 1] ?? '';
        if (!/^(\S*\/)?git([- ](upload-pack|receive-pack|upload-archive))?(\s|$)/.test(value.trim())) return true;
      }
    }
    return false;
  }
  if (SSH_LIKE.includes(p)) {
    // scp/sftp -S PROGRAM: the program used instead of ssh
    if (p !== 'ssh') {
      const prog = s.parsed.options.find((o) => o.name === '-S' && o.value !== null);
      if (prog && hostileTransport(prog.value!.value, false)) return true;
    }
    const opts: string[] = [];
    for (let i = 0; i < words.length; i++) {
      if (words[i] === '-o' && i + 1 < words.length) opts.push(words[++i]);
      else if (words[i].startsWith('-o') && words[i].length > 2) opts.push(words[i].slice(2));
    }
    const permitLocal = opts.some((o) => /^PermitLocalCommand[\s=]+yes$/i.test(o.trim()));
    for (const o of opts) {
      const m = /^\s*(ProxyCommand|LocalCommand|KnownHostsCommand)\s*[=\s]\s*(.*)$/is.exec(o);
      if (!m) continue;
      const key = m[1].toLowerCase();
      if (key === 'localcommand') {
        if (permitLocal) return true;
        continue;
      }
      if (hostileTransport(m[2], key === 'proxycommand')) return true;
    }
    return false;
  }
  if (p === 'rsync') {
    const v = env.get('RSYNC_RSH');
    if (v && hostileTransport(v, false)) return true;
    const opt = s.parsed.options.find((o) => (o.name === '-e' || o.name === '--rsh') && o.value !== null);
    if (opt && hostileTransport(opt.value!.value, false)) return true;
    return words.some((w) => w.startsWith('--rsh=') && hostileTransport(w.slice(6), false));
  }
  if (RSH_USERS.includes(p)) {
    const v = env.get('RSH') ?? env.get('CVS_RSH') ?? env.get('BORG_RSH');
    if (v && hostileTransport(v, false)) return true;
    for (let i = 0; i < words.length; i++) {
      const m = /^--(rsh-command|rsh|rmt-command)=(.*)$/s.exec(words[i]);
      if (m && hostileTransport(m[2], false)) return true;
      if (/^--(rsh-command|rsh|rmt-command)$/.test(words[i]) && i + 1 < words.length && hostileTransport(words[i + 1], false)) return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Any command run on another machine

/** Remote-login clients: with a command they run it there, without one they open a shell there. */
const LOGIN_CLIENTS = ['ssh', 'autossh', 'mosh', 'rsh', 'rlogin', 'rexec', 'remsh'];

/** ssh options after which no command and no shell runs: tunnels, stdio forwarding, control, config printing. */
const NO_SESSION = new Set(['-N', '-W', '-O', '-G', '-V', '-Q']);

/**
 * A remote-login client that runs a command or opens a shell on another host: `ssh h CMD`,
 * `ssh h` (an interactive login is a shell there, fed by the agent's stdin), `rsh h CMD`, `mosh h`.
 * Tunnels (`ssh -N -L …`, `ssh -W`), control and config queries (`-O`, `-G`, `-V`) run nothing, and
 * `ssh git@host` with no command is a git host's greeting, not a shell.
 */
function loginSession(s: Subject): boolean {
  if (!LOGIN_CLIENTS.includes(s.cmd.program ?? '')) return false;
  const parsed = s.parsed;
  if (parsed.options.some((o) => NO_SESSION.has(o.name))) return false;
  const [host, ...command] = parsed.operands;
  if (host === undefined) return false;
  return command.length > 0 || !/^git@/.test(host.value);
}

/** Ansible modules that run a command line or a script on the hosts. */
const ANSIBLE_EXEC_MODULES = /^(ansible\.(builtin|windows|legacy)\.)?(shell|command|raw|script|expect|win_shell|win_command|psexec)$/;

/**
 * An ansible ad-hoc call that runs a command on its hosts: `-m shell|command|raw|script -a …`, or
 * `-a …` alone (the default module is `command`). Other modules (ping, setup, copy) manage state
 * through a declared interface and do not match.
 */
function ansibleCommand(s: Subject): boolean {
  if (s.cmd.program !== 'ansible') return false;
  const opts = s.parsed.options;
  const module = opts.find((o) => o.name === '-m' || o.name === '--module-name')?.value;
  if (module === undefined || module === null) return opts.some((o) => o.name === '-a' || o.name === '--args');
  return module.dynamic || ANSIBLE_EXEC_MODULES.test(module.value);
}

/** Docker contexts that name the local engine (Docker Desktop, colima, OrbStack, rootless). */
const LOCAL_CONTEXTS = /^(default|desktop-linux|desktop-windows|colima(-.*)?|orbstack|rootless|podman-machine-default)$/;

/** `docker --context NAME` (or `-c NAME`) with a context that is not a local engine. */
function remoteDockerContext(s: Subject): boolean {
  if (!CONTAINER_CLIS.includes(s.cmd.program ?? '')) return false;
  const words = s.cmd.args.map((a) => a.value);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === 'context' && i === 0) return false;
    const value = w === '--context' || w === '-c' ? words[i + 1] : /^--context=(.*)$/.exec(w)?.[1];
    if (value !== undefined) return !LOCAL_CONTEXTS.test(value);
    if (!w.startsWith('-')) return false;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// A remote container engine

const CONTAINER_CLIS = ['docker', 'podman', 'nerdctl'];

/** docker/podman pointed at another machine's daemon (`-H tcp://…`, `DOCKER_HOST=tcp://…`). */
function remoteDockerHost(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null || !CONTAINER_CLIS.includes(p)) return false;
  const env = s.cmd.assignments.find((a) => a.name === 'DOCKER_HOST' || a.name === 'CONTAINER_HOST');
  if (env?.value && /^(tcp|ssh|https?):\/\//i.test(env.value)) return true;
  const words = s.cmd.args.map((a) => a.value);
  return words.some(
    (w, i) =>
      ((w === '-H' || w === '--host' || w === '--url') && /^(tcp|ssh|https?):\/\//i.test(words[i + 1] ?? '')) ||
      /^(--host|--url|-H)=?(tcp|ssh|https?):\/\//i.test(w),
  );
}

/** A container that owns its host: --privileged, the host's / mounted, the host's pid namespace. */
function hostTakeoverContainer(s: Subject): boolean {
  const words = s.cmd.args.map((a) => a.value);
  if (!words.some((w) => ['run', 'create', 'exec'].includes(w))) return false;
  return words.some(
    (w, i) =>
      w === '--privileged' ||
      /^--pid=host$|^--cap-add=(SYS_ADMIN|ALL)$/i.test(w) ||
      ((w === '-v' || w === '--volume' || w === '--mount') && /^\/(:|$)|^type=bind,(source|src)=\/(,|$)/.test(words[i + 1] ?? '')) ||
      /^(-v|--volume=)\/:/.test(w) ||
      w === 'chroot' ||
      w === 'nsenter',
  );
}

// ---------------------------------------------------------------------------------------------
// Services that run commands they are sent

const API_CLIENTS = ['curl', 'wget', 'http', 'xh'];
const SQL_CLIENTS = ['mysql', 'mariadb', 'psql', 'sqlcmd', 'mssql-cli', 'mysqlsh', 'cockroach', 'clickhouse-client'];
const SERVICE_CLIENTS = [...API_CLIENTS, 'redis-cli', ...SQL_CLIENTS];

/**
 * Commands executed through a service API rather than a shell: an exposed Docker API asked to
 * create or exec a container, Jenkins' script console, redis `CONFIG SET dir` aimed at
 * ~/.ssh/cron/web roots, SQL `COPY … TO PROGRAM`, `sys_exec`, `xp_cmdshell`.
 */
function serviceCommandExec(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null || !SERVICE_CLIENTS.includes(p)) return false;
  const words = s.cmd.args.map((a) => a.value);
  const text = words.join(' ');
  if (API_CLIENTS.includes(p)) {
    if (/:237[56]\/(v[\d.]+\/)?(containers\/(create|[^/\s]+\/exec)|exec\/[^/\s]+\/start)/.test(text)) return true;
    if (/\/(script|scriptText)(\?|\s|$)/.test(text) && /\.execute\(\)|Runtime\.getRuntime|ProcessBuilder/.test(text)) return true;
    return false;
  }
  if (p === 'redis-cli') {
    const up = words.map((w) => w.toLowerCase());
    const i = up.indexOf('config');
    return (
      i >= 0 &&
      up[i + 1] === 'set' &&
      (up[i + 2] === 'dir' || up[i + 2] === 'dbfilename') &&
      /\.ssh|cron|\/etc\b|\/var\/www|\/root|authorized_keys|\.bashrc/i.test(words.slice(i + 3).join(' '))
    );
  }
  if (SQL_CLIENTS.includes(p)) {
    return /\bsys_(exec|eval)\s*\(|\bCOPY\b[\s\S]*\b(TO|FROM)\s+PROGRAM\b|\bxp_cmdshell\b|\blo_export\s*\(|\bINTO\s+(OUT|DUMP)FILE\s+['"]\/(var\/www|etc|root|home)/i.test(
      text,
    );
  }
  return false;
}

/** wmic against another node creating a process (`wmic /node:h process call create …`). */
function wmicRemoteCreate(s: Subject): boolean {
  if (s.cmd.program !== 'wmic' && s.cmd.program !== 'wmic.exe') return false;
  const text = s.cmd.args.map((a) => a.value).join(' ');
  return /\/node:/i.test(text) && /\bprocess\s+call\s+create\b/i.test(text);
}

/**
 * scp/rsync onto a remote account database or boot/binary directory: `scp passwd root@h:/etc/passwd`,
 * `scp vmlinuz u@h:/boot/`, `scp script root@h:/bin/`. Replacing those breaks logins, boot or
 * every command on that host.
 */
function overwritesRemoteSystem(s: Subject): boolean {
  const p = s.cmd.program;
  if (p !== 'scp' && p !== 'rsync' && p !== 'sftp') return false;
  const operands = s.parsed.operands.map((a) => a.value);
  if (operands.length < 2) return false;
  const dest = operands[operands.length - 1];
  const m = /^(?:[^@/\s]+@)?[^:/\s]+:(.*)$/.exec(dest);
  if (!m) return false;
  return /^\/etc\/(passwd|shadow|group|gshadow|sudoers)$|^\/(boot|bin|sbin|usr\/bin|usr\/sbin)(\/|$)/.test(m[1]);
}

export const remoteExecPredicates: Record<string, Predicate> = {
  'remote-exec/destructive-remote': destructiveRemote,
  'remote-exec/destructive-payload': forPrograms(Object.keys(LAUNCHERS), destructivePayload),
  'remote-exec/transport-hijack': forPrograms(TRANSPORT_USERS, transportHijack),
  'remote-exec/remote-docker-host': forPrograms(CONTAINER_CLIS, remoteDockerHost),
  'remote-exec/remote-docker-context': forPrograms(CONTAINER_CLIS, remoteDockerContext),
  'remote-exec/login-session': forPrograms(LOGIN_CLIENTS, loginSession),
  'remote-exec/ansible-command': forPrograms(['ansible'], ansibleCommand),
  'remote-exec/host-takeover-container': hostTakeoverContainer,
  'remote-exec/service-command-exec': forPrograms(SERVICE_CLIENTS, serviceCommandExec),
  'remote-exec/wmic-remote-create': forPrograms(['wmic', 'wmic.exe'], wmicRemoteCreate),
  'remote-exec/overwrites-remote-system': forPrograms(['scp', 'rsync', 'sftp'], overwritesRemoteSystem),
};
