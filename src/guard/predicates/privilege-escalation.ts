/** Named predicates for the privilege-escalation rules (rules/builtin/privilege-escalation.json). */
import type { Subject } from '../subject.js';
import { forPrograms, requires, type Predicate } from './programs.js';
import { registry } from '../../programs/registry.js';

const SHELLS = registry.tagged('shell');
/** Programs that switch user or group (chroot, root-only but no switch, is not one). */
const PRIV_TOOLS = registry.tagged('privilege');
/** Wrappers that only pass the command on (do not count as "another program spawned the shell"). */
const TRANSPARENT = new Set(['env', 'command', 'exec', 'builtin', 'time', 'nice', 'ionice']);

/** A shell that reads its commands from the terminal: no script, no -c, nothing piped or fed in. */
function interactiveShell(s: Subject): boolean {
  if (s.cmd.program === null || !SHELLS.has(s.cmd.program) || !s.cmd.execsStdin) return false;
  const p = s.cmd.context.pipeline;
  if (p !== null && p.index > 0) return false;
  return !s.cmd.redirects.some((r) => r.input !== null || (r.op === '<' && r.path !== null && r.path.value !== '/dev/tty'));
}

/** An interactive shell started by a program that is not a shell, a privilege tool or a transparent wrapper. */
function shellFromInsideProgram(s: Subject): boolean {
  if (!interactiveShell(s)) return false;
  return s.ancestors().some((a) => {
    const p = a.cmd.program;
    return p !== null && !SHELLS.has(p) && !PRIV_TOOLS.has(p) && !TRANSPARENT.has(p);
  });
}

/**
 * A root shell opened from inside another program run with sudo/doas (`sudo find . -exec /bin/sh \;`,
 * `sudo watch 'exec /bin/sh'`, `sudo xargs -a /dev/null sh`): the GTFOBins escape from a command a
 * sudoers rule allowed. `sudo bash`, `sudo -s` and `sudo env X=1 bash` are not this (no program in between).
 */
function privilegedSpawnedShell(s: Subject): boolean {
  return s.cmd.context.privileged && shellFromInsideProgram(s);
}

/**
 * The same escape without sudo (`awk 'BEGIN {system("/bin/sh")}'`, `find . -exec /bin/sh \;`,
 * `vim -c '!sh'`): a shell opened from inside a program that was allowed to run, which is how a
 * restricted shell or a command allow-list is escaped. With sudo it is the deny above.
 */
function spawnedShell(s: Subject): boolean {
  return !s.cmd.context.privileged && shellFromInsideProgram(s);
}

/** A privileged shell reached through two privilege tools where the inner one is not a plain `su`/`su -` login (`sudo su -c /bin/sh`, `sudo doas sh`, `sudo pkexec /bin/sh`). */
function doubleElevationShell(s: Subject): boolean {
  if (!interactiveShell(s) && !(s.cmd.program !== null && SHELLS.has(s.cmd.program) && s.cmd.args.some((a) => a.value === '-p'))) return false;
  const tools = s.ancestors().filter((a) => a.cmd.program !== null && PRIV_TOOLS.has(a.cmd.program));
  return tools.length >= 2;
}

/** Every shell's name, longest first, as a regex alternation. */
const SHELL_NAMES = [...SHELLS]
  .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
  .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  .join('|');
/** Shell named as something to run: `/bin/sh`, `/usr/bin/bash -i`, `'!sh'`, `:shell`, `exec sh`. */
const SHELL_PATH = new RegExp(`(^|[^\\w./-]|^-[a-zA-Z])\\/(usr\\/)?(local\\/)?bin\\/(${SHELL_NAMES})(?![\\w.-])`);
const SHELL_ESCAPE = /(^|[\s'"(;{])(:?!\s*(\/\S*\/)?(ba|da|z)?sh\b|:sh(ell)?\b|:term(inal)?\b|\bexec\s+(ba|z|da)?sh\b|\bspawn\s+(ba|z|da)?sh\b)/;
const WHOLE_SHELL_PATH = new RegExp(`^\\/(usr\\/)?(local\\/)?bin\\/(${SHELL_NAMES})$`);

/** Programs that take a shell path as data (login shell, link target, file to inspect), or run it inside a container. */
// Laid out by hand: one group of related names a line.
// prettier-ignore
const DATA_PROGRAMS = new Set([
  'useradd', 'usermod', 'adduser', 'chsh', 'lchsh', 'ln', 'cp', 'mv', 'install', 'update-alternatives', 'tee', 'ls', 'stat', 'file', 'cat', 'less',
  'more', 'head', 'tail', 'readlink', 'realpath', 'which', 'whereis', 'type', 'dpkg', 'dpkg-query', 'dpkg-divert', 'chmod', 'chown', 'chgrp', 'diff',
  'cmp', 'strings', 'sha256sum', 'sha1sum', 'md5sum', 'grep', 'setcap', 'getcap', 'ldd', 'objdump', 'nm', 'readelf', 'echo', 'printf', 'test', '[',
  'namei', 'lsattr', 'chattr', 'hexdump', 'xxd', 'od', 'rm', 'touch', 'docker', 'podman', 'nerdctl', 'kubectl', 'lxc', 'systemd-nspawn', 'vagrant',
  'chroot', 'schroot', 'rsync', 'scp', 'tar', 'gzip', 'debugfs', 'aa-exec', 'apparmor_parser', 'sed', 'awk', 'strace', 'ltrace', 'perf',
]);

/** Text a privileged command will run: its arguments, inline program text, and `NAME=value` settings given to its sudo/env wrapper. */
function runnableText(s: Subject): string[] {
  const out = s.cmd.args.map((a) => a.value);
  for (const a of s.cmd.assignments) if (a.value !== null) out.push(a.value);
  for (const anc of s.ancestors()) {
    if (anc.cmd.program === 'sudo' || anc.cmd.program === 'env' || anc.cmd.program === 'doas') {
      for (const a of anc.cmd.args) {
        const m = /^[A-Z_][A-Z0-9_]*=(.*)$/s.exec(a.value);
        if (m) out.push(m[1]);
      }
    }
  }
  return out;
}

/**
 * A program run with raised privileges is told to start a shell: `sudo vim -c '!sh'`,
 * `sudo awk 'BEGIN{system("/bin/sh")}'`, `sudo tar … --checkpoint-action=exec=/bin/sh`,
 * `sudo PAGER='/bin/sh -c …' git -p help`, `sudo scrot -e /bin/sh`. A bare shell path given to a
 * program that treats it as data (`sudo useradd -s /bin/bash u`, `sudo ln -s /bin/bash /bin/sh`) is not.
 */
function privilegedShellInArgs(s: Subject): boolean {
  const p = s.cmd.program;
  if (!s.cmd.context.privileged || p === null || SHELLS.has(p) || PRIV_TOOLS.has(p) || TRANSPARENT.has(p)) return false;
  const dataProgram = DATA_PROGRAMS.has(p);
  return runnableText(s).some((t) => {
    if (SHELL_ESCAPE.test(t)) return !dataProgram || !['sed', 'awk', 'grep', 'echo', 'printf', 'tee', 'cat'].includes(p);
    if (!SHELL_PATH.test(t)) return false;
    if (!dataProgram) return true;
    // Data programs: only a shell path embedded in a command string (`--checkpoint-action=exec=/bin/sh`), never a bare operand.
    return (
      !WHOLE_SHELL_PATH.test(t) &&
      /(exec|system|-c\b|=\s*\/|;|\|)/.test(t) &&
      !['echo', 'printf', 'tee', 'cat', 'grep', 'sed', 'chsh', 'usermod', 'useradd', 'adduser'].includes(p)
    );
  });
}

/** `sudo -u#-1 …` / `sudo -u '#4294967295' …`: CVE-2019-14287, a uid that sudo maps to root. */
function sudoUidBypass(s: Subject): boolean {
  if (s.cmd.program !== 'sudo') return false;
  const args = s.cmd.args.map((a) => a.value);
  return args.some((a, i) => /^(-u|--user=)#(-1|4294967295)$/.test(a) || (/^(-u|--user)$/.test(a) && /^#(-1|4294967295)$/.test(args[i + 1] ?? '')));
}

const ACCOUNT_TOOLS = ['useradd', 'usermod', 'adduser', 'pw'];

/** `useradd -o -u 0`, `useradd -ou 0`, `usermod -u 0 -o x`: a second account with uid 0. */
function uidZeroAccount(s: Subject): boolean {
  if (!ACCOUNT_TOOLS.includes(s.cmd.program ?? '')) return false;
  const args = s.cmd.args.map((a) => a.value);
  const joined = ' ' + args.join(' ') + ' ';
  const uid0 = /\s(-[a-zA-Z]*u\s*0|--uid[= ]0)\s/.test(joined);
  const nonUnique = /\s(-[a-zA-Z]*o[a-zA-Z]*|--non-unique)\s/.test(joined);
  return uid0 && (nonUnique || s.cmd.program === 'adduser');
}

/** The programs groupsJoined reads. */
const GROUP_TOOLS = ['usermod', 'useradd', 'gpasswd', 'adduser', 'addgroup', 'dseditgroup', 'dscl', 'pw', 'sysadminctl'];

/** Group names given to `usermod -G/-aG/-g`, `gpasswd -a USER GROUP`, `adduser USER GROUP`, `addgroup USER GROUP`. */
function groupsJoined(s: Subject): string[] {
  const p = s.cmd.program;
  if (p === null || !GROUP_TOOLS.includes(p)) return [];
  const args = s.cmd.args.map((a) => a.value);
  const out = p === 'usermod' || p === 'useradd' ? shadowToolGroups(args) : otherToolGroups(p, args);
  // A primary group given by number: gid 0 is root's group.
  return out.map((g) => (g === '0' ? 'root' : g));
}

/** shadow-utils' `-G a,b`, `-aG a`, `--groups=a`, and the primary group `-g a` / `--gid a`. */
function shadowToolGroups(args: string[]): string[] {
  const out: string[] = [];
  args.forEach((a, i) => {
    if (/^-[a-zA-Z]*[Gg]$/.test(a) && args[i + 1]) out.push(...args[i + 1].split(','));
    else if (/^--(groups|gid)=/.test(a)) out.push(...a.replace(/^--(groups|gid)=/, '').split(','));
    else if ((a === '--groups' || a === '--gid') && args[i + 1]) out.push(...args[i + 1].split(','));
    else if (/^-[a-zA-Z]*[Gg]./.test(a)) out.push(...a.replace(/^-[a-zA-Z]*[Gg]/, '').split(','));
  });
  return out;
}

/**
 * gpasswd, Debian's adduser/addgroup, macOS dseditgroup, dscl and sysadminctl, FreeBSD pw: each
 * names the group its own way (`dseditgroup -o edit -a bob -t user admin`,
 * `dscl . -append /Groups/admin GroupMembership bob`, `sysadminctl -addUser bob -admin`,
 * `pw groupmod wheel -m bob`, `pw useradd bob -G wheel`).
 */
function otherToolGroups(p: string, args: string[]): string[] {
  const operands = args.filter((a) => !a.startsWith('-'));
  if (p === 'gpasswd') {
    const i = args.findIndex((a) => a === '-a' || a === '--add' || a === '-M' || a === '--members');
    return i >= 0 && args.length >= i + 3 ? [args[args.length - 1]] : [];
  }
  if (p === 'adduser' || p === 'addgroup') return operands.length === 2 ? [operands[1]] : [];
  if (p === 'dseditgroup') return args.includes('-a') && args.includes('edit') && operands.length > 0 ? [operands[operands.length - 1]] : [];
  if (p === 'dscl') {
    const group = args.find((a) => /^\/Groups\/[^/]+$/.test(a));
    const adds = args.some((a) => a === '-append' || a === '-merge' || a === '-create');
    return group && adds && args.some((a) => /^GroupMembership$|^GroupMembers$/.test(a)) ? [group.slice(8)] : [];
  }
  if (p === 'sysadminctl') return args.includes('-addUser') && args.includes('-admin') ? ['admin'] : [];
  // pw: `groupmod GROUP -m USER`, `useradd|usermod USER -g|-G GROUP`.
  if (operands[0] === 'groupmod' && args.some((a) => a === '-m' || a === '-M')) return operands[1] ? [operands[1]] : [];
  if (operands[0] === 'useradd' || operands[0] === 'usermod' || (operands[0] === 'user' && /^(add|mod)$/.test(operands[1] ?? ''))) {
    return shadowToolGroups(args);
  }
  return [];
}

/** Joins a group that is root in all but name: root, wheel, shadow, disk, kmem. */
function joinsRootGroup(s: Subject): boolean {
  return groupsJoined(s).some((g) => ['root', 'wheel', 'shadow', 'disk', 'kmem'].includes(g));
}

/** Joins a group that grants administrative or root-equivalent rights: sudo, admin, docker, lxd, libvirt, adm. */
function joinsAdminGroup(s: Subject): boolean {
  return groupsJoined(s).some((g) => ['sudo', 'admin', 'docker', 'lxd', 'lxc', 'libvirt', 'adm', 'systemd-journal'].includes(g));
}

const LOADER_ENV = /^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|PYTHONPATH|PERL5LIB|PERL5OPT|RUBYLIB|NODE_OPTIONS|BASH_ENV)=/;

/** A privileged command given a loader/interpreter path variable (`sudo LD_PRELOAD=/tmp/x.so find`). */
function privilegedLoaderEnv(s: Subject): boolean {
  if (s.cmd.program === 'sudo' || s.cmd.program === 'doas') return s.cmd.args.some((a) => LOADER_ENV.test(a.value));
  return s.cmd.context.privileged && s.cmd.assignments.some((a) => LOADER_ENV.test(`${a.name}=`));
}

/** `visudo` whose editor is replaced (`EDITOR='tee -a' visudo`) or that is fed text on stdin: sudoers written unreviewed. */
function scriptedVisudo(s: Subject): boolean {
  if (s.cmd.program !== 'visudo') return false;
  if (s.pipelineNeighbours('before').length > 0) return true;
  // An editor that writes without a person: tee, sed -i, cp, dd, a shell or interpreter one-liner.
  const scripted = (v: string | null) => v !== null && /^\s*(\S*\/)?(tee|sed|cp|dd|cat|sh|bash|dash|zsh|perl|python\d*|ruby|echo|printf|install|mv)\b/.test(v);
  if (s.cmd.assignments.some((a) => /^(SUDO_EDITOR|EDITOR|VISUAL)$/.test(a.name) && scripted(a.value))) return true;
  return s.ancestors().some((a) =>
    a.cmd.args.some((x) => {
      const m = /^(SUDO_EDITOR|EDITOR|VISUAL)=(.*)$/s.exec(x.value);
      return m !== null && scripted(m[2]);
    }),
  );
}

/** chmod modes that set the setuid bit: `u+s`, `+s`, `a+s`, `4755`, `6755`, `04755`. */
function setsSetuid(s: Subject): boolean {
  return modesSet(s).some((m) => /^0?[4-7][0-7]{3}$/.test(m) || /(^|,)([ugoa]*[ua][ugoa]*|)[+=][rwxXt]*s/.test(m));
}

/** chmod modes that set the setgid bit without the setuid one: `g+s`, `2755`, `02775`. */
function setsSetgid(s: Subject): boolean {
  return modesSet(s).some((m) => /^0?[23][0-7]{3}$/.test(m) || /(^|,)[go]*g[go]*[+=][rwxXt]*s/.test(m));
}

/** The modes a command sets: chmod's arguments, install's `-m`. */
function modesSet(s: Subject): string[] {
  if (s.cmd.program === 'chmod') return s.cmd.args.map((a) => a.value);
  if (s.cmd.program === 'install') return modeOption(s);
  return [];
}

function modeOption(s: Subject): string[] {
  const args = s.cmd.args.map((a) => a.value);
  const out: string[] = [];
  args.forEach((a, i) => {
    if ((a === '-m' || a === '--mode') && args[i + 1]) out.push(args[i + 1]);
    else if (a.startsWith('--mode=')) out.push(a.slice(7));
    else if (/^-m\d/.test(a)) out.push(a.slice(2));
  });
  return out;
}

/** chmod modes that let everyone write: `777`, `666`, `0777`, `o+w`, `a+w`, `+w`… */
function worldWritable(s: Subject): boolean {
  if (s.cmd.program !== 'chmod') return false;
  return s.cmd.args.some(
    (a) => /^0?[0-7]?[0-7]{2}[2367]$/.test(a.value) || /(^|,)[ugo]*[oa][ugoa]*[+=][rwxXst]*w/.test(a.value) || /(^|,)[+=][rwxXst]*w/.test(a.value),
  );
}

/** A copy of a shell under another name (`./.bash`, `/tmp/rootsh`). */
const SHELL_COPY = /^\.?[A-Za-z0-9_-]*(bash|zsh|dash|ksh|sh)$/;

/** The shell is started in privileged mode (`bash -p`, `sh -p`), which keeps a setuid euid instead of dropping it. */
function shellPrivilegedMode(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null) return false;
  // A renamed copy run by path (`/tmp/rootbash -p`, `./.sh -p`) counts as a shell too.
  const copy = s.cmd.programPath !== null && SHELL_COPY.test(p) && !/^\/(usr\/)?(local\/)?s?bin\//.test(s.cmd.programPath);
  if (!SHELLS.has(p) && !copy) return false;
  // Only the shell's own options, before the script name (`bash run.sh -p` passes -p to the script).
  for (const a of s.cmd.args) {
    if (!/^[-+]/.test(a.value) || a.value === '--') return false;
    if (/^-[abefhiklmnrstuvxBCEHPTc]*p[abefhiklmnrstuvxBCEHPTc]*$/.test(a.value) && a.value.length <= 6) return true;
  }
  return false;
}

/** `chroot DIR` or `chroot DIR SHELL`: a root shell inside another filesystem tree (the host's, from a container). */
function chrootShell(s: Subject): boolean {
  if (s.cmd.program !== 'chroot') return false;
  const ops = s.cmd.args.filter((a) => !a.value.startsWith('-'));
  if (ops.length === 0) return false;
  // Only the host's tree: `/` itself, or a directory named for the host (`/host`, `/mnt/host`, `/hostfs`).
  // A rescue or build chroot (`chroot /mnt/sysroot`) is left to the usual ask.
  const dir = ops[0].value.replace(/\/+$/, '') || '/';
  if (dir !== '/' && !/(^|\/)host[\w-]*$|(^|\/)[\w-]*host(fs|os|root)?$/i.test(dir)) return false;
  if (ops.length === 1) return true;
  const prog = ops[1].value.replace(/^.*\//, '');
  return SHELLS.has(prog) && ops.length === 2;
}

/** sudo/doas options that take a value (the next word, when not attached). */
const SUDO_VALUE_OPTS = new Set(['u', 'g', 'C', 'D', 'h', 'p', 'r', 't', 'U', 'T', 'R']);

/**
 * `sudo -i`, `sudo -s`, `sudo -iu bob`, `doas -s`, `su`, `su -`, `su - root`, `su -l`: a login or
 * shell through the privilege tool itself. Only the tool's own leading options are read (`sudo find / -iname x`
 * is not `-i`), and su with a command after the user name is not a shell.
 */
function loginShellTool(s: Subject): boolean {
  const p = s.cmd.program;
  if (p !== 'sudo' && p !== 'doas' && p !== 'su') return false;
  const args = s.cmd.args.map((a) => a.value);
  if (p === 'sudo' || p === 'doas') {
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '--') return false;
      if (a === '--login' || a === '--shell') return true;
      if (a.startsWith('--')) {
        if (
          !a.includes('=') &&
          ['--user', '--group', '--close-from', '--chdir', '--host', '--prompt', '--role', '--type', '--other-user', '--command-timeout', '--chroot'].includes(
            a,
          )
        )
          i++;
        continue;
      }
      if (!a.startsWith('-') || a === '-') return false;
      const letters = a.slice(1);
      for (let j = 0; j < letters.length; j++) {
        const c = letters[j];
        if (c === 'i' || c === 's') return true;
        if (SUDO_VALUE_OPTS.has(c)) {
          if (j === letters.length - 1) i++;
          break;
        }
      }
    }
    return false;
  }
  if (p === 'su') {
    if (args.some((a) => /^(-c|--command|--session-command)(=|$)/.test(a) || /^-[a-zA-Z]*c$/.test(a))) return false;
    const operands: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '-s' || a === '--shell' || a === '-g' || a === '--group' || a === '-G') i++;
      else if (a === '-' || !a.startsWith('-')) {
        if (a !== '-') operands.push(a);
      }
    }
    return operands.length <= 1;
  }
  return false;
}

/** What a writing command puts into its file: its own words, text piped into it, heredoc/here-string bodies. */
function writtenText(s: Subject): string {
  const parts = s.cmd.args.map((a) => a.value);
  // A here-string given to `sudo tee …` belongs to the sudo word list, so wrappers' inputs count too.
  for (const c of [s, ...s.ancestors()]) for (const r of c.cmd.redirects) if (r.input !== null) parts.push(r.input);
  for (const b of s.pipelineNeighbours('before')) {
    parts.push(...b.cmd.args.map((a) => a.value));
    for (const r of b.cmd.redirects) if (r.input !== null) parts.push(r.input);
  }
  return parts.join('\n');
}

/**
 * Payloads that hijack every later shell when planted in a startup file: a preloaded library, an
 * alias over sudo/su, a writable directory first in PATH, PROMPT_COMMAND / DEBUG traps, or a
 * download piped into a shell.
 */
const RC_PAYLOAD =
  /(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_INSERT_LIBRARIES|\balias\s+(sudo|su|doas|ssh|passwd)=|PROMPT_COMMAND|\btrap\b.*DEBUG|PATH=["']?(\/tmp|\/dev\/shm|\/var\/tmp|\.|~\/\.[^/:]*\/)[^:]*:|\b(curl|wget|fetch)\b[^|\n]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b|\/dev\/tcp\/|\bnc\b.*-e\s)/;

function rcPayload(s: Subject): boolean {
  if (RC_PAYLOAD.test(writtenText(s))) return true;
  // `cat <(curl …) >> ~/.bashrc`: the file's new content comes from the network.
  return s.feeders().some((f) => f.ops.some((o) => o.kind === 'Network'));
}

/** sshd settings that open remote root or password logins, or add a key source. */
function sshdWeakening(s: Subject): boolean {
  return /(PermitRootLogin|PasswordAuthentication|PermitEmptyPasswords|AuthorizedKeysFile|AuthorizedKeysCommand|ChallengeResponseAuthentication|KbdInteractiveAuthentication)/.test(
    writtenText(s),
  );
}

export const privilegeEscalationPredicates: Record<string, Predicate> = {
  'privilege-escalation/privileged-spawned-shell': forPrograms(SHELLS, privilegedSpawnedShell),
  'privilege-escalation/spawned-shell': forPrograms(SHELLS, spawnedShell),
  'privilege-escalation/double-elevation-shell': forPrograms(SHELLS, doubleElevationShell),
  'privilege-escalation/privileged-shell-in-args': requires([{ features: ['privileged'] }], privilegedShellInArgs),
  'privilege-escalation/sudo-uid-bypass': forPrograms(['sudo'], sudoUidBypass),
  'privilege-escalation/uid-zero-account': forPrograms(ACCOUNT_TOOLS, uidZeroAccount),
  'privilege-escalation/joins-root-group': forPrograms(GROUP_TOOLS, joinsRootGroup),
  'privilege-escalation/joins-admin-group': forPrograms(GROUP_TOOLS, joinsAdminGroup),
  // Not declared: any program run with sudo and LD_PRELOAD=… counts.
  'privilege-escalation/privileged-loader-env': requires([{ programs: ['sudo', 'doas'], features: ['privileged'] }], privilegedLoaderEnv),
  'privilege-escalation/scripted-visudo': forPrograms(['visudo'], scriptedVisudo),
  'privilege-escalation/sets-setuid': forPrograms(['chmod', 'install'], setsSetuid),
  'privilege-escalation/sets-setgid': forPrograms(['chmod', 'install'], setsSetgid),
  'privilege-escalation/world-writable-mode': forPrograms(['chmod'], worldWritable),
  // Not declared: a renamed shell copy (`/tmp/rootbash -p`) is recognised by a pattern.
  'privilege-escalation/shell-privileged-mode': requires(
    [{ program: (p) => SHELLS.has(p) || SHELL_COPY.test(p) }, { features: ['args'] }],
    shellPrivilegedMode,
  ),
  'privilege-escalation/chroot-shell': forPrograms(['chroot'], chrootShell),
  'privilege-escalation/interactive-shell': forPrograms(SHELLS, interactiveShell),
  'privilege-escalation/login-shell-tool': forPrograms(['sudo', 'doas', 'su'], loginShellTool),
  'privilege-escalation/rc-payload': rcPayload,
  'privilege-escalation/sshd-weakening': sshdWeakening,
};
