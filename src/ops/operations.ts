/**
 * A walked command → its virtual operations and its three-valued class. Facts only: deciding
 * what they mean for the verdict happens in verdict/.
 */
import { asksOnlyForHelp } from '../programs/help-only.js';
import { posix } from 'node:path';
import picomatch from 'picomatch';
import type { WalkedCommand } from '../walk/types.js';
import { registry } from '../programs/registry.js';
import { scanOptions, wrapperOptions } from '../programs/wrapper-options.js';
import { runsPrivileged, unwrap } from '../walk/unwrap-wrappers.js';
import { interpreterFamily } from '../programs/interpreters.js';
import type { CommandClass, CommandSpec, OptionSpec } from '../programs/spec-types.js';
import type { Operation, OpOrigin } from './types.js';
import { OpBuilder, type NamedOption, type OpsEnv, type UnknownOption } from './op-builder.js';
import { chdirDirectory, chdirSteps } from '../programs/chdir.js';
import { effectiveClass, extraOps, hasEffectfulOption, hasOptionBeyondReading, operandRoles, parseArgv, type ParsedArgv } from '../programs/argv.js';
import { PROGRAM_HANDLERS, type Handler } from './program-handlers.js';
import { TAG_HOOKS } from '../programs/hooks/index.js';
import { LANDING_PROGRAMS, landingOps } from './landing.js';
import { patchTargets } from './patch-targets.js';
import { specWalk } from '../programs/walk-spec.js';
import { globListings } from './glob-listings.js';
import { DIRECTORY_BUILTINS } from '../walk/shell-state.js';
import { redirectOps } from './redirects.js';
import { projectRepoCode } from './project-config/registry.js';
import { describeRepoCode } from './project-config/types.js';

export { OpBuilder, hostOf, type NamedOption, type OpsEnv, type UnknownOption } from './op-builder.js';

export interface CommandFacts {
  command: number;
  /** Program and subcommands (`git commit`), for messages. */
  label: string;
  class: CommandClass;
  /** No spec knows this program. */
  unknownProgram: boolean;
  /** The working directory is outside the workspace, shared temp included (null when inside or unknown). */
  cwdOutside: string | null;
  ops: Operation[];
  unknownOptions: UnknownOption[];
  namedOptions: NamedOption[];
}

/** Where the real programs live: `/usr/bin/rm` is rm, `./rm` is not. */
export const SYSTEM_BIN_DIRS = new Set([
  '/bin',
  '/sbin',
  '/usr/bin',
  '/usr/sbin',
  '/usr/local/bin',
  '/usr/local/sbin',
  '/opt/homebrew/bin',
  '/opt/homebrew/sbin',
  '/usr/libexec',
  '/run/current-system/sw/bin',
]);

/** PROGRAM_HANDLERS as a Map: every command looks its name up (own-property semantics kept). */
const HANDLERS: ReadonlyMap<string, (typeof PROGRAM_HANDLERS)[string]> = new Map(Object.entries(PROGRAM_HANDLERS));

/** Every interpreter (`python3.12`, `nodejs`…) without hooks of its own shares the interpreters' (programs/hooks/interpreter.ts). */
function interpreterHandler(program: string): Handler | undefined {
  const family = interpreterFamily(program);
  return family !== null && family !== 'awk' ? TAG_HOOKS.interpreter?.operations : undefined;
}

/** Wrappers and shells are judged by what they run; `source` and `.` by the file they read. */
const runsOther = (program: string): boolean => registry.has(program, 'wrapper') || registry.has(program, 'shell') || program === 'source' || program === '.';
/** Wrappers that run their command later or elsewhere: they change system state themselves. */
const SCHEDULERS = new Set(['at', 'batch']);

export function commandFacts(cmd: WalkedCommand, env: OpsEnv): CommandFacts {
  const b = new OpBuilder(cmd, env);
  const facts = programFacts(cmd, b);
  // The shell lists the directory of a glob no operation above reaches already (`echo ~/.ssh/*`).
  if (cmd.args.some((a) => a.glob)) {
    const reached = new Set(facts.ops.map((op) => `${op.span.start}:${op.span.end}`));
    b.from({ handler: 'glob' }, () =>
      globListings(
        b,
        cmd.args.filter((a) => !reached.has(`${a.span.start}:${a.span.end}`)),
      ),
    );
  }
  return facts;
}

function programFacts(cmd: WalkedCommand, b: OpBuilder): CommandFacts {
  const env = b.env;
  if (cmd.assignments.length > 0) {
    b.from({ handler: 'assignment' }, () => {
      for (const a of cmd.assignments) b.add('Env', 'program', cmd.span, { target: a.name });
    });
  }
  if (cmd.redirects.length > 0) b.from({ handler: 'redirect' }, () => redirectOps(b, cmd.redirects));
  let label = cmd.program ?? cmd.programRaw;
  const cwdOutside =
    cmd.cwd !== null &&
    !cmd.context.remote &&
    cmd.program !== null &&
    // changing directory is not acting there
    !DIRECTORY_BUILTINS.has(cmd.program) &&
    (b.directoryClasses(cmd.cwd) ?? ['outside']).some((c) => c === 'outside' || c === 'temp')
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

  if (runsOther(program)) return b.from({ handler: 'wrapper', program }, () => wrapperFacts(b, cmd, facts));

  const spec = env.specs.get(program);
  const handler = HANDLERS.get(program) ?? interpreterHandler(program);
  if (!spec) {
    const handled = b.from({ handler: 'program-handler', program }, () => handler?.(b, null));
    if (handled) return facts(handled.class ?? 'unknown');
    b.from({ handler: 'unknown-program', program }, () => {
      b.add('Unknown', 'program', cmd.span, { program, target: program });
      for (const a of cmd.args) if (a.dynamic) b.add('Unknown', 'operand', a.span, { target: a.value, dynamic: true });
    });
    return facts('unknown', true);
  }
  const described = specFacts(b, program, spec, handler);
  label = described.label;
  return facts(described.cls);
}

/** A program its spec describes: the parsed argv's roles, its hooks, configuration it loads, fixed reads. */
function specFacts(b: OpBuilder, program: string, spec: CommandSpec, handler: Handler | undefined): { label: string; cls: CommandClass } {
  const { cmd, env } = b;
  const parsed: ParsedArgv = parseArgv(spec, cmd.args);
  const label = [program, ...parsed.subcommands].join(' ');
  // `node --version`, `git commit -h`: prints and exits; only configuration the program loads before it reads its argv still counts.
  if (asksOnlyForHelp(spec, parsed))
    return { label, cls: cmd.context.remote || !projectConfigOps(b, program, parsed, chdirDirectory(parsed, cmd.cwd) ?? cmd.cwd) ? 'read-only' : 'unknown' };
  const specFile = env.specs.fileOf?.(program) ?? '(command spec)';
  // `make -C DIR`, `git -C DIR`: the program's own paths resolve in the directory it changes to.
  const dir = chdirOps(b, parsed, specFile, label);
  const handled = b.within(dir, () => b.from({ handler: 'program-handler', program }, () => handler?.(b, parsed))) ?? {};
  // A handler that reads the argv in its own way (tar's old-style bundle) gives its own parse.
  const p = handled.parsed ?? parsed;
  let cls = handled.class ?? effectiveClass(p);
  if (p.unknownSubcommand !== null) cls = 'unknown';
  if (cls === 'read-only' && !cmd.context.remote && projectConfigOps(b, program, p, dir)) cls = 'unknown';
  if (!handled.skipOperands) b.within(dir, () => operandOps(b, program, p, specFile, label));
  // Option values keep their roles even when a handler reads the operands itself (`awk -i lib`).
  // An interpreter runs code by trade: `Bash(python3:*)` already allows `python3 any.py`, so its
  // `-c`/`-e`/`-m` are not singled out as options a rule must name.
  const interpreter = interpreterFamily(program) !== null || registry.has(program, 'interpreter');
  if (!handled.skipOptions) b.within(dir, () => optionOps(b, p, specFile, label, interpreter));
  if (!handled.optionsChecked) reportUnknownOptions(b, p, program);
  fixedFiles(b, spec, p, specFile);
  if (handled.skipSpecOps) return { label, cls };
  if (readsProgramFromStdin(program, p)) b.add('Exec', 'stdin', cmd.span, { program, target: 'stdin', origin: { handler: 'stdin-program', program } });
  specExtraOps(b, program, p, specFile, label);
  return { label, cls };
}

/**
 * The files the program reads (`reads`) and writes (`writes`: its logs, caches, settings, a
 * daemon's socket) whatever its operands, declared at its own level or at any level above the
 * subcommand (docker's ~/.docker/config.json under every `docker …`), each level once.
 */
function fixedFiles(b: OpBuilder, spec: CommandSpec, p: ParsedArgv, specFile: string): void {
  const levels: { spec: CommandSpec; label: string }[] = [{ spec, label: b.cmd.program ?? '' }];
  let s: CommandSpec | undefined = spec;
  for (const name of p.subcommands) {
    const next: unknown = s?.subcommands?.[name];
    s = typeof next === 'object' && next !== null && !('alias' in next) ? (next as CommandSpec) : undefined;
    if (!s) break;
    levels.push({ spec: s, label: `${levels[levels.length - 1].label} ${name}` });
  }
  // the level the parser stopped at is always one of them (a subcommand it resolved differently included)
  if (levels[levels.length - 1].spec !== p.spec) levels.push({ spec: p.spec, label: [b.cmd.program ?? '', ...p.subcommands].join(' ') });
  for (const level of levels) {
    if (level.spec.reads?.length)
      b.from({ spec: specFile, program: level.label, field: 'reads' }, () => {
        for (const path of level.spec.reads ?? []) b.fixedRead(path, 'program');
      });
    if (level.spec.writes?.length)
      b.from({ spec: specFile, program: level.label, field: 'writes' }, () => {
        for (const path of level.spec.writes ?? []) b.fixedWrite(path, 'program');
      });
  }
}

/**
 * The directories the program changes to (options of role `chdir`), each a List operation where
 * it is written (`make -C ~` works in home); the directory its paths resolve in after them.
 */
function chdirOps(b: OpBuilder, p: ParsedArgv, specFile: string, label: string): string | null {
  const steps = chdirSteps(p, b.cmd.cwd);
  let before = b.cmd.cwd;
  let k = 0;
  for (const o of p.options) {
    if (o.spec?.role !== 'chdir' || o.value === null) continue;
    const value = o.value;
    const after = steps[k++];
    b.within(before, () =>
      b.from({ spec: specFile, program: label, option: o.name, role: 'chdir' }, () => {
        // `a/..`: chdir follows a link named `a`, so where it lands is not known (programs/chdir.ts).
        if (after === null && before !== null && !value.dynamic) b.add('List', 'option', value.span, { target: value.value, dynamic: true });
        else b.path('List', value, 'option');
      }),
    );
    before = after;
  }
  return before;
}

/** A read-only command that loads project configuration runs what that configuration names: true when it names some. */
function projectConfigOps(b: OpBuilder, program: string, p: ParsedArgv, dir: string | null): boolean {
  let found = false;
  for (const code of projectRepoCode(program, b.cmd, p, b.env.home, b.env.vars, dir)) {
    const file = code.kind !== 'unknown' && code.where.startsWith('/') ? code.where : undefined;
    b.add('Exec', 'config', b.cmd.span, {
      program: code.value ?? undefined,
      path: file,
      target: describeRepoCode(code),
      dynamic: code.kind === 'unknown' || code.value === null,
      origin: { handler: 'project-config', program },
    });
    found = true;
  }
  return found;
}

/** Operations of the operands, by the roles the spec gives them; where copies land; files a diff names. */
function operandOps(b: OpBuilder, program: string, p: ParsedArgv, specFile: string, label: string): void {
  const roles = operandRoles(p);
  const operand = (n: number, role: string) => ({ spec: specFile, program: label, operand: n, role });
  // A program that walks (`cp -r`, `ls -R`, `tree`) reads or lists the trees below its operands too.
  const walk = specWalk(p, mayBeAnyOption(b, p));
  const role = (r: (typeof roles)[number], a: ParsedArgv['operands'][number]) =>
    walk !== null && (r === 'read' || r === 'list') ? b.recursiveRead(a, walk, 'operand') : b.role(r, a, 'operand');
  // `ls` with no operand lists the working directory.
  if (p.operands.length === 0 && p.spec.operands?.[0] === 'list')
    b.from(operand(1, 'list'), () => role('list', { value: '.', dynamic: false, glob: false, span: b.cmd.span }));
  p.operands.forEach((a, i) => b.from(operand(i + 1, roles[i]), () => role(roles[i], a)));
  if (LANDING_PROGRAMS.has(program)) b.from({ handler: 'landing', program }, () => landingOps(b, program, p));
  if (program === 'patch') b.from({ handler: 'patch-targets', program }, () => patchTargets(b, p));
}

/** The operations the spec or an option adds (`ops`: curl's Network, `--exec`'s Exec), once each. */
function specExtraOps(b: OpBuilder, program: string, p: ParsedArgv, specFile: string, label: string): void {
  for (const x of extraOps(p)) {
    if (b.ops.some((o) => o.kind === x)) continue;
    // From the spec itself, or from an option that has the effect (`--exec`).
    const option = p.spec.ops?.includes(x) ? undefined : p.options.find((o) => o.spec?.ops?.includes(x))?.name;
    b.add(x, 'program', b.cmd.span, {
      program,
      origin: option !== undefined ? { spec: specFile, program: label, option } : { spec: specFile, program: label, field: 'ops' },
    });
  }
}

/** Roles of a value the program runs: a program, a shell command line, an argv. */
const RUNNING_ROLES: ReadonlySet<string | undefined> = new Set(['exec', 'shell-string', 'command']);

/**
 * An option whose value the program runs (`rg --pre PROG`, `tar --to-command=CMD`), or that runs
 * something (`ops: ["Exec"]`): an allow rule's `*` does not stand for it (`Bash(rg:*)` is not
 * `rg --pre sh`), the rule must name it.
 */
function runsSomething(spec: OptionSpec): boolean {
  return RUNNING_ROLES.has(spec.role) || (spec.values?.some((r) => RUNNING_ROLES.has(r)) ?? false) || (spec.ops?.includes('Exec') ?? false);
}

/** Operations of option values (`sort -o FILE`, `jq --rawfile NAME FILE`) and of options that print a fixed file. */
function optionOps(b: OpBuilder, p: ParsedArgv, specFile: string, label: string, interpreter: boolean): void {
  for (const o of p.options) {
    const spec = o.spec;
    if (!spec) continue;
    if (spec.named) b.namedOption(o.name, o.arg, spec.named);
    else if (!interpreter && runsSomething(spec)) b.namedOption(o.name, o.arg, `${label} runs what ${o.name} names`);
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
    if (o.name === '--files0-from')
      b.add('Read', 'option', o.arg.span, { target: 'files listed in ' + (o.value?.value ?? '?'), dynamic: true, origin: origin() });
  }
}

/**
 * Options the table in force does not list, and words only known at run time where an option
 * may stand when the table has options with effects: never taken as harmless flags.
 */
export function reportUnknownOptions(b: OpBuilder, p: ParsedArgv, program: string): void {
  const label = (depth: number) => [program, ...p.subcommands.slice(0, depth)].join(' ');
  for (const o of p.options) {
    if (o.spec === undefined) b.unknownOption(o.name, o.arg, label(o.depth), checkedAgainst(o.table));
  }
  for (const m of p.maybeOptions) {
    if (m.arg.glob && !m.arg.dynamic && m.arg.dashFirst !== true && m.arg.produced !== true) {
      // A glob is an option only if it meets a name that starts with a dash; such a name may be any option.
      const met = hasOptionBeyondReading(m.table) ? dashNamesMet(b, m.arg.value) : [];
      if (met === null) b.unknownOption(m.arg.value, m.arg, program, checkedAgainst(m.table), true);
      else for (const name of met) b.unknownOption(`${m.arg.value} → ${name}`, m.arg, program, checkedAgainst(m.table), true);
      continue;
    }
    const matters = m.arg.dashFirst === true ? hasOptionBeyondReading(m.table) : hasEffectfulOption(m.table);
    if (matters) b.unknownOption(m.arg.value, m.arg, program, checkedAgainst(m.table), true);
  }
}

/** May a word of this argv stand for any option? A glob may only where it meets a name that starts with a dash. */
function mayBeAnyOption(b: OpBuilder, p: ParsedArgv): boolean {
  return p.maybeOptions.some(({ arg }) =>
    arg.glob && !arg.dynamic && arg.dashFirst !== true && arg.produced !== true ? dashNamesMet(b, arg.value)?.length !== 0 : true,
  );
}

/**
 * The names starting with `-` in the working directory that the first segment of a relative glob
 * matches (`*`, `*.ts`, `[-]*`), read from the disk; null when the directory cannot be read.
 */
function dashNamesMet(b: OpBuilder, glob: string): string[] | null {
  const cwd = b.cmd.cwd;
  if (cwd === null || b.cmd.context.remote) return null;
  const names = b.env.classifier.namesIn(cwd);
  if (names === null) return null;
  const dashed = names.filter((n) => n.startsWith('-'));
  if (dashed.length === 0) return [];
  const segment = glob.split('/')[0];
  let match: (name: string) => boolean;
  try {
    match = picomatch(segment, { dot: true, nocase: true });
  } catch {
    return dashed; // a pattern picomatch cannot read may match anything
  }
  return dashed.filter((n) => match(n)).slice(0, 3);
}

/** The documentation a complete table was checked against, for the unknown-option message. */
function checkedAgainst(table: CommandSpec): string | null {
  return table.complete === true ? (table.source ?? null) : null;
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
  if (runsPrivileged(registry.get(program))) b.add('Privilege', 'program', cmd.span, { program });
  if (SCHEDULERS.has(program)) b.add('System', 'program', cmd.span, { program });
  if (program === 'ssh') {
    const host = cmd.args[scanOptions(cmd.args, 0, wrapperOptions(registry.get('ssh').spec)).index];
    b.add('Network', 'program', host?.span ?? cmd.span, { host: host?.value.replace(/^[^@]*@/, ''), program });
  }
  // A wrapper's own options that read a file (`xargs -a FILE`): read before it runs anything.
  const spec = registry.get(program).spec;
  if (spec !== undefined) {
    const specFile = b.env.specs.fileOf?.(program) ?? '(command spec)';
    for (const [name, value] of scanOptions(cmd.args, 0, wrapperOptions(spec)).values) {
      const o = spec.options?.[name];
      if (typeof o === 'object' && o.role === 'read') b.from({ spec: specFile, program, option: name, role: 'read' }, () => b.path('Read', value, 'option'));
    }
  }
  if (program === 'time') {
    const scan = scanOptions(cmd.args, 0, wrapperOptions(registry.get('time').spec));
    const out = scan.values.get('-o') ?? scan.values.get('--output');
    if (out) b.path('Write', out, 'option');
  }
  // `flock FILE …` opens FILE with O_CREAT (the effect oracle saw it made); `flock FD` locks an open descriptor
  if (program === 'flock') {
    const file = cmd.args[scanOptions(cmd.args, 0, wrapperOptions(registry.get('flock').spec)).index];
    if (file && (file.dynamic || !/^[0-9]+$/.test(file.value))) b.path('Write', file, 'operand');
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
  if (registry.has(program, 'shell')) {
    const file = cmd.args.find((a) => !a.value.startsWith('-') && !a.value.startsWith('+'));
    const commandMode = cmd.args.some((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a.value));
    if (file && !commandMode) {
      b.path('Read', file, 'operand');
      // `bash -n FILE`: noexec, the script is read and parsed, nothing runs (every POSIX shell has -n).
      const options = cmd.args.slice(0, cmd.args.indexOf(file));
      if (options.some((a) => !a.dynamic && /^-[A-Za-z]*n[A-Za-z]*$/.test(a.value)) && !options.some((a) => a.dynamic)) return facts('read-only');
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
