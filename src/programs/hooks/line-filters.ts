/**
 * Filters that only select or reorder whole lines of their stdin, so the names a producer prints
 * pass through them unchanged (`find . -name '*.c' | sort | xargs …`). Each knows the options
 * that keep it so; a file operand means it reads that file instead of stdin.
 */
import type { Arg } from '../../expand/arg.js';
import type { ProgramHooks } from '../hook-types.js';

type Separator = 'nul' | 'newline';

/** Lines by NUL with `-z`/`--zero-terminated`, else by newline; null when an option is not `ok`. */
function filterOf(args: Arg[], ok: (option: string) => boolean, valueOptions: ReadonlySet<string>): Separator | null {
  let nul = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic) return null;
    const v = a.value;
    if (v === '-' || !v.startsWith('-')) return null; // a file operand: it reads that instead
    if (v === '--') {
      if (args.length > i + 1) return null;
      break;
    }
    if (v === '-z' || v === '--zero-terminated' || v === '--null-data') nul = true;
    else if (!ok(v)) return null;
    if (valueOptions.has(v)) i++;
  }
  return nul ? 'nul' : 'newline';
}

// sort: every ordering option keeps the lines; -o writes them to a file, --files0-from reads other files.
const sortHooks: ProgramHooks = {
  module: 'line-filters.ts',
  passesLines: (args) =>
    filterOf(args, (o) => !/^(-o|--output|--files0-from|--compress-program|-m|--merge)/.test(o), new Set(['-k', '--key', '-t', '-S', '-T'])),
};
// uniq: -c prefixes a count, -D/-d/-u select; a second operand would be an output file.
const uniqHooks: ProgramHooks = {
  module: 'line-filters.ts',
  passesLines: (args) =>
    filterOf(args, (o) => /^-([udicD]+|f\d*|s\d*|w\d*)$|^--(unique|repeated|ignore-case|count|all-repeated)/.test(o), new Set(['-f', '-s', '-w'])),
};
// head and tail: -n N keeps whole lines; -c counts bytes and may cut a name (it stays a prefix of one).
const headTailHooks: ProgramHooks = {
  module: 'line-filters.ts',
  passesLines: (args) => filterOf(args, (o) => /^-(n\d*|\d+|q|v)$|^--(lines|quiet|silent)/.test(o), new Set(['-n'])),
};
const tacHooks: ProgramHooks = { module: 'line-filters.ts', passesLines: (args) => filterOf(args, () => false, new Set()) };

export const LINE_FILTER_HOOKS: Readonly<Record<string, ProgramHooks>> = {
  sort: sortHooks,
  uniq: uniqHooks,
  head: headTailHooks,
  tail: headTailHooks,
  tac: tacHooks,
};
