/**
 * The effect oracle's sandbox: REAL programs run on the host's own filesystem, mounted read-only,
 * under `strace -f`, inside a fresh copy of the hostile repository. What they did (execs, opens,
 * unlinks, renames, connects…) comes back as strace's log, one file per process.
 *
 * Isolation, outermost first:
 *  - As root, a batch runs as an otherwise unused host uid (200000 and up, not the real-bash
 *    oracle's range) so "root" inside the user namespace is nobody on the host: host files are
 *    not writable whatever a mount allows, /root and other private files are not readable.
 *  - `timeout -s KILL` bounds a batch; `unshare -r -m --pid --fork --net` gives it its own user,
 *    mount, pid and network namespaces (a downed loopback only: no connect reaches anything).
 *  - The batch's driver makes every mount of the host read-only in its namespace, and puts a
 *    fresh tmpfs on /dev holding only null, zero, full, random and urandom.
 *  - Each command gets a nested mount and pid namespace (its own /proc) with fresh tmpfs on /tmp,
 *    /root, /home, /work, /run, /var/tmp, /dev/shm, /mnt and /srv: the real /work and the real
 *    home are not visible, nor any daemon's socket under /run. The workspace and the fake home are
 *    copied onto the new /tmp at the same absolute paths the analyser saw them at on the host
 *    (the driver reaches the host copy through a directory fd opened before /tmp was covered,
 *    and closes it for the command). When the command's pid namespace ends, so does everything it
 *    left running, and its tmpfs with it.
 *  - rlimits: processes, file size, open files; `timeout -s KILL` per command.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXECS, NET, OPENS, WRITE_SYSCALLS } from './effects.js';
import { buildHostileRepo } from './fixture.js';
import { batchStatus, runInBatches, spawnP } from '../oracle/sandbox.js';

export const STRACE = '/usr/bin/strace';
/** Every system call that can have an effect beyond reading, plus execs and opens: what effects.ts reads. */
export const TRACED = [...EXECS, ...OPENS, ...WRITE_SYSCALLS, ...NET];
/** The environment of every command, and of the analyser's context. */
export const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface TraceResult {
  command: string;
  /** bash's exit status (137 or null after a kill). */
  status: number | null;
  timedOut: boolean;
  /** strace's log: per traced process, its lines. */
  processes: { pid: number; lines: string[] }[];
  /** The first 2,000 characters of the command's stderr (why it failed, when it did). */
  stderr: string;
}

const MAX_WORKERS = 4;
/** Not the real-bash oracle's range (200000 + (pid % 100000) * 4): that one ends below 600000. */
const UID_BASE = 600_000 + (process.pid % 100_000) * MAX_WORKERS;

const DRIVER = `#!/bin/bash
# The batch's driver, inside its user, mount, pid and network namespaces; never runs a tested command.
# $1 the oracle's dir  $2 worker  $3 per-command seconds  $4 process limit
D=$1; W=$2; LIMIT=$3; NPROC=$4
exec 8< "$D" || exit 3
mount --make-rprivate / || exit 3
# the one writable place: this worker's output dir, a mount of its own (fd 9) left out of the loop below
OUT="$D/out$W"
mount -n --bind "$OUT" "$OUT" && exec 9< "$OUT" || exit 3
# every mount read-only; deepest first does not matter, a bind remount does not touch the others
while read -r _ _ _ _ mnt _; do
  mnt=$(printf '%b' "\${mnt//\\\\/\\\\0}")
  [[ $mnt == "$OUT" ]] || mount -n -o remount,bind,ro "$mnt" 2>/dev/null
done < /proc/self/mountinfo
[[ -w / || -w /usr ]] && { echo "root still writable" >&2; exit 3; }
# a /dev of harmless devices only: built on a tmpfs over /mnt, then moved over /dev
mount -n -t tmpfs -o size=64k,mode=0755 sg-dev /mnt || exit 3
for d in null zero full random urandom; do : > "/mnt/$d"; mount -n --bind "/dev/$d" "/mnt/$d" || exit 3; done
ln -s /proc/self/fd /mnt/fd; ln -s /proc/self/fd/0 /mnt/stdin; ln -s /proc/self/fd/1 /mnt/stdout; ln -s /proc/self/fd/2 /mnt/stderr
mkdir /mnt/shm /mnt/pts
mount -n --move /mnt /dev || exit 3
mount -n -o remount,bind,ro /dev || exit 3
echo ready > /proc/self/fd/9/ready
while read -r i; do
  unshare --mount --pid --fork --mount-proc /bin/bash /proc/self/fd/8/one.sh "$i" "$W" "$LIMIT" "$NPROC" </dev/null >/dev/null 2>&1
  echo "$i $?" >> /proc/self/fd/9/status
done < "/proc/self/fd/8/list$W"
`;

/** One command, in its own mount and pid namespace (pid 1 is this script). */
const ONE = `#!/bin/bash
i=$1; W=$2; LIMIT=$3; NPROC=$4
S=/proc/self/fd/8
WS=$(< "$S/ws-path"); H=$(< "$S/home-path")
IFS= read -r -d '' cmd < "$S/cmds/$i"
for t in /tmp /root /home /work /run /var/tmp /dev/shm /mnt /srv; do
  [[ -d $t && ! -L $t ]] && mount -n -t tmpfs -o size=32m,mode=0755 sg "$t"
done
chmod 1777 /tmp /var/tmp /dev/shm
mkdir -p "$WS" "$H" /run/sg || exit 4
cp -RP --preserve=mode,timestamps "$S/ws/." "$WS/" && cp -RP --preserve=mode,timestamps "$S/home/." "$H/" || exit 4
cd "$WS" || exit 4
ulimit -u "$NPROC" -f 131072 -n 1024
timeout -s KILL "$LIMIT" env -i HOME="$H" PATH="${PATH}" LANG=C.UTF-8 TERM=dumb USER=user LOGNAME=user \\
  ${STRACE} -ff -qq -y -s 4096 -o /run/sg/t -e trace=${TRACED.join(',')} \\
  /bin/bash -c -- "$cmd" </dev/null >/dev/null 2>/run/sg-err 8<&- 9<&-
s=$?
out=/proc/self/fd/9
head -c 2000 /run/sg-err > "$out/$i.err"
shopt -s nullglob
for f in /run/sg/t.*; do printf '### %s\\n' "\${f##*.}"; cat -- "$f"; done > "$out/$i.trace"
exit "$s"
`;

/** Every temp dir this process created (the test checks that each is gone). */
export const createdDirs: string[] = [];

export class EffectSandbox {
  readonly dir: string;
  /** The workspace and the fake home: the same paths on the host (for the analyser) and inside. */
  readonly ws: string;
  readonly home: string;
  private readonly timeoutSeconds: number;
  private readonly workers: number;
  private nextId = 0;
  private disposed = false;

  private constructor(dir: string, timeoutSeconds: number, workers: number) {
    this.dir = dir;
    this.ws = join(dir, 'ws');
    this.home = join(dir, 'home');
    this.timeoutSeconds = timeoutSeconds;
    this.workers = workers;
  }

  /** Builds the hostile repository and the driver in a fresh temp dir. Call `dispose()` when done. */
  static create(options: { timeoutSeconds?: number; workers?: number } = {}): EffectSandbox {
    const dir = mkdtempSync(join(tmpdir(), 'shellgate-effect-'));
    createdDirs.push(dir);
    chmodSync(dir, 0o755);
    const sb = new EffectSandbox(dir, options.timeoutSeconds ?? 5, Math.min(MAX_WORKERS, Math.max(1, options.workers ?? 2)));
    try {
      buildHostileRepo(sb.ws, sb.home);
      mkdirSync(join(dir, 'cmds'), { mode: 0o755 });
      mkdirSync(join(dir, 'dev'), { mode: 0o755 });
      writeFileSync(join(dir, 'ws-path'), sb.ws);
      writeFileSync(join(dir, 'home-path'), sb.home);
      writeFileSync(join(dir, 'driver.sh'), DRIVER, { mode: 0o755 });
      writeFileSync(join(dir, 'one.sh'), ONE, { mode: 0o755 });
    } catch (e) {
      sb.dispose();
      throw e;
    }
    return sb;
  }

  /** Runs each command once, in its own namespaces and its own copy of the fixture; input order. */
  async run(commands: string[]): Promise<TraceResult[]> {
    if (this.disposed) throw new Error('sandbox disposed');
    const { ids, worker, status } = await runInBatches(commands, join(this.dir, 'cmds'), this.nextId, this.workers, (list, w) => this.batch(list, w));
    this.nextId += commands.length;
    return ids.map((id, k) => {
      const out = join(this.dir, `out${worker(k)}`);
      const s = status.get(id);
      const read = (f: string) => (existsSync(join(out, f)) ? readFileSync(join(out, f), 'utf8') : '');
      const result: TraceResult = {
        command: commands[k],
        status: s ?? null,
        timedOut: s === undefined || s === 137,
        processes: parseProcesses(read(`${id}.trace`)),
        stderr: read(`${id}.err`),
      };
      for (const f of [`${id}.trace`, `${id}.err`]) rmSync(join(out, f), { force: true });
      rmSync(join(this.dir, 'cmds', String(id)), { force: true });
      return result;
    });
  }

  private async batch(list: number[], w: number): Promise<Map<number, number>> {
    const out = join(this.dir, `out${w}`);
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { mode: 0o755 });
    writeFileSync(join(this.dir, `list${w}`), list.map((i) => `${i}\n`).join(''), { mode: 0o644 });
    const asRoot = process.getuid?.() === 0;
    const uid = UID_BASE + w;
    if (asRoot) chownSync(out, uid, uid);
    const total = Math.ceil(list.length * (this.timeoutSeconds + 1) + 30);
    const args = [
      '-s',
      'KILL',
      String(total),
      'unshare',
      '-r',
      '-m',
      '--pid',
      '--fork',
      '--net',
      'bash',
      join(this.dir, 'driver.sh'),
      this.dir,
      String(w),
      String(this.timeoutSeconds),
      '300',
    ];
    const { code, stderr } = await spawnP('timeout', args, asRoot ? { uid, gid: uid } : {});
    if (!existsSync(join(out, 'ready'))) throw new Error(`effect sandbox batch did not start (exit ${code}): ${stderr.trim() || 'no message'}`);
    return batchStatus(out);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function parseProcesses(text: string): { pid: number; lines: string[] }[] {
  const out: { pid: number; lines: string[] }[] = [];
  for (const line of text.split('\n')) {
    const m = /^### (\d+)$/.exec(line);
    if (m) out.push({ pid: Number(m[1]), lines: [] });
    else if (line !== '' && out.length) out[out.length - 1].lines.push(line);
  }
  return out.sort((a, b) => a.pid - b.pid);
}

/** Whether the sandbox can run here, with the reason when it cannot. */
export async function probeEffectSandbox(): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (process.platform !== 'linux') return { ok: false, reason: `not Linux (${process.platform})` };
  if (!existsSync(STRACE)) return { ok: false, reason: `${STRACE} not found` };
  let sb: EffectSandbox | null = null;
  try {
    sb = EffectSandbox.create({ workers: 1 });
    const [r] = await sb.run(['cat a.txt']);
    if (!r.processes.some((p) => p.lines.some((l) => l.includes('a.txt')))) {
      return { ok: false, reason: `probe saw no trace: status ${r.status}, stderr ${r.stderr.slice(0, 300)}` };
    }
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: `namespaces refused: ${(e as Error).message}` };
  } finally {
    sb?.dispose();
  }
}
