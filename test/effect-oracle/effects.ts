/**
 * From strace's log (`-ff -y`, one list of lines per process) to the effects that go beyond a read
 * inside the workspace. The rule is the issue's: every effect beyond a read inside the workspace
 * is a violation. Allowed around it, and only that:
 *  - reads of what a program needs to start and run: its binary, libraries, locale, /etc (but not
 *    the files that hold secrets), /proc and /sys (of the command's own pid namespace);
 *  - writes to the devices that go nowhere or back to the caller (/dev/null, the tty, the
 *    command's own stdout/stderr through /proc/self/fd or /dev/std*);
 *  - connects to nscd's socket (a name-service lookup that reads /etc's databases, nothing more);
 *  - netlink (the kernel's own interface list, read-only as the flag tables show no write here).
 * Attempts count, not only successes: a write refused by the read-only sandbox would succeed on
 * the user's machine. Reads count only when they succeed (a failed open read nothing).
 */
import { basename, isAbsolute, join, normalize } from 'node:path';

export type EffectKind =
  | 'write' // an open for writing, a create, an unlink, a rename, a mkdir, a chmod…
  | 'network' // connect/bind/sendto on an inet socket, or a unix socket other than nscd's
  | 'exec-workspace' // a program inside the workspace or the fake home ran
  | 'exec-interpreter' // a shell or an interpreter ran that the command line does not name
  | 'read-home' // a file under the fake home was read
  | 'read-secret' // a secret file inside the workspace was read (.env, keys)
  | 'read-outside'; // a file outside the workspace and the system's read-only areas was read

export interface Effect {
  kind: EffectKind;
  /** The path, address or program; `syscall` tells where it came from. */
  target: string;
  syscall: string;
}

export interface TraceContext {
  ws: string;
  home: string;
  /** The command line as given (to tell an interpreter it names from one it does not). */
  command: string;
}

/** System calls that change the filesystem: each one is an effect beyond a read. */
export const WRITE_SYSCALLS = new Set([
  'creat',
  'unlink',
  'unlinkat',
  'rename',
  'renameat',
  'renameat2',
  'mkdir',
  'mkdirat',
  'rmdir',
  'link',
  'linkat',
  'symlink',
  'symlinkat',
  'chmod',
  'fchmodat',
  'chown',
  'lchown',
  'fchownat',
  'truncate',
  'utimensat',
  'utimes',
  'utime',
  'futimesat',
  'mknod',
  'mknodat',
  'setxattr',
  'lsetxattr',
]);
export const OPENS = new Set(['open', 'openat', 'openat2']);
export const EXECS = new Set(['execve', 'execveat']);
export const NET = new Set(['connect', 'bind', 'sendto', 'sendmsg']);

/** Shells and interpreters: running one means running code that is text somewhere. */
const INTERPRETER =
  /^(sh|bash|dash|zsh|ksh|mksh|ash|busybox|fish|csh|tcsh|python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|perl[0-9.]*|ruby[0-9.]*|irb|php[0-9.]*|lua[0-9.]*|luajit|tclsh[0-9.]*|wish|expect|Rscript|R|java|jshell|osascript|pwsh|powershell|guile|racket|sbcl|ghci|runghc|julia|gdb|vim|nvim|vi|emacs|awk|gawk|mawk|nawk|busybox)$/;

/** Devices and fds a write to goes nowhere, or back to whoever holds the command's output. */
const HARMLESS_WRITE = /^(\/dev\/(null|zero|full|tty|stdout|stderr|fd\/[0-9]+)|\/proc\/self\/fd\/[0-9]+|\/proc\/[0-9]+\/fd\/[0-9]+|pipe:\[[0-9]+\])$/;

/** System areas a program reads to start and run. */
const SYSTEM_READ =
  /^\/(usr|lib|lib32|lib64|libx32|bin|sbin|etc|proc|sys|opt)(\/|$)|^\/var\/(lib|cache)(\/|$)|^\/(var\/)?run(\/utmp)?$|^\/dev\/(null|zero|full|random|urandom|tty)$|^\/dev(\/pts)?$|^\/$/;
/** …except the files in them that hold secrets. */
const SYSTEM_SECRET =
  /^\/etc\/(shadow|gshadow|sudoers|security\/opasswd|ssl\/private|ssh\/ssh_host_[^/]*_key$)|^\/proc\/[^/]+\/environ$|^\/var\/lib\/(sudo|polkit|docker|containerd|kubelet)(\/|$)/;
/** Secret files inside the workspace (the fixture's .env, keys, and links to keys). */
const WORKSPACE_SECRET = /(^|\/)(\.env(\.[^/]*)?|[^/]*\.(pem|key|p12|pfx)|id_(rsa|dsa|ecdsa|ed25519)[^/]*|credentials|\.netrc|\.git-credentials)$/;

/**
 * O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND in strace's flag list. An O_TMPFILE file has no name
 * and is gone when closed; giving it one takes a linkat, which is traced.
 */
const WRITE_FLAGS = /\bO_(WRONLY|RDWR|CREAT|TRUNC|APPEND)\b/;
const TMPFILE = /\bO_TMPFILE\b/;
/**
 * mkstemp's open: a new file (O_EXCL: never an existing one, never through a link) that only its
 * owner can open. Made directly in shared temp and unlinked by the same command (`tac` and `sort`
 * spill there), it is the command's private scratch space and leaves nothing behind.
 */
const PRIVATE_CREATE = { test: (args: string) => /\bO_CREAT\b/.test(args) && /\bO_EXCL\b/.test(args) && /, 0?[0-7]00$/.test(args) };
const SHARED_TEMP_FILE = /^\/(var\/)?tmp\/[^/]+$/;

/** A C string as strace prints it: "…" with \\, \", \n, \t, \NNN and \xNN escapes. */
function unquote(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ n: '\n', t: '\t', r: '\r', v: '\v', f: '\f', a: '\x07', b: '\b' } as Record<string, string>)[e] ?? e;
  });
}

/** The quoted strings among a call's arguments, in order (`"…"` with escapes; `...` after a cut is dropped). */
function strings(args: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(args); m; m = re.exec(args)) out.push(unquote(m[1]));
  return out;
}

/** `AT_FDCWD</dir>` or `3</dir>`: the directory a relative path is resolved against. */
function dirOf(args: string): string | null {
  const m = /^(?:AT_FDCWD|[0-9]+)<((?:[^>\\]|\\.)*)>/.exec(args);
  return m ? unquote(m[1]) : null;
}

/** The fd annotation of a successful return: `= 3</resolved/path>`. */
function returned(ret: string): string | null {
  const m = /^[0-9]+<((?:[^>\\]|\\.)*)>/.exec(ret);
  return m ? unquote(m[1]) : null;
}

/** A write that goes nowhere, back to the caller, or into the command's own process settings. */
function harmlessWrite(p: string, own: Set<string>): boolean {
  if (HARMLESS_WRITE.test(p)) return true;
  const m = /^\/proc\/(self|thread-self|[0-9]+)\/([a-z_]+|task\/[0-9]+\/[a-z_]+)$/.exec(p);
  return !!m && (m[1] === 'self' || m[1] === 'thread-self' || own.has(m[1])) && !/(^|\/)(mem|environ)$/.test(m[2]);
}

const under = (p: string, dir: string) => p === dir || p.startsWith(dir + '/');

function absolute(p: string, dir: string | null, cwd: string): string {
  return normalize(isAbsolute(p) ? p : join(dir ?? cwd, p));
}

/**
 * `node /usr/bin/npm ls`: an interpreter that `#!/usr/bin/env node` started for a program
 * installed in the system's read-only areas (its first operand is that program): the program was
 * named, not code from the workspace.
 */
function installedScript(argv: string[]): boolean {
  const operand = argv.find((a) => !a.startsWith('-'));
  return operand !== undefined && /^\/(usr|bin|sbin|lib|lib64|opt)\//.test(operand) && !operand.startsWith('/usr/local/');
}

/**
 * `watch -n 1 date` runs `sh -c date`: code the command line itself carries (and shellgate
 * analysed), not code from the repository. Only `-c CODE` whose CODE is text of the command line.
 */
function codeFromCommandLine(argv: string[], command: string): boolean {
  const i = argv.indexOf('-c');
  const code = i >= 0 ? argv[i + 1]?.trim() : undefined;
  // watch joins its words after bash removed their quoting: `watch ps -p \`pgrep x\`` runs `ps -p `pgrep x``
  return !!code && (command.includes(code) || command.replace(/\\(.)/g, '$1').includes(code));
}

/** `execve("/bin/bash", ["/bin/bash", "-c", "--", COMMAND], …)`: how the sandbox starts every command. */
function sandboxShell(ss: string[], command: string): boolean {
  return ss.length === 5 && ss[0] === '/bin/bash' && ss[1] === '/bin/bash' && ss[2] === '-c' && ss[3] === '--' && ss[4] === command;
}

/** A word of the command line (so `sh` in `find -name '*.sh'` counts as named: we only ask "could it have been meant?"). */
function named(command: string, program: string): boolean {
  const base = program.replace(/[0-9.]+$/, '');
  const re = new RegExp(`(^|[^A-Za-z0-9_-])${base.replace(/[.+]/g, '\\$&')}[0-9.]*($|[^A-Za-z0-9_-])`);
  return re.test(command);
}

const LINE = /^(?:\[pid +\d+\] )?([a-z0-9_]+)\((.*)\) += (.*)$/;

/** Every effect of one command, deduplicated, in order of first appearance. */
export function effectsOf(processes: { pid: number; lines: string[] }[], ctx: TraceContext): Effect[] {
  const out = new Map<string, Effect>();
  const add = (e: Effect) => {
    const k = `${e.kind}\0${e.target}`;
    if (!out.has(k)) out.set(k, e);
  };
  let first = true;
  // The sandbox's own `bash -c COMMAND` is the first process: its pid is the lowest in the
  // command's fresh pid namespace. strace's per-process files come in name order (`t.10` before
  // `t.9`), so order them by pid, or a child's exec would be taken for the sandbox's and skipped.
  processes = [...processes].sort((a, b) => a.pid - b.pid);
  // the command's own processes (in the sandbox's pid namespace): their /proc entries are theirs to set
  const own = new Set(processes.map((p) => String(p.pid)));
  const scratch = new Set<string>();
  const removed = new Set<string>();
  for (const proc of processes) {
    for (const line of proc.lines) {
      const m = LINE.exec(line);
      if (!m) continue;
      const [, call, args, ret] = m;
      const ok = !ret.startsWith('-1');
      if (EXECS.has(call)) {
        // the first exec is the sandbox's own `bash -c COMMAND`
        if (first && ok) {
          first = false;
          continue;
        }
        if (!ok) continue;
        // …and so is an exec with exactly its argv: a full run once showed it again in a later
        // process (not reproduced alone); it runs nothing the line does not say
        if (sandboxShell(strings(args), ctx.command)) continue;
        const [path] = strings(call === 'execveat' ? args.replace(/^[^,]*,\s*/, '') : args);
        if (path === undefined) continue;
        const abs = absolute(path, dirOf(args), ctx.ws);
        if (under(abs, ctx.ws) || under(abs, ctx.home)) add({ kind: 'exec-workspace', target: abs, syscall: call });
        const prog = basename(abs);
        const argv = strings(args).slice(2);
        if (INTERPRETER.test(prog) && !named(ctx.command, prog) && !installedScript(argv) && !codeFromCommandLine(argv, ctx.command)) {
          add({ kind: 'exec-interpreter', target: prog, syscall: call });
        }
        continue;
      }
      if (OPENS.has(call) || call === 'creat') {
        const [path] = strings(args);
        if (path === undefined) continue;
        const dir = call === 'open' || call === 'creat' ? null : dirOf(args);
        const abs = returned(ret) ?? absolute(path, dir, ctx.ws);
        const writing = call === 'creat' || WRITE_FLAGS.test(args);
        if (writing) {
          // a file that is not there, opened without O_CREAT, was not written and could not be
          // (`sync FILE` tries O_WRONLY when O_RDONLY failed); a refused write (EROFS, EACCES) counts
          if (!ok && /\bENOENT\b/.test(ret) && !/\bO_CREAT\b/.test(args)) continue;
          if (ok && PRIVATE_CREATE.test(args) && SHARED_TEMP_FILE.test(abs)) scratch.add(abs);
          if (!TMPFILE.test(args) && !harmlessWrite(abs, own) && !harmlessWrite(path, own)) add({ kind: 'write', target: abs, syscall: call });
          continue;
        }
        if (!ok) continue;
        classifyRead(abs, ctx, call, add);
        continue;
      }
      if (WRITE_SYSCALLS.has(call)) {
        const ss = strings(args);
        const dir = dirOf(args);
        // symlink(TARGET, LINK): the link is what is written; the others write every path they name
        const written = call === 'symlink' || call === 'symlinkat' ? ss.slice(1) : ss;
        if (written.length === 0 && dir) written.push(dir); // utimensat(fd<path>, NULL, …)
        for (const p of written) {
          const abs = absolute(p, dir, ctx.ws);
          if (ok && (call === 'unlink' || call === 'unlinkat')) removed.add(abs);
          if (!harmlessWrite(abs, own)) add({ kind: 'write', target: abs, syscall: call });
        }
        continue;
      }
      if (NET.has(call)) {
        const fam = /sa_family=(AF_[A-Z0-9]+)/.exec(args)?.[1];
        if (fam === 'AF_NETLINK') continue;
        if (fam === 'AF_UNIX') {
          const path = /sun_path=(@?)"((?:[^"\\]|\\.)*)"/.exec(args);
          const p = path ? (path[1] ? '@' : '') + unquote(path[2]) : '(unnamed)';
          if (/^\/(var\/)?run\/nscd\/socket$/.test(p)) continue;
          add({ kind: 'network', target: `unix:${p}`, syscall: call });
          continue;
        }
        if (fam) {
          // connect() or bind() to port 0 sends nothing and listens nowhere known: glibc's
          // AI_ADDRCONFIG probe, Python's has_ipv6 check (bind to ::1, port 0, then close)
          if ((call === 'connect' || call === 'bind') && /sin6?_port=htons\(0\)/.test(args)) continue;
          add({ kind: 'network', target: `${fam}:${args.replace(/^[^,]*,\s*/, '').slice(0, 120)}`, syscall: call });
          continue;
        }
        // sendto/sendmsg on a connected socket: the fd tells what it is
        const fd = /^\d+<([A-Z0-9]+):/.exec(args)?.[1];
        if (fd && /^(TCP|UDP|TCPv6|UDPv6|RAW|PACKET)/.test(fd)) add({ kind: 'network', target: fd, syscall: call });
      }
    }
  }
  // a scratch file the command made for itself and removed again left nothing behind
  return [...out.values()].filter((e) => !(e.kind === 'write' && scratch.has(e.target) && removed.has(e.target)));
}

function classifyRead(abs: string, ctx: TraceContext, call: string, add: (e: Effect) => void): void {
  // a process substitution or an inherited pipe, read through /dev/fd: not a file
  if (/^(pipe|socket|anon_inode):/.test(abs)) return;
  if (under(abs, ctx.home)) return add({ kind: 'read-home', target: abs, syscall: call });
  if (under(abs, ctx.ws)) {
    if (WORKSPACE_SECRET.test(abs.slice(ctx.ws.length))) add({ kind: 'read-secret', target: abs, syscall: call });
    return;
  }
  if (SYSTEM_READ.test(abs) && !SYSTEM_SECRET.test(abs)) return;
  add({ kind: 'read-outside', target: abs, syscall: call });
}
