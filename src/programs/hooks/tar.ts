/** tar: its modes (create, extract, list), the old-style bundle (`tar xzf`), options that run programs. */
import type { Arg } from '../../expand/arg.js';
import type { ArgRole, CommandClass } from '../spec-types.js';
import { effectiveClass, hasOption, parseArgv, type ParsedArgv } from '../argv.js';
import { chdirSteps } from '../chdir.js';
import { specWalk } from '../walk-spec.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/** Roles of option values tar runs: a program (`--rsh-command`) or a shell command line (`--to-command`, `-I`). */
const RUNS: ReadonlySet<ArgRole | undefined> = new Set(['exec', 'shell-string']);

/**
 * `--checkpoint-action` actions that only print, wait or ring (GNU tar 1.34, "Checkpoints"); any
 * other (`exec=COMMAND` runs COMMAND through /bin/sh) runs something.
 */
const QUIET_CHECKPOINT = /^(bell|dot|\.|totals|echo(=.*)?|ttyout=.*|sleep=[0-9]+|wait=[A-Za-z0-9]+)$/s;

function tar(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  // Old-style `tar xzf a.tgz`: a first word without a dash is a bundle of options.
  const args = b.cmd.args;
  const parsed =
    args[0] && /^[A-Za-z]+$/.test(args[0].value) && !args[0].dynamic ? parseArgv(p.spec, [{ ...args[0], value: '-' + args[0].value }, ...args.slice(1)]) : p;
  const has = (...n: string[]) => hasOption(parsed, ...n);
  const archive = parsed.options.find((o) => ['-f', '--file'].includes(o.name))?.value ?? null;
  // The archive is opened in tar's own directory; `-C DIR` applies to the names after it, in
  // order. Which -C a name follows is not tracked: each name is read in every directory it may be.
  const start = b.cmd.cwd;
  const steps = chdirSteps(parsed, start);
  // Names given to -c/-r/-u are walked as the spec's `walk` says (`-h` follows the links below).
  const walk = specWalk(parsed);
  const names = (kind: 'Read' | 'Delete', f: Arg) => {
    for (const dir of [start, ...steps])
      b.within(dir, () => (kind === 'Read' && walk !== null ? b.recursiveRead(f, walk, 'operand') : b.path(kind, f, 'operand')));
  };
  const here: Arg = { value: '.', dynamic: false, glob: false, span: b.cmd.span };
  let cls: CommandClass = 'read-only';
  if (has('-c', '--create', '-r', '--append', '-u', '--update', '-A', '--catenate', '--concatenate', '--delete')) {
    if (archive) b.within(start, () => b.path('Write', archive, 'option'));
    // --remove-files deletes what it archived.
    const removes = has('--remove-files');
    for (const f of parsed.operands) names(removes ? 'Delete' : 'Read', f);
    cls = 'mutating';
  } else if (has('-x', '--extract', '--get') && has('-O', '--to-stdout')) {
    // -O extracts every member to standard output: the archive is read, no file is written.
    if (archive) b.within(start, () => b.path('Read', archive, 'option'));
  } else if (has('-x', '--extract', '--get')) {
    if (archive) b.within(start, () => b.path('Read', archive, 'option'));
    // Members land in the directory -C last named before them: any of them.
    for (const dir of steps.length > 0 ? steps : [start]) b.within(dir, () => b.path('Write', here, 'option'));
    // -P keeps the archive's absolute paths and `..`: members may be written anywhere.
    if (has('-P', '--absolute-names')) b.add('Write', 'option', b.cmd.span, { target: 'absolute paths named in the archive', dynamic: true });
    cls = 'mutating';
  } else {
    if (archive) b.within(start, () => b.path('Read', archive, 'option'));
  }
  // Options whose value tar runs make their own Exec operations (their roles); a checkpoint action
  // other than the quiet ones runs a shell command.
  for (const o of parsed.options) {
    if (o.name !== '--checkpoint-action' || (o.value !== null && !o.value.dynamic && QUIET_CHECKPOINT.test(o.value.value))) continue;
    b.add('Exec', 'option', o.arg.span, { program: o.value?.value ?? 'tar', target: o.value?.value, dynamic: o.value?.dynamic ?? false });
    b.namedOption(o.name, o.arg, "tar runs the checkpoint action's command");
  }
  if (parsed.options.some((o) => RUNS.has(o.spec?.role) || (o.name === '--checkpoint-action' && !QUIET_CHECKPOINT.test(o.value?.value ?? '')))) cls = 'unknown';
  // The archive (-f) and the names depend on the mode and are done above; other option values
  // (-T, -X, -g, -C…) keep their spec roles.
  return { class: effectiveClass(parsed) === 'unknown' ? 'unknown' : cls, skipOperands: true, parsed };
}

export const tarHooks: ProgramHooks = { module: 'tar.ts', operations: tar };
