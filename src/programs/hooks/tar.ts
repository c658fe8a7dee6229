/** tar: its modes (create, extract, list), the old-style bundle (`tar xzf`), options that run programs. */
import type { CommandClass } from '../spec-types.js';
import { effectiveClass, hasOption, parseArgv, type ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/** Options that run a program (a compressor, a script per volume or checkpoint). */
const TAR_EXEC = ['--to-command', '-I', '--use-compress-program', '--info-script', '-F', '--new-volume-script', '--checkpoint-action', '-H'];

function tar(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  if (!p) return;
  // Old-style `tar xzf a.tgz`: a first word without a dash is a bundle of options.
  const args = b.cmd.args;
  const parsed =
    args[0] && /^[A-Za-z]+$/.test(args[0].value) && !args[0].dynamic ? parseArgv(p.spec, [{ ...args[0], value: '-' + args[0].value }, ...args.slice(1)]) : p;
  const has = (...n: string[]) => hasOption(parsed, ...n);
  const archive = parsed.options.find((o) => ['-f', '--file'].includes(o.name))?.value ?? null;
  const dir = parsed.options.find((o) => ['-C', '--directory'].includes(o.name))?.value ?? null;
  let cls: CommandClass = 'read-only';
  if (has('-c', '--create', '-r', '--append', '-u', '--update', '-A', '--catenate', '--concatenate', '--delete')) {
    if (archive) b.path('Write', archive, 'option');
    // --remove-files deletes what it archived.
    const removes = has('--remove-files');
    for (const f of parsed.operands) b.path(removes ? 'Delete' : 'Read', f, 'operand');
    cls = 'mutating';
  } else if (has('-x', '--extract', '--get') && has('-O', '--to-stdout')) {
    // -O extracts every member to standard output: the archive is read, no file is written.
    if (archive) b.path('Read', archive, 'option');
  } else if (has('-x', '--extract', '--get')) {
    if (archive) b.path('Read', archive, 'option');
    b.path('Write', dir ?? { value: '.', dynamic: false, glob: false, span: b.cmd.span }, 'option');
    // -P keeps the archive's absolute paths and `..`: members may be written anywhere.
    if (has('-P', '--absolute-names')) b.add('Write', 'option', b.cmd.span, { target: 'absolute paths named in the archive', dynamic: true });
    cls = 'mutating';
  } else {
    if (archive) b.path('Read', archive, 'option');
  }
  if (parsed.options.some((o) => TAR_EXEC.includes(o.name) || o.name.startsWith('--checkpoint-action'))) {
    b.add('Exec', 'option', b.cmd.span, { program: 'tar' });
    cls = 'unknown';
  }
  // The archive (-f) and directory (-C) depend on the mode and are done above; other option
  // values (-T, -X, -g…) keep their spec roles.
  return { class: effectiveClass(parsed) === 'unknown' ? 'unknown' : cls, skipOperands: true, parsed };
}

export const tarHooks: ProgramHooks = { module: 'tar.ts', operations: tar };
