/**
 * Find the command a wrapper runs. Given a wrapper's arguments (after its name), say where the
 * wrapped argv starts, or which argument is a shell string to parse, with the wrapper's side facts
 * (privilege, remote host, extra arguments from stdin).
 */
import { own } from '../own.js';
import type { Arg } from './types.js';
import { parallelJobs } from './parallel-jobs.js';
import { SHELLS, SHELL_VALUE_OPTIONS, WRAPPER_OPTIONS, PRIVILEGE_WRAPPERS, type WrapperOptions } from './wrapper-table.js';

export type Inner =
  /** The wrapped command is `args.slice(start)` (possibly with extra trailing arguments). */
  | { kind: 'argv'; start: number; extraArgs?: 'stdin'; replace?: string }
  /** The wrapped command is a shell string (`sh -c S`, `su -c S`, `watch 'a | b'`). */
  | { kind: 'shell'; script: Arg[] }
  /** Several shell command lines, each a job (`parallel`). */
  | { kind: 'jobs'; scripts: Arg[] }
  /** An interactive or stdin-reading shell (`sudo -i`, `su`, `bash`, `bash -s`). */
  | { kind: 'stdin-shell' }
  /** Runs a script file (`bash script.sh`). */
  | { kind: 'script-file'; file: Arg }
  /** Only looks something up or prints (`command -v x`, bare `env`). */
  | { kind: 'none' };

export interface Unwrapped {
  wrapper: string;
  inner: Inner;
  privileged: boolean;
  remote: string | null;
  /** `env VAR=x cmd`, `sudo VAR=x cmd`. */
  assignments: { name: string; value: string | null }[];
}

interface Scan {
  /** Index of the first operand. */
  index: number;
  flags: Set<string>;
  values: Map<string, Arg>;
  shellString: Arg | null;
}

export function scanOptions(args: Arg[], start: number, opts: WrapperOptions): Scan {
  const flags = new Set<string>();
  const values = new Map<string, Arg>();
  let shellString: Arg | null = null;
  let i = start;
  for (; i < args.length; i++) {
    const a = args[i].value;
    if (args[i].dynamic) break;
    if (a === '--') {
      i++;
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(0, eq) : a;
      if (opts.longValue.includes(name)) {
        const v = eq >= 0 ? { ...args[i], value: a.slice(eq + 1) } : args[++i];
        if (v) values.set(name, v);
        if (opts.shellStringLong?.includes(name) && v) shellString = v;
      } else flags.add(name);
      continue;
    }
    if (!a.startsWith('-') || a === '-') break;
    for (let j = 1; j < a.length; j++) {
      const ch = a[j];
      if (opts.shortValue.includes(ch)) {
        const rest = a.slice(j + 1);
        const v = rest ? { ...args[i], value: rest } : args[++i];
        if (v) values.set('-' + ch, v);
        if (opts.shellStringShort?.includes(ch) && v) shellString = v;
        break;
      }
      if (opts.shortOptionalValue?.includes(ch)) {
        flags.add('-' + ch);
        break;
      }
      flags.add('-' + ch);
    }
  }
  return { index: i, flags, values, shellString };
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

/**
 * `env X=1 Y="$v" cmd`: leading assignments. One whose name is written out but whose value is
 * only known at run time (`X="$D"`) is still an assignment, with an unknown value.
 */
function takeAssignments(args: Arg[], i: number, out: Unwrapped['assignments']): number {
  while (i < args.length && ASSIGNMENT.test(args[i].value) && (!args[i].dynamic || args[i].raw === undefined || ASSIGNMENT.test(args[i].raw!))) {
    const m = ASSIGNMENT.exec(args[i].value)!;
    out.push({ name: m[1], value: args[i].dynamic ? null : args[i].value.slice(m[0].length) });
    i++;
  }
  return i;
}

/** Unwrap `name args…` if `name` is a wrapper; null when it is not one. */
/** Every wrapper name, for the question every command asks first (most are none). */
const WRAPPER_NAMES: ReadonlySet<string> = new Set(Object.keys(WRAPPER_OPTIONS));

export function unwrap(name: string, args: Arg[], stdin: string | null = null): Unwrapped | null {
  if (!WRAPPER_NAMES.has(name) && !SHELLS.has(name) && name !== 'eval') return null;
  const opts = own(WRAPPER_OPTIONS, name);
  const result = (inner: Inner, extra: Partial<Unwrapped> = {}): Unwrapped => ({
    wrapper: name,
    inner,
    privileged: PRIVILEGE_WRAPPERS.has(name),
    remote: null,
    assignments: [],
    ...extra,
  });
  if (SHELLS.has(name)) return unwrapShell(name, args);
  if (!opts) {
    if (name === 'eval') return result({ kind: 'shell', script: args });
    return null;
  }
  const scan = scanOptions(args, 0, opts);
  const assignments: Unwrapped['assignments'] = [];
  let i = scan.index;
  switch (name) {
    case 'sudo':
    case 'doas': {
      if (scan.shellString) return result({ kind: 'shell', script: [scan.shellString] });
      i = takeAssignments(args, i, assignments);
      if (i >= args.length) {
        // `sudo -i`, `sudo -s`: a root shell; `sudo -v`, `sudo -l`: only credentials.
        const shell = scan.flags.has('-i') || scan.flags.has('-s') || scan.flags.has('--login') || scan.flags.has('--shell');
        return result(shell ? { kind: 'stdin-shell' } : { kind: 'none' }, { assignments });
      }
      if (scan.flags.has('-e') || scan.flags.has('--edit')) return result({ kind: 'none' }, { assignments });
      return result({ kind: 'argv', start: i }, { assignments });
    }
    case 'env': {
      const split = scan.values.get('-S') ?? scan.values.get('--split-string');
      if (split) return result({ kind: 'shell', script: [split, ...args.slice(i)] });
      i = takeAssignments(args, i, assignments);
      return result(i >= args.length ? { kind: 'none' } : { kind: 'argv', start: i }, { assignments });
    }
    case 'command':
      if (scan.flags.has('-v') || scan.flags.has('-V')) return result({ kind: 'none' });
      return result(i >= args.length ? { kind: 'none' } : { kind: 'argv', start: i });
    case 'exec':
    case 'builtin':
    case 'nohup':
    case 'nice':
    case 'setsid':
    case 'stdbuf':
    case 'busybox':
    case 'pkexec':
      return result(i >= args.length ? { kind: 'none' } : { kind: 'argv', start: i });
    case 'taskset':
      // taskset [-a] [-c] MASK|LIST CMD… ; with -p it works on a running pid.
      if (scan.flags.has('-p') || scan.flags.has('--pid')) return result({ kind: 'none' });
      return result(i + 1 >= args.length ? { kind: 'none' } : { kind: 'argv', start: i + 1 });
    case 'chrt':
      // chrt [opts] PRIORITY CMD… ; -p works on a pid, -m lists.
      if (scan.flags.has('-p') || scan.flags.has('-m') || scan.flags.has('--pid')) return result({ kind: 'none' });
      return result(i + 1 >= args.length ? { kind: 'none' } : { kind: 'argv', start: i + 1 });
    case 'at':
    case 'batch':
      // at TIME reads the job's commands from stdin (or -f FILE); -l/-d/-r only manage the queue.
      if (['-l', '-d', '-r', '-c'].some((f) => scan.flags.has(f))) return result({ kind: 'none' });
      if (scan.values.has('-f')) return result({ kind: 'script-file', file: scan.values.get('-f')! });
      return result({ kind: 'stdin-shell' });
    case 'ionice':
      if (scan.values.has('-p') || scan.values.has('--pid')) return result({ kind: 'none' });
      return result(i >= args.length ? { kind: 'none' } : { kind: 'argv', start: i });
    case 'time':
      return result(i >= args.length ? { kind: 'none' } : { kind: 'argv', start: i });
    case 'timeout':
      // First operand is the duration.
      return result(i + 1 >= args.length ? { kind: 'none' } : { kind: 'argv', start: i + 1 });
    case 'chroot':
      // chroot NEWROOT [COMMAND…]; without a command it starts an interactive shell.
      return result(i + 1 >= args.length ? { kind: 'stdin-shell' } : { kind: 'argv', start: i + 1 });
    case 'watch':
      if (i >= args.length) return result({ kind: 'none' });
      if (scan.flags.has('-x') || scan.flags.has('--exec')) return result({ kind: 'argv', start: i });
      return result({ kind: 'shell', script: args.slice(i) });
    case 'xargs': {
      // With -I R / -i[R] / --replace[=R], R in the arguments is replaced by each input line.
      const attached = args.slice(0, i).find((a) => /^-i/.test(a.value) || a.value.startsWith('--replace'));
      const replace =
        scan.values.get('-I')?.value ??
        (attached ? attached.value.replace(/^-i|^--replace=?/, '') || '{}' : undefined);
      const start = i >= args.length ? args.length : i;
      return result(replace !== undefined ? { kind: 'argv', start, replace } : { kind: 'argv', start, extraArgs: 'stdin' });
    }
    case 'parallel':
      return result({ kind: 'jobs', scripts: parallelJobs(args.slice(i), stdin) });
    case 'su':
    case 'runuser':
      if (scan.shellString) return result({ kind: 'shell', script: [scan.shellString] });
      return result({ kind: 'stdin-shell' });
    case 'flock': {
      if (scan.shellString) return result({ kind: 'shell', script: [scan.shellString] });
      // Options may also follow the lock file: `flock FILE -c CMD`.
      const after = scanOptions(args, i + 1, opts);
      if (after.shellString) return result({ kind: 'shell', script: [after.shellString] });
      // flock FILE COMMAND…; `flock FD` alone only locks.
      return result(i + 1 >= args.length ? { kind: 'none' } : { kind: 'argv', start: after.index });
    }
    case 'script':
      if (scan.shellString) return result({ kind: 'shell', script: [scan.shellString] });
      return result({ kind: 'stdin-shell' });
    case 'ssh': {
      if (i >= args.length) return result({ kind: 'none' });
      const host = args[i].value.replace(/^[^@]*@/, '');
      const rest = args.slice(i + 1);
      return result(rest.length === 0 ? { kind: 'stdin-shell' } : { kind: 'shell', script: rest }, { remote: host });
    }
    default:
      return result(i >= args.length ? { kind: 'none' } : { kind: 'argv', start: i });
  }
}

/** `bash [opts] [-c STRING | FILE | -s]`, with any options (also bundled: `-lc`, `-ec`). */
function unwrapShell(name: string, args: Arg[]): Unwrapped {
  const base = { wrapper: name, privileged: false, remote: null, assignments: [] };
  let commandMode = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i].value;
    if (args[i].dynamic) break;
    if (a === '--' || a === '-') {
      i++;
      break;
    }
    if (SHELL_VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith('--')) continue; // --norc, --login, --posix, --noprofile…
    if (!/^[-+][A-Za-z]+$/.test(a)) break;
    if (a.startsWith('-') && a.includes('c')) commandMode = true;
    if (a.startsWith('-') && a.includes('s') && !commandMode) return { ...base, inner: { kind: 'stdin-shell' } };
  }
  if (commandMode) {
    if (i >= args.length) return { ...base, inner: { kind: 'none' } };
    return { ...base, inner: { kind: 'shell', script: [args[i]] } };
  }
  if (i >= args.length) return { ...base, inner: { kind: 'stdin-shell' } };
  return { ...base, inner: { kind: 'script-file', file: args[i] } };
}
