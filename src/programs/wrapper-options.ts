/**
 * A wrapper's own options, read from its spec: which take a value (`sudo -u root`), which only
 * take an attached one (`xargs -i{}`), which make their value a shell command line (`su -c`,
 * role `shell-string`), which name the directory it runs in (`env -C DIR`, role `chdir`). Reading stops at the first operand, `--`, or a word known only at run
 * time: what follows is the wrapped command.
 */
import type { CommandSpec } from './spec-types.js';
import type { OptionScan, Word } from './unwrap-types.js';

export interface WrapperOptions {
  /** Short options that take a value (`-u root`, `-uroot`). */
  shortValue: ReadonlySet<string>;
  /** Long options that take a value (`--user root`, `--user=root`). */
  longValue: ReadonlySet<string>;
  /** Short options whose value is optional and only attached (`xargs -i{}`, `-l5`). */
  shortOptionalValue: ReadonlySet<string>;
  /** Options whose value is a shell command line (`su -c`, `flock --command`). */
  shellString: ReadonlySet<string>;
  /** Options whose value is the directory the command runs in (`env -C`, `sudo -D`: role `chdir`). */
  chdir: ReadonlySet<string>;
}

const tables = new WeakMap<CommandSpec, WrapperOptions>();
const NO_OPTIONS: WrapperOptions = { shortValue: new Set(), longValue: new Set(), shortOptionalValue: new Set(), shellString: new Set(), chdir: new Set() };

/** The option table of a wrapper's spec, in the shape scanOptions reads. */
export function wrapperOptions(spec: CommandSpec | undefined): WrapperOptions {
  if (spec === undefined) return NO_OPTIONS;
  let t = tables.get(spec);
  if (t === undefined) {
    const shortValue = new Set<string>();
    const longValue = new Set<string>();
    const shortOptionalValue = new Set<string>();
    const shellString = new Set<string>();
    const chdir = new Set<string>();
    for (const [name, o] of Object.entries(spec.options ?? {})) {
      const short = /^-[^-]$/.test(name);
      if (o.value === 'optional' && short) shortOptionalValue.add(name[1]);
      else if (o.value === true && short) shortValue.add(name[1]);
      else if (o.value === true) longValue.add(name);
      if (o.role === 'shell-string') shellString.add(name);
      if (o.role === 'chdir') chdir.add(name);
    }
    t = { shortValue, longValue, shortOptionalValue, shellString, chdir };
    tables.set(spec, t);
  }
  return t;
}

export function scanOptions<W extends Word>(args: W[], start: number, opts: WrapperOptions): OptionScan<W> {
  const flags = new Set<string>();
  const values = new Map<string, W>();
  let shellString: W | null = null;
  const chdir: W[] = [];
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
      if (opts.longValue.has(name)) {
        const v = eq >= 0 ? { ...args[i], value: a.slice(eq + 1) } : args[++i];
        if (v) values.set(name, v);
        if (opts.shellString.has(name) && v) shellString = v;
        if (opts.chdir.has(name) && v) chdir.push(v);
      } else flags.add(name);
      continue;
    }
    if (!a.startsWith('-') || a === '-') break;
    for (let j = 1; j < a.length; j++) {
      const ch = a[j];
      if (opts.shortValue.has(ch)) {
        const rest = a.slice(j + 1);
        const v = rest ? { ...args[i], value: rest } : args[++i];
        if (v) values.set('-' + ch, v);
        if (opts.shellString.has('-' + ch) && v) shellString = v;
        if (opts.chdir.has('-' + ch) && v) chdir.push(v);
        break;
      }
      if (opts.shortOptionalValue.has(ch)) {
        flags.add('-' + ch);
        break;
      }
      flags.add('-' + ch);
    }
  }
  return { index: i, flags, values, shellString, chdir };
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

/**
 * `env X=1 Y="$v" cmd`: leading assignments, from index i; returns the index after them. One
 * whose name is written out but whose value is only known at run time (`X="$D"`) is still an
 * assignment, with an unknown value.
 */
export function takeAssignments(args: readonly Word[], i: number, out: { name: string; value: string | null }[]): number {
  while (i < args.length && ASSIGNMENT.test(args[i].value) && (!args[i].dynamic || args[i].raw === undefined || ASSIGNMENT.test(args[i].raw!))) {
    const m = ASSIGNMENT.exec(args[i].value)!;
    out.push({ name: m[1], value: args[i].dynamic ? null : args[i].value.slice(m[0].length) });
    i++;
  }
  return i;
}
