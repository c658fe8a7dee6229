/** ps: BSD-style option words without a dash (`ps aux`), `e` that prints environments, and the environments it reads. */
import type { Span } from '../../syntax/ast.js';
import type { Arg } from '../../expand/arg.js';
import type { ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/**
 * procps ps takes BSD options as words without a dash (`ps aux`, `ps e`); a value follows `o`,
 * `O`, `p`, `q`, `t`, `U`, `k` (procps-ng 4.0 `ps --help all`). `e` (and macOS `-E`) prints each
 * process's environment after its command: the user's processes' secrets.
 */
const PS_BSD_FLAGS = new Set([...'arTxfjlZsuvXHmceLnSVwgh']);
const PS_BSD_VALUE = new Set([...'oOpqtUk']);

/**
 * The output columns that do not make ps read /proc/PID/environ. procps-ng 4.0.2 reads every
 * listed process's environment (into memory: it prints it only with `e`) whenever it shows a
 * command name (`args`, `cmd`, `comm`, `command`, `ucmd`, `ucomm`, and the default formats, which
 * show one), or sorts by one; traced column by column (`ps -A -o pid,COL` under strace). A column
 * not in this list, or a format only known at run time, counts as reading them.
 */
const NO_ENVIRON_COLUMNS = new Set(
  [
    '%cpu %mem ag_id ag_nice atime blocked bsdstart bsdtime c caught cgname cgroup cgroupns class cls',
    'context cp cpuid cputime cputimes cuc cuu drs dsiz egid egroup eip esp etime etimes euid euser',
    'exe f fgid fgroup flag flags fname fsgid fsgroup fsuid fsuser fuid fuser gid group ignored',
    'intpri ipcns label lastcpu lim longtname lsession lstart luid lwp lxc m_drs m_size m_trs machine',
    'maj_flt majflt min_flt minflt mntns netns ni nice nlwp numa oom oomadj opri ouid pagein pcpu',
    'pending pgid pgrp pid pidns pmem policy ppid pri pri_api pri_bar pri_baz pri_foo priority psr',
    'pss rbytes rchars rgid rgroup rops rss rssize rsz rtprio ruid ruser s sched seat sess session',
    'sgi_p sgi_rss sgid sgroup sid sig sig_block sig_catch sig_ignore sig_pend sigcatch sigignore',
    'sigmask size slice spid stackp start start_stack start_time stat state stime suid supgid supgrp',
    'suser svgid svgroup svuid svuser sz tgid thcount tid time timens times tname tpgid trs trss tsig',
    'tsiz tt tty tty4 tty8 uid uid_hack uname unit user userns uss util utsns uunit vsize vsz wbytes',
    'wcbytes wchan wchars wname wops zone',
  ]
    .join(' ')
    .split(' '),
);

/** Options that only select processes or lay the listing out: they add no column (traced with `-o pid`). */
const LAYOUT_OPTIONS = new Set([
  '-C',
  '-G',
  '-g',
  '-p',
  '-q',
  '-s',
  '-t',
  '-u',
  '-U',
  '--ppid',
  '--pid',
  '--quick-pid',
  '--sid',
  '--tty',
  '--user',
  '--User',
  '--group',
  '--Group',
  '-A',
  '-e',
  '-a',
  '-d',
  '-N',
  '--deselect',
  '-H',
  '--forest',
  '-w',
  '--cols',
  '--columns',
  '--width',
  '--rows',
  '--lines',
  '--headers',
  '--no-headers',
  '--no-heading',
  '-L',
  '-T',
  '-m',
  '--cumulative',
  '-o',
  '--format',
  '--sort',
]);
/** BSD letters of the same kind: selection (`a`, `x`, `r`, `T`, and the values of `p`, `q`, `t`, `U`), width, headers, threads. */
const LAYOUT_BSD = new Set([...'axrTwhHmpqtU', 'o', 'k']);

/** Every name a format or sort list may hold (`pid,comm=Name`, `-pcpu,+pid`): all of them, headers included, to be safe. */
function columns(list: string): string[] {
  return list
    .split(/[\s,]+/)
    .map((t) => t.replace(/^[+-]/, '').split(/[:=]/)[0])
    .filter((t) => t !== '');
}

/** Does this command line make ps read the environments of the processes it lists? */
function readsEnvironments(p: ParsedArgv, bsd: { letter: string; value: Arg | null }[]): boolean {
  const lists: (Arg | null)[] = [];
  let format = false;
  for (const o of p.options) {
    if (!LAYOUT_OPTIONS.has(o.name)) return true;
    if (o.name === '-o' || o.name === '--format' || o.name === '--sort') {
      lists.push(o.value);
      if (o.name !== '--sort') format = true;
    }
  }
  for (const w of bsd) {
    if (!LAYOUT_BSD.has(w.letter)) return true;
    if (w.letter === 'o' || w.letter === 'k') {
      lists.push(w.value);
      if (w.letter === 'o') format = true;
    }
  }
  // without a format of its own, ps shows its default columns (or $PS_FORMAT's): a command name
  if (!format) return true;
  return lists.some((v) => v === null || v.dynamic || columns(v.value).some((c) => !NO_ENVIRON_COLUMNS.has(c)));
}

function ps(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  let env: Span | null = p.options.find((o) => o.name === '-E')?.arg.span ?? null;
  const bsd: { letter: string; value: Arg | null }[] = [];
  const ops = p.operands;
  for (let i = 0; i < ops.length; i++) {
    const a = ops[i];
    if (a.dynamic) {
      b.unknownOption(a.value, a, 'ps', null, true);
      bsd.push({ letter: '?', value: null });
      continue;
    }
    if (/^[0-9,]+$/.test(a.value)) continue; // a list of pids
    if (!/^[A-Za-z]+$/.test(a.value)) {
      b.unknownOption(a.value, a, 'ps');
      bsd.push({ letter: '?', value: null });
      continue;
    }
    for (let j = 0; j < a.value.length; j++) {
      const ch = a.value[j];
      if (ch === 'e') env ??= a.span;
      if (PS_BSD_VALUE.has(ch)) {
        if (j === a.value.length - 1) {
          i++; // the value is the next word
          bsd.push({ letter: ch, value: ops[i] ?? null });
        } else bsd.push({ letter: ch, value: { ...a, value: a.value.slice(j + 1) } });
        break;
      }
      bsd.push({ letter: ch, value: null });
      if (!PS_BSD_FLAGS.has(ch)) {
        b.unknownOption(ch, a, 'ps');
        break;
      }
    }
  }
  if (env) b.add('Env', 'option', env, { target: '*', program: 'ps' });
  // the environments it reads to show a command name: secrets, even when not printed
  if (readsEnvironments(p, bsd)) b.path('Read', { value: '/proc/*/environ', dynamic: false, glob: true, span: b.cmd.span }, 'program');
  return { class: 'read-only', skipOperands: true };
}

export const psHooks: ProgramHooks = { module: 'ps.ts', operations: ps };
