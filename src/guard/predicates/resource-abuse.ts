/** Named predicates for the resource-abuse rules (rules/builtin/resource-abuse.json). */
import type { Subject } from '../subject.js';
import { onBlockDevice } from './disk-write.js';
import { forPrograms, requires, type Predicate } from './programs.js';

/** Character devices that never run dry. */
const ENDLESS = /^\/dev\/(zero|u?random)$/;

/** Commands in an infinite loop that pause (sleep, read, wait) or can leave it (break, exit, return). */
const PAUSES_OR_LEAVES = new Set(['sleep', 'usleep', 'read', 'wait', 'break', 'exit', 'return', 'inotifywait', 'timeout', 'select']);

/** This command runs inside an infinite loop that never pauses and never breaks out. */
function inBusyLoop(s: Subject): boolean {
  if (!s.cmd.context.infiniteLoop) return false;
  return !s.all.some((o) => o.cmd.context.infiniteLoop && o.cmd.program !== null && PAUSES_OR_LEAVES.has(o.cmd.program));
}

/**
 * The condition command (`:`, `true`, `false`) of the infinite loop this command is in: the
 * nearest one before it at the same or an outer depth. None for `for ((;;))`.
 */
function loopCondition(s: Subject): Subject | undefined {
  for (let i = s.cmd.id; i >= 0; i--) {
    const o = s.all[i];
    if (!o || !o.cmd.context.infiniteLoop || o.cmd.context.depth > s.cmd.context.depth) continue;
    if ((o.cmd.program === ':' || o.cmd.program === 'true' || o.cmd.program === 'false') && o.cmd.args.length === 0) return o;
  }
  return undefined;
}

/**
 * Started in the background on each pass of an infinite loop that never pauses
 * (`while :; do x & done`, `while true; do $0 & done`): each pass adds a process. The loop's own
 * condition runs in the foreground, so the `&` is inside the loop.
 */
function spawnLoop(s: Subject): boolean {
  const jobs = backgroundJobs(s);
  if (jobs !== null && jobs >= FLOOD_JOBS) return true;
  if (!inBusyLoop(s) || !s.cmd.context.background) return false;
  const cond = loopCondition(s);
  return cond === undefined || !cond.cmd.context.background;
}

/**
 * Background jobs from which a loop is a flood: 10,000 processes at once is more than a macOS user
 * may own (kern.maxprocperuid is 2,666 on a 16 GB Mac), a third of Linux's historic pid_max
 * (32,768), and at a few megabytes each tens of gigabytes of memory. No build or test needs it.
 */
const FLOOD_JOBS = 10_000;

/**
 * From this many background jobs a loop is worth a look: a hundred concurrent processes is more
 * than any machine has cores, so it is rarely what a task needs (xargs -P or parallel bound it).
 */
const MANY_JOBS = 100;

/**
 * The number of copies of this command a counted loop starts in the background at once
 * (`for i in $(seq 1 5000); do curl … & done`: 5000). Null outside such loops, and when the line
 * waits for jobs inside a loop (`(( i % 8 )) || wait`), which bounds how many run together.
 */
function backgroundJobs(s: Subject): number | null {
  const jobs = s.cmd.context.backgroundJobs;
  if (jobs === null || !Number.isFinite(jobs)) return null;
  if (s.all.some((o) => o.cmd.context.loop && o.cmd.program === 'wait')) return null;
  return jobs;
}

/** A counted loop starts many background jobs, but fewer than a flood. */
function manySpawns(s: Subject): boolean {
  const jobs = backgroundJobs(s);
  return jobs !== null && jobs >= MANY_JOBS && jobs < FLOOD_JOBS;
}

/**
 * A whole busy loop sent to the background (`(while :; do :; done) &`, once per core in a `for`):
 * a detached CPU burner that never ends. A loop that feeds a later pipeline stage ends with it.
 */
function detachedBusyLoop(s: Subject): boolean {
  if (!inBusyLoop(s) || !s.cmd.context.background) return false;
  const cond = loopCondition(s);
  if (cond === undefined || !cond.cmd.context.background) return false;
  const p = cond.cmd.context.pipeline;
  return p === null || p.index === p.length - 1;
}

/** In a busy infinite loop and creating or deleting files (mkdir/cd, touch, append): inode or disk exhaustion. */
function busyLoopWrites(s: Subject): boolean {
  if (!inBusyLoop(s)) return false;
  return s.ops.some((o) => (o.kind === 'Write' || o.kind === 'Delete') && !(o.classes ?? []).includes('special-device'));
}

/** In a busy infinite loop at all (for an ask: it never ends). */
function busyLoop(s: Subject): boolean {
  return inBusyLoop(s) && s.cmd.program !== null;
}

function argValue(s: Subject, key: string): string | null {
  for (const a of s.cmd.args) if (!a.dynamic && a.value.startsWith(key + '=')) return a.value.slice(key.length + 1);
  return null;
}

/** The command reads an endless device (operand, `<` redirect, `if=`). */
function readsEndless(s: Subject): boolean {
  if (s.ops.some((o) => o.kind === 'Read' && o.path !== undefined && ENDLESS.test(o.path))) return true;
  if (s.cmd.redirects.some((r) => r.op === '<' && r.path !== null && ENDLESS.test(r.path.value))) return true;
  const input = argValue(s, 'if');
  return input !== null && ENDLESS.test(input);
}

/** Programs that copy their whole input, however long. */
const UNBOUNDED_COPIERS = new Set([
  'cat',
  'pv',
  'tee',
  'cp',
  'dd',
  'dcfldd',
  'rsync',
  'install',
  'base64',
  'xxd',
  'od',
  'hexdump',
  'gzip',
  'xz',
  'bzip2',
  'zstd',
  'openssl',
  // read forever without output: pure CPU burn
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'wc',
]);

/** Every program endlessStream can hold for. */
const STREAMERS = ['yes', ...UNBOUNDED_COPIERS];

/**
 * The command produces output without end: `yes`, `cat /dev/zero`, `pv /dev/urandom`,
 * `dd if=/dev/zero` without count=, `cp /dev/zero f`. Bounded readers (head -c, dd count=) are not.
 */
function endlessStream(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null) return false;
  if (p === 'yes') return !s.cmd.args.some((a) => a.value === '--help' || a.value === '--version');
  if (!UNBOUNDED_COPIERS.has(p) || !readsEndless(s)) return false;
  if (p === 'dd' || p === 'dcfldd') return argValue(s, 'count') === null;
  // Dumpers with a byte limit: od -N, hexdump -n, xxd -l, base64 … | head is a pipeline.
  const limit: Record<string, RegExp> = { od: /^(-N|--read-bytes)/, hexdump: /^(-n|--length)/, xxd: /^(-l|-len)/ };
  if (limit[p] && s.cmd.args.some((a) => limit[p].test(a.value) || /^-[A-Za-z]*N/.test(a.value))) return false;
  return true;
}

/** The command writes a regular file (or RAM-backed /dev/shm): not /dev/null and friends, not a disk. */
function writesFile(s: Subject): boolean {
  return s.ops.some(
    (o) => o.kind === 'Write' && o.path !== undefined && !(o.classes ?? []).includes('special-device') && !onBlockDevice(o) && !ENDLESS.test(o.path),
  );
}

/** Filters that pass an endless stream on without ever stopping it. */
const PASSTHROUGH = new Set([
  'cat',
  'tr',
  'gzip',
  'xz',
  'bzip2',
  'zstd',
  'lz4',
  'base64',
  'base32',
  'openssl',
  'pv',
  'tee',
  'xxd',
  'od',
  'hexdump',
  'fold',
  'rev',
  'paste',
  'dd',
]);

/**
 * Endless output into a file: the file system (or tmpfs RAM) fills up. Directly
 * (`cat /dev/urandom > f`) or through filters that never stop it (`cat /dev/urandom | gzip > f`,
 * `yes | tee f`); a stage like head or sed q bounds it and does not match.
 */
function fillsDisk(s: Subject): boolean {
  if (!writesFile(s) || s.pipelineNeighbours('after').length > 0) return false;
  if (endlessStream(s)) return true;
  const before = s.pipelineNeighbours('before');
  if (before.length === 0 || !before.some(endlessStream)) return false;
  const passes = (o: Subject) => o.cmd.program !== null && PASSTHROUGH.has(o.cmd.program) && !(o.cmd.program === 'dd' && argValue(o, 'count') !== null);
  return passes(s) && before.every((o) => endlessStream(o) || passes(o));
}

/** Endless output consumed by nothing (`yes > /dev/null`, `cat /dev/urandom`; a file or a disk is other rules' business): a CPU burner. */
function burnsCpu(s: Subject): boolean {
  const writesOnlyNull = s.ops.every((o) => o.kind !== 'Write' || (o.classes ?? []).includes('special-device'));
  return endlessStream(s) && writesOnlyNull && s.pipelineNeighbours('after').length === 0;
}

const BUFFERERS = ['tail', 'sort', 'tac', 'shuf', 'rev', 'uniq', 'jq'];

/** Programs that keep all input in memory (tail keeps the last line; sort, tac the whole). */
function buffersEndless(s: Subject): boolean {
  const p = s.cmd.program;
  return p !== null && BUFFERERS.includes(p) && readsEndless(s);
}

const UNITS: Record<string, number> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40, p: 2 ** 50, e: 2 ** 60 };

/** `500G`, `20GiB`, `1T`, `10737418240`, `1.5g`, `100GB` (decimal) → bytes; null when not a size. */
export function parseSize(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([kmgtpe]?)(i?b?)?$/i.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2].toLowerCase();
  const decimal = m[3] !== undefined && /^b$/i.test(m[3]) && unit !== '';
  const mult = decimal ? 1000 ** Object.keys(UNITS).indexOf(unit) : UNITS[unit];
  return n * mult;
}

/** dd's bs=/count= sizes: `bs=1M count=1024`, `bs=1G count=500` (count with no bs: 512 bytes each). */
function ddTotal(s: Subject): number | null {
  const count = argValue(s, 'count');
  if (count === null) return null;
  const n = parseSize(count);
  const bs = parseSize(argValue(s, 'bs') ?? argValue(s, 'obs') ?? '512');
  return n === null || bs === null ? null : n * bs;
}

/** The programs allocationSize reads. */
const ALLOCATORS = ['fallocate', 'head', 'dd', 'dcfldd', 'mkfile', 'xfs_mkfile'];

/** Bytes a command allocates or writes on purpose: fallocate -l, head -c, dd bs×count, mkfile, xfs_mkfile. */
function allocationSize(s: Subject): number | null {
  const p = s.cmd.program;
  const opt = (...names: string[]) => s.parsed.options.find((o) => names.includes(o.name))?.value?.value ?? null;
  let text: string | null = null;
  if (p === 'fallocate') text = opt('-l', '--length');
  else if (p === 'head' && readsEndless(s)) text = opt('-c', '--bytes');
  else if ((p === 'dd' || p === 'dcfldd') && readsEndless(s)) return ddTotal(s);
  else if (p === 'mkfile' || p === 'xfs_mkfile') text = s.cmd.args.find((a) => !a.value.startsWith('-'))?.value ?? null;
  return text === null ? null : parseSize(text);
}

const GB = 1e9;

/** A single allocation of 100 GB or more: the disk (or most of it) is gone at once. */
function hugeAllocation(s: Subject): boolean {
  const n = allocationSize(s);
  return n !== null && n >= 100 * GB;
}

/** An allocation of 10 GB or more (below the deny threshold): worth a person's look. */
function largeAllocation(s: Subject): boolean {
  const n = allocationSize(s);
  return n !== null && n >= 10 * GB && n < 100 * GB;
}

/**
 * stress / stress-ng without a time limit (or `--timeout 0`): loads CPU, memory and I/O until
 * killed. `--version` / `--help` and other listing forms are not a run.
 */
function unboundedStress(s: Subject): boolean {
  const args = s.cmd.args.map((a) => a.value);
  if (args.length === 0 || args.some((a) => /^(--version|-V|--help|-h|-\?|--usage|--class|--stressors|--list|--syscall-list|--dry-run|-n)$/.test(a)))
    return false;
  for (let i = 0; i < args.length; i++) {
    const v = timeoutAt(args, i);
    if (v !== null && v !== undefined) return /^0+[smhdy]?$/.test(v);
  }
  return true;
}

/** The timeout the argument at `i` gives (`--timeout=N`, `--timeout N`, `-t N`, `-tN`), or null. */
function timeoutAt(args: string[], i: number): string | null | undefined {
  const a = args[i];
  if (a.startsWith('--timeout=')) return a.slice(10);
  if (a === '--timeout' || a === '-t') return args[i + 1];
  if (/^-t\d/.test(a)) return a.slice(2);
  return null;
}

/** Largest number among a command's arguments (`seq 1 10000000` → 1e7). */
function largestNumber(s: Subject): number {
  let max = 0;
  for (const a of s.cmd.args) if (!a.dynamic && /^\d+$/.test(a.value)) max = Math.max(max, Number(a.value));
  return max;
}

/**
 * A loop over a huge `seq` (a million iterations or more) whose body writes files or goes to the
 * network: `for i in $(seq 1 10000000); do touch f$i; done` exhausts inodes or floods a host.
 */
function hugeLoopWrites(s: Subject): boolean {
  if (!s.cmd.context.loop) return false;
  if (!s.ops.some((o) => ((o.kind === 'Write' || o.kind === 'Delete') && !(o.classes ?? []).includes('special-device')) || o.kind === 'Network')) return false;
  return firstHugeSeq(s.all) < s.cmd.id;
}

/** Per line (its subjects' list), the id of the first huge `seq` in a substitution outside loops. */
const hugeSeqs = new WeakMap<readonly Subject[], number>();

/** Found once per line: asked by every writing command in a loop, it made long scripts quadratic. */
function firstHugeSeq(all: readonly Subject[]): number {
  let first = hugeSeqs.get(all);
  if (first === undefined) {
    first = Infinity;
    for (const o of all)
      if (o.cmd.program === 'seq' && o.cmd.context.substitution !== null && !o.cmd.context.loop && largestNumber(o) >= 1_000_000)
        first = Math.min(first, o.cmd.id);
    hugeSeqs.set(all, first);
  }
  return first;
}

/** Parallelism of xargs (`-P N`, `--max-procs=N`); 0 means as many as possible. */
function xargsProcs(s: Subject): number | null {
  const args = s.cmd.args;
  for (let i = 0; i < args.length; i++) {
    const a = args[i].value;
    let v: string | undefined;
    if (a === '-P' || a === '--max-procs') v = args[i + 1]?.value;
    else if (/^-P\d+$/.test(a)) v = a.slice(2);
    else if (a.startsWith('--max-procs=')) v = a.slice(12);
    if (v !== undefined && /^\d+$/.test(v)) return Number(v);
  }
  return null;
}

/** xargs running a thousand copies at once, or a network client a hundred (or unlimited, `-P 0`) at a time. */
function massParallelXargs(s: Subject): boolean {
  if (s.cmd.program !== 'xargs') return false;
  const n = xargsProcs(s);
  if (n === null) return false;
  if (n >= 1000) return true;
  if (n !== 0 && n < 100) return false;
  const fetchers = ['curl', 'wget', 'http', 'https', 'xh', 'ab', 'hey', 'hping3', 'aria2c', 'nc', 'ncat'];
  return s.all.some((o) => o.cmd.parent === s.cmd.id && o.cmd.program !== null && fetchers.includes(o.cmd.program));
}

/**
 * xargs with no limit on parallel runs (`-P 0`) fed a flood-sized count (`seq 1000000 | xargs -P0 …`):
 * it starts as many processes at once as the input has lines.
 */
function unboundedXargsFlood(s: Subject): boolean {
  if (xargsProcs(s) !== 0) return false;
  return s.pipelineNeighbours('before').some((o) => o.cmd.program === 'seq' && largestNumber(o) >= FLOOD_JOBS);
}

const LOAD_TESTERS = ['ab', 'hey', 'wrk', 'siege', 'h2load', 'bombardier', 'vegeta', 'oha'];

/** Load generators aimed at a remote host with very large request counts or concurrency. */
function remoteLoadTest(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null || !LOAD_TESTERS.includes(p)) return false;
  const args = s.cmd.args.map((a) => a.value);
  const url = args.find((a) => /^https?:\/\//.test(a));
  if (url === undefined || /^https?:\/\/(localhost|127\.|0\.0\.0\.0|\[::1\]|host\.docker\.internal)/.test(url)) return false;
  let requests = 0;
  let concurrency = 0;
  for (let i = 0; i < args.length; i++) {
    const next = Number(args[i + 1]);
    if (['-n', '--requests', '-r', '--reps'].includes(args[i]) && Number.isFinite(next)) requests = Math.max(requests, next);
    if (['-c', '--concurrent', '--connections'].includes(args[i]) && Number.isFinite(next)) concurrency = Math.max(concurrency, next);
  }
  return requests >= 100_000 || concurrency >= 500;
}

const BUILDERS = ['make', 'gmake', 'ninja', 'cmake'];

/**
 * A build with no limit on parallel jobs: `make -j` (no number: as many as there are targets),
 * `ninja -j 0`. On a large project it starts hundreds of compilers and exhausts RAM.
 */
function unboundedJobs(s: Subject): boolean {
  const p = s.cmd.program;
  if (p === null || !BUILDERS.includes(p)) return false;
  const args = s.cmd.args;
  for (let i = 0; i < args.length; i++) {
    const a = args[i].value;
    if (p === 'make' || p === 'gmake') {
      if (a !== '-j' && a !== '--jobs') continue;
      const next = args[i + 1];
      if (next === undefined || (!next.dynamic && !/^\d+$/.test(next.value))) return true;
    } else if (p === 'ninja' || p === 'cmake') {
      if ((a === '-j' || a === '--parallel') && args[i + 1]?.value === '0') return true;
      if (a === '-j0') return true;
    }
  }
  return false;
}

export const resourceAbusePredicates: Record<string, Predicate> = {
  'resource-abuse/spawn-loop': requires([{ features: ['loop'] }, { features: ['background'] }], spawnLoop),
  'resource-abuse/many-spawns': requires([{ features: ['loop'] }, { features: ['background'] }], manySpawns),
  'resource-abuse/detached-busy-loop': requires([{ features: ['infinite-loop'] }, { features: ['background'] }], detachedBusyLoop),
  'resource-abuse/busy-loop-writes': requires([{ features: ['infinite-loop'] }, { features: ['Write', 'Delete'] }], busyLoopWrites),
  'resource-abuse/busy-loop': requires([{ features: ['infinite-loop'] }], busyLoop),
  'resource-abuse/endless-stream': forPrograms(STREAMERS, endlessStream),
  // True only when the command itself streams endlessly or passes such a stream on.
  'resource-abuse/fills-disk': forPrograms([...STREAMERS, ...PASSTHROUGH], fillsDisk),
  'resource-abuse/burns-cpu': forPrograms(STREAMERS, burnsCpu),
  'resource-abuse/buffers-endless': forPrograms(BUFFERERS, buffersEndless),
  'resource-abuse/huge-allocation': forPrograms(ALLOCATORS, hugeAllocation),
  'resource-abuse/large-allocation': forPrograms(ALLOCATORS, largeAllocation),
  // Not declared: it reads any argv (its rules name stress / stress-ng).
  'resource-abuse/unbounded-stress': requires([{ features: ['args'] }], unboundedStress),
  'resource-abuse/huge-loop-writes': requires([{ features: ['loop'] }, { features: ['Write', 'Delete', 'Network'] }], hugeLoopWrites),
  'resource-abuse/mass-parallel-xargs': forPrograms(['xargs'], massParallelXargs),
  'resource-abuse/unbounded-xargs-flood': forPrograms(['xargs'], unboundedXargsFlood),
  'resource-abuse/remote-load-test': forPrograms(LOAD_TESTERS, remoteLoadTest),
  'resource-abuse/unbounded-jobs': forPrograms(BUILDERS, unboundedJobs),
};
