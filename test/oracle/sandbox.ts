/**
 * Real bash as an oracle: run commands under the real bash inside an isolated root where every
 * other program is a recorder stub, and report which programs bash executed.
 *
 * Isolation, outermost first:
 *  - When the tests run as root, the sandbox runs as an otherwise unused host uid (200000 and up)
 *    so that "root" inside the user namespace is nobody on the host: host files (the sandbox's own
 *    root included) are not writable and /proc/sys, /proc/sysrq-trigger stay out of reach.
 *  - `timeout -s KILL` on the host bounds a whole batch; `unshare -r -m --pid --fork --net` gives
 *    it its own user, mount, pid and network namespaces (no interface but a downed loopback).
 *  - A driver (host bash, inside those namespaces, never running a tested command itself)
 *    bind-mounts the root read-only onto itself, mounts tmpfs on its /.sg (the log), /work, /tmp
 *    and /root, and binds the four harmless character devices (null, zero, random, urandom).
 *    Nothing else of the host is mounted, and nothing read-write. Between commands it empties
 *    /work, /tmp and /root.
 *  - Each command gets `timeout -s KILL` again, a fresh pid namespace whose pid 1 is the chrooted
 *    bash itself (so /proc/1/root is the sandbox root) with its own /proc, then `chroot` into the
 *    root: bash, its libraries, and stubs. No coreutils.
 *  - rlimits: processes (400 for the sandbox uid), address space, file size, open files.
 *
 * A stub is a `#!/bin/bash -p` script (privileged mode: no BASH_ENV, no imported functions or
 * SHELLOPTS) hard-linked under every name in /bin, /usr/bin, /sbin and /usr/sbin; it appends
 * `X, argc+1, basename($0), args…` NUL-separated to /.sg/log and exits 0 without output. An
 * exported `command_not_found_handle` logs `M, argc, name, args…` for names bash looked up and did
 * not find. /bin/sh and /usr/bin/sh are symlinks to the real bash, so `sh -c` really runs — or,
 * with `sh: 'dash'`, to the real dash (as on Debian and Ubuntu). dash has no not-found hook: the
 * names it looked up and did not find are read from its `dash: N: NAME: not found` lines.
 *
 * With `shell: 'zsh'` each command is read by the real zsh instead of bash (`zsh -c`, as an agent on
 * a machine whose login shell is zsh runs it). The root then also holds zsh, its libraries, its
 * modules (so `zmodload zsh/files` loads as on a real machine) and its function library (so
 * `autoload zmv` finds zmv), and a read-only ZDOTDIR whose `.zshenv` only defines
 * `command_not_found_handler`, the zsh counterpart of bash's not-found hook; names zsh looks up
 * without it (`zsh -f`, a handler the command removed) are read from its `zsh:N: command not
 * found: NAME` lines. /work holds a few plain files, so that globs (and their qualifiers) match.
 * zsh/files gives a command rm, chmod, ln… as builtins: the isolation above never rested on the
 * root lacking such programs, only on the mounts and the uid.
 */
import { spawn, execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface ExecRecord {
  /** `exec`: a stub ran; `missing`: bash looked the name up and found nothing (command_not_found_handle). */
  kind: 'exec' | 'missing';
  /** Basename of the program (stub: the file bash executed; missing: the name as bash looked it up). */
  program: string;
  /** Arguments after the program name. */
  args: string[];
}

export interface RunResult {
  command: string;
  /** Exit status of the per-command wrapper (bash's status; 137 after a kill). */
  status: number | null;
  timedOut: boolean;
  records: ExecRecord[];
  /** The log could not be parsed completely (truncated or interleaved); records holds what could. */
  logProblem: string | null;
}

export interface SandboxOptions {
  /** Program names to stub (others are simply not found). `bash` and `sh` are never stubbed. */
  programs: Iterable<string>;
  /** Per-command time limit in seconds (default 2). */
  timeoutSeconds?: number;
  /** Parallel batches (default 2). */
  workers?: number;
  /** The shell `/bin/sh` is (default bash; dash as on Debian and Ubuntu). */
  sh?: 'bash' | 'dash';
  /** The shell that reads each command (default bash; zsh as where zsh is the login shell). */
  shell?: 'bash' | 'zsh';
}

const HOST_BINS = { unshare: 'unshare', timeout: 'timeout', chroot: 'chroot', mount: 'mount' };
const STUB_DIRS = ['bin', 'usr/bin', 'sbin', 'usr/sbin'];
const NEVER_STUB = new Set(['bash', 'sh', 'dash']);
/** Host uids the sandbox runs as when we are root: per process, so concurrent runs do not share RLIMIT_NPROC. */
const MAX_WORKERS = 4;
const SANDBOX_UID_BASE = 200_000 + (process.pid % 100_000) * MAX_WORKERS;

/** A name that can be a file in a bin directory. */
export function stubbable(name: string): boolean {
  if (!name || name.length > 200 || name === '.' || name === '..') return false;
  if (NEVER_STUB.has(name)) return false;
  // no slash, no NUL or other control characters
  return !/[/\u0000-\u001f\u007f]/.test(name);
}

const STUB = `#!/bin/bash -p
# Run as a program (shebang, privileged mode) it records; read as a script (\`sh FILE\`, \`source
# FILE\`) it does what bash does with a binary: refuses.
[[ $- == *p* ]] || { echo "bash: \${BASH_SOURCE[0]}: cannot execute binary file" >&2; return 126 2>/dev/null || exit 126; }
printf '%s\\0' X "$(( $# + 1 ))" "\${0##*/}" "$@" >> /.sg/log 2>/dev/null
exit 0
`;

const NOT_FOUND_FN = `() { printf '%s\\0' M "$#" "$@" >> /.sg/log 2>/dev/null; printf 'bash: %s: command not found\\n' "$1" >&2; return 127; }`;

const DRIVER = `#!/bin/bash
# Runs inside the batch's user, mount, pid and network namespaces; never runs a tested command itself.
# $1 root  $2 out dir  $3 list of command ids  $4 per-command seconds  $5 file with the not-found handler
# $6 process limit for the sandbox's uid
R=$1; OUT=$2; LIST=$3; LIMIT=$4; NF=$(< "$5"); NPROC=$6
set -e
# the whole root read-only (whoever owns its files), then the writable tmpfs on top
mount --bind "$R" "$R"
mount -o remount,bind,ro "$R"
mount -t tmpfs -o size=8m,mode=0755 sg-log "$R/.sg"
mount -t tmpfs -o size=16m,mode=0755 sg-work "$R/work"
mount -t tmpfs -o size=16m,mode=1777 sg-tmp "$R/tmp"
mount -t tmpfs -o size=4m,mode=0700 sg-home "$R/root"
for d in null zero random urandom; do mount --bind "/dev/$d" "$R/dev/$d"; done
CHROOT=$(command -v chroot)
set +e
shopt -s nullglob dotglob
ulimit -u "$NPROC" -v 2097152 -f 65536 -n 256
echo ready > "$OUT/ready"
while read -r i; do
  # what the previous command left in /work, /tmp, /root (tmpfs of this namespace only)
  left=("$R"/work/* "$R"/tmp/* "$R"/root/*)
  ((\${#left[@]})) && rm -rf -- "\${left[@]}"
  : > "$R/.sg/log"
  : > "$R/.sg/err"
  # a fresh pid namespace (pid 1 is the chrooted bash) with its own /proc
  timeout -s KILL "$LIMIT" unshare --pid --fork --mount-proc="$R/proc" \\
    env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C TERM=dumb USER=root \\
    "BASH_FUNC_command_not_found_handle%%=$NF" \\
    "$CHROOT" "$R" /bin/bash /.sg-run "/cmds/$i" </dev/null >/dev/null 2>&1
  echo "$i $?" >> "$OUT/status"
  cat "$R/.sg/log" > "$OUT/$i.log"
  cat "$R/.sg/err" > "$OUT/$i.err"
done < "$LIST"
`;

/**
 * pid 1 inside the chroot: runs the command with \`bash -c\` in /work, then waits (up to 1.5 s) for
 * whatever it left running in the background, so that \`cmd &\` is observed too.
 */
const RUN = `cd /work || exit 122
/bin/bash -c -- "$(< "$1")" bash 2>> /.sg/err
${runWait()}`;

/**
 * The same under zsh. The handler comes from a `.zshenv` in a ZDOTDIR the sandbox controls rather
 * than from text put before the command: zsh sources that file as input of its own before it reads
 * the -c text, so the command is read byte for byte as given (its first line is line 1, nothing
 * before it can run on into it or set an option or alias for it), and a nested `zsh -c` gets the
 * handler too. Nothing else is in that ZDOTDIR, and the root has no /etc/zsh, so no other startup
 * file is read (as with `zsh -f`, while NO_RCS stays unset as on a real machine). The seeded files
 * are plain files written by this bash (the root has no mkdir).
 */
const RUN_ZSH = `cd /work || exit 122
for f in README.md notes.txt main.ts; do printf 'seed\\n' > "$f"; done
ZDOTDIR=/.sg-zsh /bin/zsh -c -- "$(< "$1")" zsh 2>> /.sg/err
${runWait()}`;

/** The only startup file the sandbox's zsh reads: names it looks up and does not find are logged, as bash's hook does. */
const ZSHENV = `command_not_found_handler() { printf '%s\\0' M "$#" "$@" >> /.sg/log 2>/dev/null; print -r -- "zsh: command not found: $1" >&2; return 127; }
`;

/** After the command: wait (up to 1.5 s) for whatever it left running in the background. */
function runWait(): string {
  return `s=$?
shopt -s nullglob
exec 9<> <(:)
ps=$!
for ((k = 0; k < 150; k++)); do
  n=0
  for x in /proc/[0-9]*; do
    x=\${x#/proc/}
    [[ $x == 1 || $x == "$ps" ]] || ((n++))
  done
  ((n == 0)) && break
  read -t 0.01 -u 9
done
exit "$s"
`;
}

/** Libraries and loader a shell needs, from `ldd`. */
function shellLibraries(bash: string): string[] {
  const { libs, out } = linkedLibraries(bash);
  if (!libs.some((l) => l.includes('ld-linux') || l.includes('ld-musl') || l.includes('/ld'))) {
    throw new Error(`ldd ${bash}: no dynamic loader found in\n${out}`);
  }
  return libs;
}

/** The libraries `ldd` lists for a program or a shared object (the loader included), and its output. */
function linkedLibraries(file: string): { libs: string[]; out: string } {
  const out = execFileSync('ldd', [file], { encoding: 'utf8' });
  const libs: string[] = [];
  for (const line of out.split('\n')) {
    const m = /=>\s*(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
    if (m) libs.push(m[1]);
  }
  return { libs, out };
}

function resolveShell(name: 'bash' | 'dash' | 'zsh'): string {
  for (const p of [`/usr/bin/${name}`, `/bin/${name}`]) if (existsSync(p)) return p;
  throw new Error(`no ${name} on the host`);
}

/**
 * dash's line for a name it looked up and did not find (`sh: 1: NAME: not found`). A builtin's
 * complaint has the same shape with the builtin's name first (`sh: 1: exec: -a: not found`): a
 * name with `: ` in it is not taken for a lookup.
 */
const DASH_NOT_FOUND = /^(?:sh|dash): \d+: ((?:(?!: ).)+): not found$/;

/**
 * zsh's line for a name it looked up and did not find when no handler ran (`zsh:1: command not
 * found: NAME`, also from a nested `zsh -f`); the handler's own line has no line number.
 */
const ZSH_NOT_FOUND = /^zsh:(?:[^:]*:)?\d+: command not found: (.+)$/;

/**
 * The host zsh's module path (for zmodload) and function path (for autoload), as it reports them
 * itself; completion functions are left out (nothing completes under zsh -c).
 */
function zshTrees(zsh: string): { modules: string[]; functions: string[] } {
  const out = execFileSync(zsh, ['-f', '-c', 'print -rl -- $module_path -- $fpath'], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
  const lines = out.split('\n').filter((l) => l.startsWith('/') || l === '--');
  const cut = lines.indexOf('--');
  const here = (dirs: string[]) => dirs.filter((d) => existsSync(d));
  return { modules: here(lines.slice(0, cut)), functions: here(lines.slice(cut + 1)).filter((d) => !d.split('/').includes('Completion')) };
}

export class Sandbox {
  readonly dir: string;
  readonly root: string;
  readonly programs: string[];
  private readonly timeoutSeconds: number;
  private readonly workers: number;
  readonly sh: 'bash' | 'dash';
  readonly shell: 'bash' | 'zsh';
  private nextId = 0;
  private disposed = false;

  private constructor(dir: string, programs: string[], timeoutSeconds: number, workers: number, sh: 'bash' | 'dash', shell: 'bash' | 'zsh') {
    this.dir = dir;
    this.sh = sh;
    this.shell = shell;
    this.root = join(dir, 'root');
    this.programs = programs;
    this.timeoutSeconds = timeoutSeconds;
    this.workers = workers;
  }

  /** Builds the root in a fresh temp dir. Call `dispose()` when done. */
  static create(options: SandboxOptions): Sandbox {
    const shell = options.shell ?? 'bash';
    // under zsh, `zsh` is the real one, never a stub
    const programs = [...new Set([...options.programs].filter((p) => stubbable(p) && !(shell === 'zsh' && p === 'zsh')))].sort();
    const dir = mkdtempSync(join(tmpdir(), 'shellgate-oracle-'));
    chmodSync(dir, 0o755);
    const sb = new Sandbox(dir, programs, options.timeoutSeconds ?? 2, Math.min(MAX_WORKERS, Math.max(1, options.workers ?? 2)), options.sh ?? 'bash', shell);
    try {
      sb.build();
    } catch (e) {
      sb.dispose();
      throw e;
    }
    return sb;
  }

  private build(): void {
    const R = this.root;
    for (const d of ['bin', 'usr/bin', 'sbin', 'usr/sbin', 'usr/local/bin', 'usr/local/sbin', 'dev', 'proc', 'work', 'tmp', 'root', '.sg', 'cmds', 'etc']) {
      mkdirSync(join(R, d), { recursive: true, mode: 0o755 });
    }
    chmodSync(join(R, 'tmp'), 0o1777);
    const shells: ('bash' | 'dash' | 'zsh')[] = this.sh === 'dash' ? ['bash', 'dash'] : ['bash'];
    if (this.shell === 'zsh') shells.push('zsh');
    for (const name of shells) {
      const shell = resolveShell(name);
      for (const lib of shellLibraries(shell)) this.copyLibrary(lib);
      copyFileSync(shell, join(R, 'usr/bin', name));
      chmodSync(join(R, 'usr/bin', name), 0o755);
      linkSync(join(R, 'usr/bin', name), join(R, 'bin', name));
    }
    symlinkSync(this.sh, join(R, 'bin/sh'));
    symlinkSync(this.sh, join(R, 'usr/bin/sh'));
    for (const d of ['null', 'zero', 'random', 'urandom']) writeFileSync(join(R, 'dev', d), '', { mode: 0o644 });
    symlinkSync('/proc/self/fd', join(R, 'dev/fd'));
    symlinkSync('/proc/self/fd/0', join(R, 'dev/stdin'));
    symlinkSync('/proc/self/fd/1', join(R, 'dev/stdout'));
    symlinkSync('/proc/self/fd/2', join(R, 'dev/stderr'));
    writeFileSync(join(R, '.sg-run'), this.shell === 'zsh' ? RUN_ZSH : RUN, { mode: 0o644 });
    if (this.shell === 'zsh') this.buildZsh();
    writeFileSync(join(R, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/bash\n', { mode: 0o644 });
    const stub = join(this.dir, 'stub');
    writeFileSync(stub, STUB, { mode: 0o755 });
    chmodSync(stub, 0o755);
    for (const d of STUB_DIRS) {
      for (const p of this.programs) linkSync(stub, join(R, d, p));
    }
    writeFileSync(join(this.dir, 'driver.sh'), DRIVER, { mode: 0o755 });
    writeFileSync(join(this.dir, 'notfound.fn'), NOT_FOUND_FN, { mode: 0o644 });
  }

  private copyLibrary(lib: string): void {
    const target = join(this.root, lib);
    mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
    if (!existsSync(target)) copyFileSync(lib, target); // follows symlinks: a real file
    chmodSync(target, 0o755);
  }

  /** zsh's modules with the libraries they link (a module whose library the host lacks fails to load here as there), its function library, and the ZDOTDIR. */
  private buildZsh(): void {
    const { modules, functions } = zshTrees(resolveShell('zsh'));
    for (const dir of [...modules, ...functions]) cpSync(dir, join(this.root, dir), { recursive: true, dereference: true });
    for (const dir of modules) {
      for (const so of execFileSync('find', [dir, '-name', '*.so'], { encoding: 'utf8' }).split('\n').filter(Boolean)) {
        for (const lib of linkedLibraries(so).libs) this.copyLibrary(lib);
      }
    }
    mkdirSync(join(this.root, '.sg-zsh'), { mode: 0o755 });
    writeFileSync(join(this.root, '.sg-zsh/.zshenv'), ZSHENV, { mode: 0o644 });
  }

  /** Runs each command once, in its own fresh namespaces; results in input order. */
  async run(commands: string[]): Promise<RunResult[]> {
    if (this.disposed) throw new Error('sandbox disposed');
    const { ids, worker, status } = await runInBatches(commands, join(this.root, 'cmds'), this.nextId, this.workers, (list, w) => this.batch(list, w));
    this.nextId += commands.length;
    return ids.map((id, k) => {
      const outDir = join(this.dir, `out${worker(k)}`);
      const logFile = join(outDir, `${id}.log`);
      const s = status.get(id);
      const parsed = existsSync(logFile) ? parseLog(readFileSync(logFile)) : { records: [], problem: 'no log (batch killed?)' };
      const errFile = join(outDir, `${id}.err`);
      const notFound = [...(this.sh === 'dash' ? [DASH_NOT_FOUND] : []), ...(this.shell === 'zsh' ? [ZSH_NOT_FOUND] : [])];
      if (notFound.length > 0 && existsSync(errFile)) {
        for (const line of readFileSync(errFile, 'utf8').split('\n')) {
          const name = notFound.map((re) => re.exec(line)?.[1]).find((n) => n !== undefined);
          if (name !== undefined) parsed.records.push({ kind: 'missing', program: name.slice(name.lastIndexOf('/') + 1), args: [] });
        }
      }
      return {
        command: commands[k],
        status: s ?? null,
        timedOut: s === 137 || s === undefined,
        records: parsed.records,
        logProblem: parsed.problem,
      };
    });
  }

  private async batch(list: number[], w: number): Promise<Map<number, number>> {
    const out = join(this.dir, `out${w}`);
    mkdirSync(out, { recursive: true, mode: 0o755 });
    const listFile = join(this.dir, `list${w}`);
    writeFileSync(listFile, list.map((i) => `${i}\n`).join(''), { mode: 0o644 });
    const asRoot = process.getuid?.() === 0;
    const uid = SANDBOX_UID_BASE + w;
    if (asRoot) chownSync(out, uid, uid);
    // RLIMIT_NPROC counts every process of the uid: a dedicated uid when we are root, else ours
    const nproc = (asRoot ? 0 : processesOf(process.getuid?.() ?? -1)) + 400;
    const total = Math.ceil(list.length * (this.timeoutSeconds + 0.5) + 20);
    const args = [
      '-s',
      'KILL',
      String(total),
      HOST_BINS.unshare,
      '-r',
      '-m',
      '--pid',
      '--fork',
      '--net',
      'bash',
      join(this.dir, 'driver.sh'),
      this.root,
      out,
      listFile,
      String(this.timeoutSeconds),
      join(this.dir, 'notfound.fn'),
      String(nproc),
    ];
    const { code, stderr } = await spawnP(HOST_BINS.timeout, args, asRoot ? { uid, gid: uid } : {});
    if (!existsSync(join(out, 'ready'))) {
      throw new Error(`sandbox batch did not start (exit ${code}): ${stderr.trim() || 'no message'}`);
    }
    return batchStatus(out);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Tasks (threads included, as RLIMIT_NPROC counts them) of a uid. */
function processesOf(uid: number): number {
  let n = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(status)) n += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
    } catch {
      // gone
    }
  }
  return n;
}

/**
 * Both oracles' dispatch: writes each command to `cmdsDir/ID` (ids from `firstId` on), deals the
 * ids round-robin to at most `workers` batches run side by side, and gathers every id's exit
 * status; `worker(k)` is the batch the k-th command ran in.
 */
export async function runInBatches(
  commands: string[],
  cmdsDir: string,
  firstId: number,
  workers: number,
  batch: (list: number[], w: number) => Promise<Map<number, number>>,
): Promise<{ ids: number[]; worker: (k: number) => number; status: Map<number, number> }> {
  const ids = commands.map((c, k) => {
    writeFileSync(join(cmdsDir, String(firstId + k)), c, { mode: 0o644 });
    return firstId + k;
  });
  const lists: number[][] = Array.from({ length: Math.min(workers, Math.max(1, ids.length)) }, () => []);
  ids.forEach((id, k) => lists[k % lists.length].push(id));
  const status = new Map<number, number>();
  for (const b of await Promise.all(lists.map((list, w) => batch(list, w)))) for (const [id, s] of b) status.set(id, s);
  return { ids, worker: (k) => k % lists.length, status };
}

/** A batch driver's `status` file: `INDEX STATUS` per command that ended (both oracles' drivers write it). */
export function batchStatus(out: string): Map<number, number> {
  const status = new Map<number, number>();
  const sf = join(out, 'status');
  if (existsSync(sf)) {
    for (const line of readFileSync(sf, 'utf8').split('\n')) {
      const m = /^(\d+) (\d+)$/.exec(line);
      if (m) status.set(Number(m[1]), Number(m[2]));
    }
  }
  return status;
}

/** Runs a host program with a fixed PATH and C locale, keeping the first 20,000 characters of its stderr. */
export function spawnP(cmd: string, args: string[], opts: { uid?: number; gid?: number }): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      ...opts,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 20_000) stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** `KIND\0N\0field…` records, N fields each. */
export function parseLog(buf: Buffer): { records: ExecRecord[]; problem: string | null } {
  const parts = buf.toString('utf8').split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  const records: ExecRecord[] = [];
  let i = 0;
  while (i < parts.length) {
    const kind = parts[i];
    const n = Number(parts[i + 1]);
    if ((kind !== 'X' && kind !== 'M') || !Number.isInteger(n) || n < 1 || i + 2 + n > parts.length) {
      return { records, problem: `unparseable log at field ${i}: ${JSON.stringify(parts.slice(i, i + 4))}` };
    }
    const fields = parts.slice(i + 2, i + 2 + n);
    const name = fields[0];
    records.push({ kind: kind === 'X' ? 'exec' : 'missing', program: name.slice(name.lastIndexOf('/') + 1), args: fields.slice(1) });
    i += 2 + n;
  }
  return { records, problem: null };
}

/** Whether the sandbox can be built and used here, with the reason when it cannot. */
export async function probeSandbox(options: { shell?: 'bash' | 'zsh' } = {}): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (process.platform !== 'linux') return { ok: false, reason: `not Linux (${process.platform})` };
  for (const b of Object.values(HOST_BINS)) {
    try {
      execFileSync('sh', ['-c', `command -v ${b}`], { stdio: 'ignore' });
    } catch {
      return { ok: false, reason: `host program ${b} not found` };
    }
  }
  let sb: Sandbox | null = null;
  try {
    sb = Sandbox.create({ programs: ['sg-probe'], workers: 1, shell: options.shell });
    const [r] = await sb.run(['sg-probe one "two three"; sh -c "sg-probe four"']);
    const seen = r.records.map((x) => [x.program, ...x.args].join(' '));
    if (seen.join('|') !== 'sg-probe one two three|sg-probe four') {
      return { ok: false, reason: `probe command did not record as expected: status ${r.status}, records ${JSON.stringify(seen)}, ${r.logProblem ?? ''}` };
    }
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: `namespaces/chroot refused: ${(e as Error).message}` };
  } finally {
    sb?.dispose();
  }
}
