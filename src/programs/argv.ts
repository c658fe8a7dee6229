/**
 * Split a command's arguments into options (with values) and operands, using its spec: bundled
 * short options (`-rf`), attached values (`-ofile`, `--out=file`), `--`, subcommands. Options are
 * normalised by meaning: every spelling of an option is reported under the spelling written.
 *
 * An option the spec in force does not list is kept with `spec: undefined`: the caller reports
 * it (`unknown-option`), it is never taken as a flag with no effect.
 */
import { own } from '../own.js';
import type { Arg } from '../expand/arg.js';
import type { ArgRole, CommandClass, CommandSpec, ExtraOp, OptionSpec } from './spec-types.js';

export interface ParsedOption {
  name: string;
  /** How many subcommands had been selected when it was read (0: a global option). */
  depth: number;
  spec: OptionSpec | undefined;
  /** The spec whose option table was consulted (for messages: its `source` when `complete`). */
  table: CommandSpec;
  value: Arg | null;
  /** Further words of an option that takes several (`jq --rawfile NAME FILE`: FILE). */
  more: Arg[];
  /** The word it was read from (`-lax` for `-x`). */
  arg: Arg;
}

export interface ParsedArgv {
  /** The spec that applies after subcommand selection. */
  spec: CommandSpec;
  /** Subcommand path (`['remote', 'add']`). */
  subcommands: string[];
  options: ParsedOption[];
  operands: Arg[];
  /** A subcommand was expected but not known (`git frobnicate`). */
  unknownSubcommand: string | null;
  /**
   * Words only known at run time, read where the program still takes options, that may expand
   * to one (`grep "$p" f` with p='--file=/etc/shadow'), with the table in force.
   */
  maybeOptions: { arg: Arg; table: CommandSpec }[];
}

/** A dash followed by digits: `head -5`, `grep -3` (listed as `-NUM`). */
export const NUMERIC_OPTION = '-NUM';
/** A plus followed by digits: `pushd +2`, `dirs +1` (listed as `+NUM`). */
export const PLUS_NUMERIC_OPTION = '+NUM';

/**
 * Could this dynamic word (its text as written, quotes removed) expand to something starting
 * with `-`? Only if it starts with an expansion or a dash: `a$x` cannot, `$x` and `-$x` can.
 */
export function mayBeOption(arg: Arg): boolean {
  // `$$`, `$#`, `$?`, `$!` expand to numbers, never to an option.
  if (arg.dashFirst === true) return true; // a produced name such as `-i` or `--output=x`
  // `*` expands to the names in the directory, and a file may be named `--pre=sh`: whether one is
  // there is a fact of the disk, which the operations read (ops/operations.ts, dashNamesMet).
  if (arg.glob && !arg.dynamic && arg.produced !== true && /^[*?[]/.test(arg.value)) return true;
  return arg.dynamic && /^[-$`]/.test(arg.value) && !/^\$[$#?!]$/.test(arg.value) && !knownLongOption(arg);
}

/**
 * A dynamic word whose option name is written out (`--git-dir="$D"`): the option is known, only
 * its value is not.
 */
function knownLongOption(arg: Arg): boolean {
  return arg.dynamic && /^--[A-Za-z0-9][A-Za-z0-9_-]*=/.test(arg.value) && (arg.raw === undefined || /^--[A-Za-z0-9][A-Za-z0-9_-]*=/.test(arg.raw));
}

/**
 * The last parse of each argv: the walker (a spec's `command` operand), the operations and the
 * guard each read the same command's argv with the same spec. A parse is never modified.
 */
const parses = new WeakMap<readonly Arg[], { root: CommandSpec; parsed: ParsedArgv }>();

export function parseArgv(root: CommandSpec, args: Arg[]): ParsedArgv {
  const hit = parses.get(args);
  if (hit !== undefined && hit.root === root) return hit.parsed;
  const parsed = parseFresh(root, args);
  parses.set(args, { root, parsed });
  return parsed;
}

function parseFresh(root: CommandSpec, args: Arg[]): ParsedArgv {
  return new ArgvReader(root, args).read();
}

/**
 * `-chdir=infra`, `-target=aws_instance.a`: a single-dash long option the table lists (terraform's,
 * find's style) with its value attached by `=`. Never a bundle of short options: that would read
 * the value's letters as flags and lose the value (`terraform -chdir=delete plan`). A one-letter
 * name is a getopt option (`grep -e=x` searches for `=x`).
 */
function singleDashLong(spec: CommandSpec, a: string): boolean {
  const eq = a.indexOf('=');
  return eq > 2 && !a.startsWith('--') && own(spec.options, a.slice(0, eq)) !== undefined;
}

/** One parse: the table in force (it changes with each subcommand), what has been read, and where. */
class ArgvReader {
  private spec: CommandSpec;
  private readonly subcommands: string[] = [];
  private readonly options: ParsedOption[] = [];
  private readonly operands: Arg[] = [];
  private readonly maybeOptions: ParsedArgv['maybeOptions'] = [];
  private unknownSubcommand: string | null = null;
  private endOfOptions = false;
  /** Index of the word being read. */
  private i = 0;

  constructor(
    root: CommandSpec,
    private readonly args: Arg[],
  ) {
    this.spec = root;
  }

  read(): ParsedArgv {
    for (; this.i < this.args.length; this.i++) {
      const arg = this.args[this.i];
      const a = arg.value;
      const syntax = this.spec.optionSyntax ?? 'getopt';
      if (!this.isOption(arg, syntax)) {
        if (!this.operand(arg, syntax)) break;
        continue;
      }
      if (a === '--' && syntax === 'getopt') {
        this.endOfOptions = true;
        continue;
      }
      if (a.startsWith('--') || own(this.spec.options, a) || singleDashLong(this.spec, a)) this.longOption(arg);
      else this.shortBundle(arg);
    }
    const { spec, subcommands, options, operands, unknownSubcommand, maybeOptions } = this;
    return { spec, subcommands, options, operands, unknownSubcommand, maybeOptions };
  }

  private isOption(arg: Arg, syntax: NonNullable<CommandSpec['optionSyntax']>): boolean {
    const a = arg.value;
    return (
      !this.endOfOptions &&
      (!arg.dynamic || knownLongOption(arg)) &&
      syntax !== 'none' &&
      a !== '-' &&
      (a.startsWith('-') || (a.startsWith('+') && plusOptions(this.spec, a))) &&
      (syntax !== 'echo' || echoOptions(this.spec, a))
    );
  }

  /** A word that is not an option: a subcommand, or an operand. False when the rest cannot be read. */
  private operand(arg: Arg, syntax: NonNullable<CommandSpec['optionSyntax']>): boolean {
    if (!this.endOfOptions && syntax === 'getopt' && mayBeOption(arg)) this.maybeOptions.push({ arg, table: this.spec });
    // `git -- reset --hard` still selects the subcommand.
    if (this.spec.subcommands && this.operands.length === 0) {
      const sub = arg.dynamic ? undefined : own(this.spec.subcommands, arg.value);
      if (sub) {
        this.spec = sub;
        this.subcommands.push(arg.value);
        this.endOfOptions = false; // `git -- reset --hard`: the subcommand reads its own options
        return true;
      }
      this.unknownSubcommand = arg.value;
      // Without knowing the subcommand, the rest cannot be read reliably.
      this.operands.push(...this.args.slice(this.i));
      return false;
    }
    this.operands.push(arg);
    if (this.spec.optionsFirst) this.endOfOptions = true;
    return true;
  }

  private push(name: string, o: OptionSpec | undefined, value: Arg | null, arg: Arg, more: Arg[] = []): void {
    this.options.push({ name, depth: this.subcommands.length, spec: o, table: this.spec, value, more, arg });
  }

  /** The next word, consumed (an option's value); null at the end. */
  private next(): Arg | null {
    return this.i + 1 < this.args.length ? this.args[++this.i] : null;
  }

  /** `--name`, `--name=value`, `--name value`, or a word the table lists as it is (`-name`). */
  private longOption(arg: Arg): void {
    const a = arg.value;
    const exact = own(this.spec.options, a);
    const eq = a.indexOf('=');
    let name = eq > 0 && !exact ? a.slice(0, eq) : a;
    // getopt_long accepts any unambiguous prefix (`--out` is `--output`); only a complete
    // table can tell that no unlisted option starts the same way.
    if (!own(this.spec.options, name) && name.startsWith('--') && this.spec.complete === true) name = uniquePrefix(this.spec, name) ?? name;
    const o = own(this.spec.options, name);
    const attached = eq > 0 && !exact ? { ...arg, value: a.slice(eq + 1) } : null;
    if (o?.values) {
      const words: Arg[] = attached ? [attached] : [];
      while (words.length < o.values.length && this.i + 1 < this.args.length) words.push(this.args[++this.i]);
      this.push(name, o, words[0] ?? null, arg, words.slice(1));
    } else if (o?.value === true) {
      this.push(name, o, attached ?? this.next(), arg);
    } else {
      this.push(name, o, attached, arg);
    }
  }

  /** Bundled short options: `-rf`, `-n5`, `-ofile`, `-5` (`-NUM`), `+x`. */
  private shortBundle(arg: Arg): void {
    const a = arg.value;
    let afterNumber = false;
    for (let j = 1; j < a.length; j++) {
      const name = (a[0] === '+' ? '+' : '-') + a[j];
      const o = own(this.spec.options, name);
      const numeric = a[0] === '+' ? PLUS_NUMERIC_OPTION : NUMERIC_OPTION;
      if (o === undefined && /[0-9]/.test(a[j]) && own(this.spec.options, numeric) !== undefined) {
        let k = j;
        while (k < a.length && /[0-9]/.test(a[k])) k++;
        this.push(numeric, own(this.spec.options, numeric), { ...arg, value: a.slice(j, k) }, arg);
        j = k - 1;
        afterNumber = true;
        continue;
      }
      if ((o?.value === true || o?.values) && afterNumber && j === a.length - 1) {
        // `tail -5c FILE` is the obsolete `-NUM[bcl]` form (c is a unit, FILE an operand);
        // `grep -5e PAT` takes PAT. Taking nothing keeps the next word an analysed operand.
        this.push(name, o, null, arg);
        return;
      }
      if (o?.value === true || o?.values) {
        const rest = a.slice(j + 1);
        const value = rest ? { ...arg, value: rest } : this.next();
        const more: Arg[] = [];
        while (o.values && more.length + 1 < o.values.length && this.i + 1 < this.args.length) more.push(this.args[++this.i]);
        this.push(name, o, value, arg, more);
        return;
      }
      if (o?.value === 'optional') {
        const rest = a.slice(j + 1);
        this.push(name, o, rest ? { ...arg, value: rest } : null, arg);
        return;
      }
      // A letter the table does not know is reported (unknown-option asks); the letters after it
      // are still read as options, the likeliest reading, so that what they do (`curl -Lo F`,
      // `ssh -NR …`) stays visible to operations and guard rules.
      this.push(name, o, null, arg);
    }
  }
}

/**
 * A `+` word is options only when the table lists it (`+x`, `+NUM`) or every letter of it as a
 * `+` option (`set +eu`); otherwise it is an operand (`tail +5`, a file named `+x`).
 */
function plusOptions(spec: CommandSpec, a: string): boolean {
  if (own(spec.options, a) !== undefined) return true;
  if (/^\+[0-9]+$/.test(a)) return own(spec.options, PLUS_NUMERIC_OPTION) !== undefined;
  return /^\+[A-Za-z]+$/.test(a) && [...a.slice(1)].every((ch) => own(spec.options, '+' + ch) !== undefined);
}

/** bash's echo: `-neE` is options only when every letter is one; `-x`, `-nx` and `--` are printed. */
function echoOptions(spec: CommandSpec, a: string): boolean {
  return /^-[A-Za-z]+$/.test(a) && [...a.slice(1)].every((ch) => own(spec.options, '-' + ch) !== undefined);
}

function uniquePrefix(spec: CommandSpec, prefix: string): string | undefined {
  const matches = Object.keys(spec.options ?? {}).filter((k) => k.startsWith(prefix));
  if (matches.length === 0) return undefined;
  // Spellings of one option (same spec) count as one match; different options with different
  // effects make the prefix ambiguous (getopt refuses it, so nothing runs, but it is not known).
  const first = spec.options![matches[0]];
  return matches.every((m) => JSON.stringify(spec.options![m]) === JSON.stringify(first)) ? matches[0] : undefined;
}

/** The class after options: unknown beats mutating beats read-only; a 'read-only' option can make a mutating command read-only (`gzip -c`). */
export function effectiveClass(p: ParsedArgv): CommandClass {
  let cls: CommandClass = p.spec.class;
  let readOnlyOption = false;
  for (const o of p.options) {
    const c = o.spec?.class;
    if (c === 'unknown') return 'unknown';
    if (c === 'mutating') cls = cls === 'unknown' ? 'unknown' : 'mutating';
    if (c === 'read-only') readOnlyOption = true;
  }
  if (readOnlyOption && cls === 'mutating' && !p.options.some((o) => o.spec?.class === 'mutating')) return 'read-only';
  return cls;
}

/** Role of each operand: `operands` list (last repeats), option overrides, `lastOperand`. */
export function operandRoles(p: ParsedArgv): ArgRole[] {
  const override = [...p.options].reverse().find((o) => o.spec?.operands)?.spec?.operands;
  const list = p.spec.operands ?? ['text'];
  return p.operands.map((_, i) => {
    if (override) return override;
    if (p.spec.lastOperand && p.operands.length >= 2 && i === p.operands.length - 1) return p.spec.lastOperand;
    return list[Math.min(i, list.length - 1)];
  });
}

export function extraOps(p: ParsedArgv): ExtraOp[] {
  const out = new Set<ExtraOp>(p.spec.ops ?? []);
  for (const o of p.options) for (const x of o.spec?.ops ?? []) out.add(x);
  return [...out];
}

/** Does any spelling in `names` appear among the parsed options? */
export function hasOption(p: ParsedArgv, ...names: string[]): boolean {
  return p.options.some((o) => names.includes(o.name));
}

/** An option matters when a value of one of these roles, or its class, ops or fixed reads, do. */
function optionMatters(o: OptionSpec, role: (r: ArgRole | undefined) => boolean): boolean {
  return (
    role(o.role) ||
    (o.values?.some(role) ?? false) ||
    role(o.operands) ||
    o.class === 'mutating' ||
    o.class === 'unknown' ||
    (o.ops?.length ?? 0) > 0 ||
    (o.reads?.length ?? 0) > 0
  );
}

/** Some option of the table matters by `role`; memoised per table. */
function tableHas(memo: WeakMap<CommandSpec, boolean>, spec: CommandSpec, role: (r: ArgRole | undefined) => boolean): boolean {
  let v = memo.get(spec);
  if (v === undefined) {
    v = Object.values(spec.options ?? {}).some((o) => optionMatters(o, role));
    memo.set(spec, v);
  }
  return v;
}

const effectfulTables = new WeakMap<CommandSpec, boolean>();
const harmfulToNames = new WeakMap<CommandSpec, boolean>();

/** Roles whose value, even a name inside the workspace, makes the command more than a reader. */
const BEYOND_READING: ReadonlySet<ArgRole> = new Set(['write', 'append', 'delete', 'exec', 'url', 'host', 'command', 'shell-string', 'code']);

/**
 * Could a produced name read as an option (`-i`, `--output=x`) make the command more than a reader?
 * Its value can only be another name from the same list, so an option that reads or lists a file
 * stays inside; one that writes, deletes, runs, connects or changes the class does not.
 */
export function hasOptionBeyondReading(spec: CommandSpec): boolean {
  return tableHas(harmfulToNames, spec, (r) => r !== undefined && BEYOND_READING.has(r));
}

/** Does the table hold an option with an effect (so a word that may be any option matters)? It reads, writes or runs something, or changes the class. */
export function hasEffectfulOption(spec: CommandSpec): boolean {
  return tableHas(effectfulTables, spec, (r) => r !== undefined && r !== 'text' && r !== 'mode');
}
