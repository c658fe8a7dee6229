/** Pagers: less's and more's initial commands (`+cmd`), man's browser. */
import type { CommandClass } from '../spec-types.js';
import { effectiveClass, type ParsedArgv } from '../argv.js';
import type { HandlerResult, OperationSink, ProgramHooks } from '../hook-types.js';

/**
 * A pager's initial commands (`less +G`, `more +/re`): a line number, a search or a movement is
 * harmless; anything else may be a shell escape (`!cmd`), a pipe (`|`), a log file (`s`) or an
 * editor (`v`), and is not taken as harmless.
 */
const PAGER_START = /^\+(?:[0-9]+[gGjpP%]?|[FGgRrqQ]|\/.*|\?.*|:n|:p|[0-9]*[eEjkyYdDuUfbwz]?)$/;

/**
 * man's modes that look pages up in the index and print names or paths, never formatting one
 * (man-db 2.11: `-k`, `-f`, `-w`, `-W`); every other mode formats a page.
 */
const MAN_LOOKUP_ONLY = new Set(['-k', '--apropos', '-f', '--whatis', '-w', '--where', '--path', '--location', '-W', '--where-cat', '--location-cat']);

/**
 * man-db keeps the pages it formats in its cat cache (/var/cache/man/cat*): run as root, as agents
 * often are in containers, `man ls` writes there (the strictest reading: who runs it is not known).
 */
const MAN_CAT_CACHE = '/var/cache/man/*';

/**
 * man -P/--pager/-H/--html/-C run programs (spec roles), and a page man formats is written to its
 * cat cache; less and more run what `+cmd` says.
 */
function pager(b: OperationSink, p: ParsedArgv | null): HandlerResult | void {
  let cls: CommandClass | undefined;
  for (const a of b.cmd.args) {
    if (a.dynamic || !a.value.startsWith('+') || b.cmd.program === 'man') continue;
    if (!PAGER_START.test(a.value)) b.unknownOption(a.value, a, b.cmd.program ?? 'less');
  }
  if (p && b.cmd.program === 'man') {
    // -H/--html with no browser named runs $BROWSER.
    const html = p.options.find((o) => (o.name === '-H' || o.name === '--html') && !o.value);
    if (html) {
      b.add('Exec', 'option', html.arg.span, { program: 'the browser named by $BROWSER' });
      cls = 'unknown';
    }
    if (!p.options.some((o) => MAN_LOOKUP_ONLY.has(o.name))) b.path('Write', { value: MAN_CAT_CACHE, dynamic: false, glob: true, span: b.cmd.span }, 'program');
  }
  if (p && b.cmd.program !== 'man') {
    // `+` words are less's initial commands, not files.
    const files = p.operands.filter((a) => a.dynamic || !a.value.startsWith('+'));
    for (const f of files) b.path('Read', f, 'operand');
    return { class: cls ?? effectiveClass(p), skipOperands: true };
  }
  if (cls) return { class: cls };
}

export const pagerHooks: ProgramHooks = { module: 'pager.ts', operations: pager };
