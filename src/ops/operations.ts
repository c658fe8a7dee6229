/**
 * A walked command → its virtual operations and its three-valued class. Facts only: deciding
 * what they mean for the verdict happens in verdict/.
 */
import { posix } from 'node:path';
import type { Span } from '../syntax/ast.js';
import type { Arg, WalkedCommand } from '../walk/types.js';
import { SHELLS, WRAPPER_OPTIONS, PRIVILEGE_WRAPPERS } from '../walk/wrapper-table.js';
import { scanOptions, unwrap } from '../walk/unwrap-wrappers.js';
import { PROC_SUBST_WORD } from '../expand/word.js';
import { interpreterFamily } from './interpreters.js';
import type { GlobMatchOptions, PathClass, PathClassifier } from '../paths/classify.js';
import type { LineLinks } from '../walk/line-links.js';
import type { MadeView } from '../paths/readings.js';
import type { SpecTable } from '../programs/load-specs.js';
import type { ArgRole, CommandClass } from '../programs/spec-types.js';
import type { Operation, OpKind, OpOrigin } from './types.js';
import { effectiveClass, extraOps, hasEffectfulOption, operandRoles, parseArgv, type ParsedArgv } from './parse-argv.js';
import { PROGRAM_HANDLERS } from './program-handlers.js';
import { LANDING_PROGRAMS, landingOps } from './landing.js';
import { patchTargets } from './patch-targets.js';
import { redirectOps } from './redirects.js';
import { projectRepoCode } from './project-config/registry.js';
import { describeRepoCode } from './project-config/types.js';

export interface OpsEnv {
  specs: SpecTable;
  classifier: PathClassifier;
  home: string;
  /** The analysis context's environment (where git, cargo… look for their configuration). */
  vars?: Readonly<Record<string, string | undefined>>;
  /** Links and directories made earlier on the line (paths are resolved through them). */
  links?: LineLinks;
  /** Text of a script file a program runs (`sed -f F`, `awk -f F`), bounded like `source`; null when unreadable. */
  readScript: (path: string) => string | null;
}

/** An option the program's description does not list, or a word that may be one. */
/** An option an allow rule must name to cover (spec `named`, find's `-delete`/`-exec`). */
export interface NamedOption {
  option: string;
  why: string;
  span: Span;
}

export interface UnknownOption {
  /** The option as read (`-x`, `--frob`), or the dynamic word as written. */
  option: string;
  /** The word it came from (`-lax`), when that differs. */
  word: string;
  /** Program and subcommands whose table was consulted (`git log`). */
  program: string;
  /** The documentation the table was checked against, when it is complete. */
  checkedAgainst: string | null;
  /** A word only known at run time that may expand to an option. */
  dynamic: boolean;
  span: Span;
}

export interface CommandFacts {
  command: number;
  /** Program and subcommands (`git commit`), for messages. */
  label: string;
  class: CommandClass;
  /** No spec knows this program. */
  unknownProgram: boolean;
  /** The working directory is outside the workspace and temp dirs (null when inside or unknown). */
  cwdOutside: string | null;
  ops: Operation[];
  unknownOptions: UnknownOption[];
  namedOptions: NamedOption[];
}

/** Builds operations for one command; handlers use it too. */
export class OpBuilder {
  readonly ops: Operation[] = [];
  readonly unknownOptions: UnknownOption[] = [];
  readonly namedOptions: NamedOption[] = [];
  /** Stamped on every operation added (explain shows where each came from). */
  private origin: OpOrigin | undefined;
  constructor(
    readonly cmd: WalkedCommand,
    readonly env: OpsEnv,
  ) {}

  add(kind: OpKind, source: Operation['source'], span: Span, extra: Partial<Operation> = {}): void {
    const op: Operation = { kind, command: this.cmd.id, source, dynamic: false, glob: false, span, ...extra };
    if (this.origin !== undefined && op.origin === undefined) op.origin = this.origin;
    this.ops.push(op);
  }

  /** Runs `make` with `origin` stamped on the operations it adds (the innermost origin wins). */
  from<T>(origin: OpOrigin, make: () => T): T {
    const outer = this.origin;
    this.origin = origin;
    try {
      return make();
    } finally {
      this.origin = outer;
    }
  }

  /** A path operation for `arg`, resolved against the command's cwd and classified. */
  path(kind: OpKind, arg: Arg, source: Operation['source']): void {
    if (arg.value === '-' && !arg.dynamic) return; // stdin / stdout
    if (PROC_SUBST_WORD.test(arg.value)) arg = { ...arg, value: '/dev/fd/63' }; // a pipe from `<(…)`
    const remoteSpec = /^(?:[A-Za-z0-9_.-]+@)?([A-Za-z0-9_.-]+):(?!\/\/)/.exec(arg.value);
    if (remoteSpec && !arg.value.startsWith('/') && !arg.value.startsWith('.') && (kind === 'Read' || kind === 'Write')) {
      // `host:path` (scp, rsync): the path is on another machine.
      this.add('Network', source, arg.span, { host: remoteSpec[1], target: arg.value });
      return;
    }
    if (this.cmd.context.remote) {
      this.add(kind, source, arg.span, { target: arg.value, host: this.cmd.context.remote, dynamic: arg.dynamic, glob: arg.glob });
      return;
    }
    const cwd = this.cmd.cwd;
    if (arg.dynamic || (cwd === null && !arg.value.startsWith('/'))) {
      this.add(kind, source, arg.span, { target: arg.value, dynamic: true, glob: arg.glob });
      return;
    }
    // Deleting acts on the name: `rm link` removes the link, `rm -rf link/` what it points to.
    const follow = kind !== 'Delete' || /\/$/.test(arg.value);
    // Every reading the kernel may take (a link made earlier on the line may or may not exist):
    // each is an operation of its own, so the strictest decides.
    for (const r of this.readings(arg.value, cwd ?? '/', arg.glob, kind === 'Delete' ? 'delete' : 'follow')) {
      if (r.path === undefined) {
        this.add(kind, source, arg.span, { target: arg.value, dynamic: true, glob: arg.glob });
        continue;
      }
      this.add(kind, source, arg.span, { path: r.path, target: arg.value, glob: arg.glob, classes: this.env.classifier.classify(r.path, arg.glob, follow, this.globOptions()) });
    }
  }

  private readings(value: string, cwd: string, glob: boolean, kind: 'follow' | 'delete') {
    return this.env.classifier.readings(value, cwd, this.madeView(), glob, kind);
  }

  /** The glob options the line may have turned on before this command (`shopt -s dotglob`). */
  private globOptions(): GlobMatchOptions | undefined {
    const o = this.cmd.globOptions;
    return o.size === 0 ? undefined : { dotglob: o.has('dotglob'), nocaseglob: o.has('nocaseglob') };
  }

  private madeView(): MadeView | null {
    return this.env.links === undefined || this.env.links.empty ? null : this.env.links.viewFor(this.cmd, this.env.classifier);
  }

  /**
   * Is `arg` a directory (on disk or made earlier on the line)? The working directory, the
   * workspace roots and home are, whether or not they exist here. Null: some reading may be one.
   */
  isDirectory(arg: Arg): boolean | null {
    if (arg.dynamic || arg.glob) return null;
    const cwd = this.cmd.cwd;
    if (cwd === null && !arg.value.startsWith('/')) return null;
    let answer: boolean | null = false;
    const made = this.madeView();
    for (const r of this.readings(arg.value, cwd ?? '/', false, 'follow')) {
      if (r.path === undefined) return null;
      const real = this.env.classifier.physical(r.path);
      if (r.path === cwd || r.path === this.env.home || this.env.classifier.workspaceRoots.includes(real) || this.env.classifier.isDirectory(real)) return true;
      const dir = made?.entries.find((e) => e.path === real && (e.kind === 'dir' || e.kind === 'mirror'));
      if (dir) answer = dir.certain ? true : null;
    }
    return answer;
  }

  /** What `scan` finds in the tree a source names (resolved like any path); null: too large or unknown. */
  treeBelow(arg: Arg, scan: (dir: string) => string[] | null): string[] | null {
    if (arg.dynamic) return null;
    const cwd = this.cmd.cwd;
    if (cwd === null && !arg.value.startsWith('/')) return null;
    const out: string[] = [];
    for (const r of this.readings(arg.value, cwd ?? '/', false, 'follow')) {
      if (r.path === undefined) return null;
      const found = scan(this.env.classifier.physical(r.path));
      if (found === null) return null;
      out.push(...found);
    }
    return [...new Set(out)];
  }

  /** The single path the kernel reaches for `value` (symlinks followed); null when it is not one known path. */
  physicalOf(value: string): string | null {
    const cwd = this.cmd.cwd;
    if (cwd === null && !value.startsWith('/')) return null;
    const readings = this.readings(value, cwd ?? '/', false, 'follow');
    return readings.length === 1 && readings[0].path !== undefined ? this.env.classifier.physical(readings[0].path) : null;
  }

  /** Classes of every reading of `value` (relative to the command's cwd); null when one is unknown. */
  classesOf(value: string): PathClass[] | null {
    const cwd = this.cmd.cwd;
    if (cwd === null && !value.startsWith('/')) return null;
    const out = new Set<PathClass>();
    for (const r of this.readings(value, cwd ?? '/', false, 'follow')) {
      if (r.path === undefined) return null;
      for (const c of this.env.classifier.classify(r.path, false)) out.add(c);
    }
    return [...out];
  }

  /** Classes of every reading of a directory this command works in; null when one is unknown. */
  directoryClasses(dir: string): PathClass[] | null {
    const out = new Set<PathClass>();
    for (const r of this.readings(dir, '/', false, 'follow')) {
      if (r.path === undefined) return null;
      for (const c of this.env.classifier.classify(r.path, false)) out.add(c);
    }
    return [...out];
  }

  /** An option that changes what the program is: an allow rule must name it. */
  namedOption(option: string, word: Arg, why: string): void {
    this.namedOptions.push({ option, why, span: word.span });
  }

  /** An option the program's table does not list (or a dynamic word that may be one). */
  unknownOption(option: string, word: Arg, program: string, checkedAgainst: string | null = null, dynamic = false): void {
    this.unknownOptions.push({ option, word: word.value, program, checkedAgainst, dynamic, span: word.span });
  }

  /** A fixed file the program prints or sends (`~/.aws/credentials`). */
  fixedRead(path: string, source: Operation['source']): void {
    const value = path.startsWith('~/') ? `${this.env.home.replace(/\/+$/, '')}/${path.slice(2)}` : path;
    this.path('Read', { value, dynamic: false, glob: false, span: this.cmd.span }, source);
  }

  role(role: ArgRole, arg: Arg, source: Operation['source']): void {
    switch (role) {
      case 'read':
        return this.path('Read', arg, source);
      case 'write':
      case 'append':
        return this.path('Write', arg, source);
      case 'delete':
        return this.path('Delete', arg, source);
      case 'list':
        return this.path('List', arg, source);
      case 'exec':
        // A script operand (`python x.py`) is a file; an option value (`-m module`, `--pre prog`) names a program.
        if (source === 'operand') return this.path('Exec', arg, source);
        return this.add('Exec', source, arg.span, { program: arg.value, target: arg.value, dynamic: arg.dynamic });
      case 'url':
        return this.add('Network', source, arg.span, { url: arg.value, host: hostOf(arg.value), target: arg.value, dynamic: arg.dynamic });
      case 'host':
        return this.add('Network', source, arg.span, { host: arg.value.replace(/^[^@]*@/, ''), target: arg.value, dynamic: arg.dynamic });
      default:
        return;
    }
  }
}

export function hostOf(url: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/?#]+)/i.exec(url);
  if (m) return m[1].toLowerCase();
  const bare = /^(?:[^@/]*@)?([A-Za-z0-9.-]+\.[A-Za-z]{2,}|\d+\.\d+\.\d+\.\d+|localhost)(?::\d+)?(?:\/|$)/.exec(url);
  return bare ? bare[1].toLowerCase() : undefined;
}

/** Where the real programs live: `/usr/bin/rm` is rm, `./rm` is not. */
export const SYSTEM_BIN_DIRS = new Set([
  '/bin', '/sbin', '/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin', '/opt/homebrew/bin', '/opt/homebrew/sbin',
  '/usr/libexec', '/run/current-system/sw/bin',
]);

/** PROGRAM_HANDLERS as a Map: every command looks its name up (own-property semantics kept). */
const HANDLERS: ReadonlyMap<string, (typeof PROGRAM_HANDLERS)[string]> = new Map(Object.entries(PROGRAM_HANDLERS));

/** Changing directory is not acting there. */
const CWD_CHANGERS = new Set(['cd', 'pushd', 'popd']);

const WRAPPERS = new Set([...Object.keys(WRAPPER_OPTIONS), 'eval', 'source', '.']);
/** Wrappers that run their command later or elsewhere: they change system state themselves. */
const SCHEDULERS = new Set(['at', 'batch']);

export function commandFacts(cmd: WalkedCommand, env: OpsEnv): CommandFacts {
  const b = new OpBuilder(cmd, env);
  if (cmd.assignments.length > 0) {
    b.from({ handler: 'assignment' }, () => {
      for (const a of cmd.assignments) b.add('Env', 'program', cmd.span, { target: a.name });
    });
  }
  if (cmd.redirects.length > 0) b.from({ handler: 'redirect' }, () => redirectOps(b, cmd.redirects));
  let label = cmd.program ?? cmd.programRaw;
  const cwdOutside =
    cmd.cwd !== null && !cmd.context.remote && cmd.program !== null && !CWD_CHANGERS.has(cmd.program) && (b.directoryClasses(cmd.cwd) ?? ['outside']).includes('outside')
      ? cmd.cwd
      : null;
  const facts = (cls: CommandClass, unknownProgram = false): CommandFacts => ({
    command: cmd.id,
    label,
    class: cls,
    unknownProgram,
    cwdOutside,
    ops: b.ops,
    unknownOptions: b.unknownOptions,
    namedOptions: b.namedOptions,
  });

  if (cmd.program === null) {
    if (cmd.programRaw !== '') {
      b.add('Unknown', 'program', cmd.span, { target: cmd.programRaw, dynamic: true, origin: { handler: 'unknown-program' } });
      return facts('unknown');
    }
    return facts('read-only'); // assignments or redirects only
  }
  if (cmd.calls && !cmd.calls.maybe) return facts('read-only'); // the body is walked at the call
  const program = cmd.program;
  if (cmd.programPath !== null && !SYSTEM_BIN_DIRS.has(posix.dirname(posix.normalize(cmd.programPath)))) {
    // `./cat`, `/tmp/cat`: a file named like a known program is not that program.
    b.from({ handler: 'program-path', program }, () => b.path('Exec', { value: cmd.programPath!, dynamic: false, glob: false, span: cmd.span }, 'program'));
    return facts('unknown');
  }

  if (SHELLS.has(program) || WRAPPERS.has(program)) return b.from({ handler: 'wrapper', program }, () => wrapperFacts(b, cmd, facts));

  const spec = env.specs.get(program);
  const handler = HANDLERS.get(program);
  if (!spec) {
    const handled = b.from({ handler: 'program-handler', program }, () => handler?.(b, null));
    if (handled) return facts(handled.class ?? 'unknown');
    b.from({ handler: 'unknown-program', program }, () => {
      b.add('Unknown', 'program', cmd.span, { program, target: program });
      for (const a of cmd.args) if (a.dynamic) b.add('Unknown', 'operand', a.span, { target: a.value, dynamic: true });
    });
    return facts('unknown', true);
  }
  const parsed: ParsedArgv = parseArgv(spec, cmd.args);
  label = [program, ...parsed.subcommands].join(' ');
  const specFile = env.specs.fileOf?.(program) ?? '(command spec)';
  const handled = b.from({ handler: 'program-handler', program }, () => handler?.(b, parsed)) ?? {};
  // A handler that reads the argv in its own way (tar's old-style bundle) gives its own parse.
  const p = handled.parsed ?? parsed;
  let cls = handled.class ?? effectiveClass(p);
  if (p.unknownSubcommand !== null) cls = 'unknown';
  if (cls === 'read-only' && !cmd.context.remote) {
    // A read-only command that loads project configuration runs what that configuration names.
    for (const found of projectRepoCode(program, cmd, p, env.home, env.vars)) {
      const file = found.kind !== 'unknown' && found.where.startsWith('/') ? found.where : undefined;
      b.add('Exec', 'config', cmd.span, { program: found.value ?? undefined, path: file, target: describeRepoCode(found), dynamic: found.kind === 'unknown' || found.value === null, origin: { handler: 'project-config', program } });
      cls = 'unknown';
    }
  }
  if (!handled.skipOperands) {
    const roles = operandRoles(p);
    const operand = (n: number, role: string) => ({ spec: specFile, program: label, operand: n, role });
    // `ls` with no operand lists the working directory.
    if (p.operands.length === 0 && p.spec.operands?.[0] === 'list') b.from(operand(1, 'list'), () => b.role('list', { value: '.', dynamic: false, glob: false, span: cmd.span }, 'operand'));
    p.operands.forEach((a, i) => b.from(operand(i + 1, roles[i]), () => b.role(roles[i], a, 'operand')));
    if (LANDING_PROGRAMS.has(program)) b.from({ handler: 'landing', program }, () => landingOps(b, program, p));
    if (program === 'patch') b.from({ handler: 'patch-targets', program }, () => patchTargets(b, p));
  }
  // Option values keep their roles even when a handler reads the operands itself (`awk -i lib`).
  if (!handled.skipOptions) optionOps(b, p, specFile, label);
  if (!handled.optionsChecked) reportUnknownOptions(b, p, program);
  if (p.spec.reads !== undefined && p.spec.reads.length > 0) {
    b.from({ spec: specFile, program: label, field: 'reads' }, () => {
      for (const path of p.spec.reads ?? []) b.fixedRead(path, 'program');
    });
  }
  if (readsProgramFromStdin(program, p)) b.add('Exec', 'stdin', cmd.span, { program, target: 'stdin', origin: { handler: 'stdin-program', program } });
  for (const x of extraOps(p)) {
    if (b.ops.some((o) => o.kind === x)) continue;
    // From the spec itself, or from an option that has the effect (`--exec`).
    const option = p.spec.ops?.includes(x) ? undefined : p.options.find((o) => o.spec?.ops?.includes(x))?.name;
    b.add(x, 'program', cmd.span, { program, origin: option !== undefined ? { spec: specFile, program: label, option } : { spec: specFile, program: label, field: 'ops' } });
  }
  return facts(cls);
}

/** Operations of option values (`sort -o FILE`, `jq --rawfile NAME FILE`) and of options that print a fixed file. */
function optionOps(b: OpBuilder, p: ParsedArgv, specFile: string, label: string): void {
  for (const o of p.options) {
    const spec = o.spec;
    if (!spec) continue;
    if (spec.named) b.namedOption(o.name, o.arg, spec.named);
    const origin = (role?: string): OpOrigin => ({ spec: specFile, program: label, option: o.name, ...(role !== undefined ? { role } : {}) });
    if (spec.values) {
      [o.value, ...o.more].forEach((v, k) => {
        if (v && spec.values![k]) b.from(origin(spec.values![k]), () => b.role(spec.values![k], v, 'option'));
      });
    } else if (o.value && spec.role) b.from(origin(spec.role), () => b.role(spec.role!, o.value!, 'option'));
    if (spec.reads !== undefined && spec.reads.length > 0) {
      b.from({ ...origin(), field: 'reads' }, () => {
        for (const path of spec.reads ?? []) b.fixedRead(path, 'option');
      });
    }
    // `--files0-from=F` (sort, wc, du): the files read are named inside F.
    if (o.name === '--files0-from') b.add('Read', 'option', o.arg.span, { target: 'files listed in ' + (o.value?.value ?? '?'), dynamic: true, origin: origin() });
  }
}

/**
 * Options the table in force does not list, and words only known at run time where an option
 * may stand when the table has options with effects: never taken as harmless flags.
 */
export function reportUnknownOptions(b: OpBuilder, p: ParsedArgv, program: string): void {
  const label = (depth: number) => [program, ...p.subcommands.slice(0, depth)].join(' ');
  for (const o of p.options) {
    if (o.spec === undefined) b.unknownOption(o.name, o.arg, label(o.depth), o.table.complete ?? null);
  }
  for (const m of p.maybeOptions) {
    if (hasEffectfulOption(m.table)) b.unknownOption(m.arg.value, m.arg, program, m.table.complete ?? null, true);
  }
}

const NOT_RUNNING = new Set(['-V', '--version', '-v', '-h', '--help', '-m', '-c', '-e', '-E', '-r', '-p', '--eval', '--print']);

/** `python3`, `python3 -`, `perl` with no script and no inline code run what stdin holds. */
function readsProgramFromStdin(program: string, parsed: ParsedArgv): boolean {
  const family = interpreterFamily(program);
  if (family === null || family === 'awk' || family === 'deno' || family === 'osascript') return false;
  if (parsed.options.some((o) => NOT_RUNNING.has(o.name)) || parsed.subcommands.length > 0) return false;
  const first = parsed.operands[0];
  return first === undefined || (first.value === '-' && !first.dynamic);
}

/** Wrappers and shells are not the risk themselves: what they run is walked separately. */
function wrapperFacts(b: OpBuilder, cmd: WalkedCommand, facts: (c: CommandClass) => CommandFacts): CommandFacts {
  const program = cmd.program!;
  if (PRIVILEGE_WRAPPERS.has(program)) b.add('Privilege', 'program', cmd.span, { program });
  if (SCHEDULERS.has(program)) b.add('System', 'program', cmd.span, { program });
  if (program === 'ssh') {
    const host = cmd.args[scanOptions(cmd.args, 0, WRAPPER_OPTIONS.ssh).index];
    b.add('Network', 'program', host?.span ?? cmd.span, { host: host?.value.replace(/^[^@]*@/, ''), program });
  }
  if (program === 'time') {
    const scan = scanOptions(cmd.args, 0, WRAPPER_OPTIONS.time);
    const out = scan.values.get('-o') ?? scan.values.get('--output');
    if (out) b.path('Write', out, 'option');
  }
  // `env` with no command prints the environment, like printenv (`env -i` starts from nothing).
  if (program === 'env' && unwrap('env', cmd.args)?.inner.kind === 'none' && !cmd.args.some((a) => /^(-[a-zA-Z0-9]*i|--ignore-environment|-)$/.test(a.value))) {
    b.add('Env', 'program', cmd.span, { target: '*', program: 'env' });
  }
  if (cmd.execsStdin) {
    // Input analysed from a static heredoc, here-string or echo is fine; anything else is unknown code.
    const analysed = cmd.stdinText !== null;
    if (!analysed) b.add('Exec', 'stdin', cmd.span, { program, target: 'stdin' });
    return facts(analysed ? 'read-only' : 'unknown');
  }
  if (SHELLS.has(program)) {
    const file = cmd.args.find((a) => !a.value.startsWith('-') && !a.value.startsWith('+'));
    const commandMode = cmd.args.some((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a.value));
    if (file && !commandMode) {
      b.path('Read', file, 'operand');
      b.path('Exec', file, 'operand');
      return facts('unknown');
    }
  }
  if (program === 'source' || program === '.') {
    const file = cmd.args[0];
    if (file) b.add('Exec', 'operand', file.span, { program: file.value, target: file.value, dynamic: file.dynamic });
  }
  return facts('read-only');
}
