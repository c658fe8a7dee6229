/**
 * Split a command's arguments into options (with values) and operands, using its spec: bundled
 * short options (`-rf`), attached values (`-ofile`, `--out=file`), `--`, subcommands. Options are
 * normalised by meaning: every spelling of an option is reported under the spelling written.
 */
import { own } from '../own.js';
import type { Arg } from '../walk/types.js';
import type { ArgRole, CommandClass, CommandSpec, ExtraOp, OptionSpec } from './spec-types.js';

export interface ParsedOption {
  name: string;
  /** How many subcommands had been selected when it was read (0: a global option). */
  depth: number;
  spec: OptionSpec | undefined;
  value: Arg | null;
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
}

export function parseArgv(root: CommandSpec, args: Arg[]): ParsedArgv {
  let spec = root;
  const subcommands: string[] = [];
  const options: ParsedOption[] = [];
  const operands: Arg[] = [];
  let unknownSubcommand: string | null = null;
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const a = arg.value;
    if (endOfOptions || arg.dynamic || a === '-' || !(a.startsWith('-') || (a.startsWith('+') && own(spec.options, a)))) {
      // `git -- reset --hard` still selects the subcommand.
      if (spec.subcommands && operands.length === 0) {
        const sub = arg.dynamic ? undefined : own(spec.subcommands, a);
        if (sub) {
          spec = sub;
          subcommands.push(a);
          endOfOptions = false; // `git -- reset --hard`: the subcommand reads its own options
          continue;
        }
        unknownSubcommand = a;
        // Without knowing the subcommand, the rest cannot be read reliably.
        operands.push(...args.slice(i));
        break;
      }
      operands.push(arg);
      if (spec.optionsFirst) endOfOptions = true;
      continue;
    }
    if (a === '--') {
      endOfOptions = true;
      continue;
    }
    const exact = own(spec.options, a);
    if (a.startsWith('--') || exact) {
      const eq = a.indexOf('=');
      let name = eq > 0 && !exact ? a.slice(0, eq) : a;
      // getopt_long accepts any unambiguous prefix: `--out` is `--output`.
      if (!own(spec.options, name) && name.startsWith('--')) name = uniquePrefix(spec, name) ?? name;
      const o = own(spec.options, name);
      let value: Arg | null = null;
      if (o?.value) {
        if (eq > 0 && !exact) value = { ...arg, value: a.slice(eq + 1) };
        else if (i + 1 < args.length) value = args[++i];
      } else if (eq > 0 && !exact) {
        value = { ...arg, value: a.slice(eq + 1) };
      }
      options.push({ name, depth: subcommands.length, spec: o, value, arg });
      continue;
    }
    // Bundled short options: `-rf`, `-n5`, `-ofile`.
    for (let j = 1; j < a.length; j++) {
      const name = '-' + a[j];
      const o = own(spec.options, name);
      if (o?.value) {
        const rest = a.slice(j + 1);
        const value = rest ? { ...arg, value: rest } : i + 1 < args.length ? args[++i] : null;
        options.push({ name, depth: subcommands.length, spec: o, value, arg });
        break;
      }
      options.push({ name, depth: subcommands.length, spec: o, value: null, arg });
    }
  }
  return { spec, subcommands, options, operands, unknownSubcommand };
}

function uniquePrefix(spec: CommandSpec, prefix: string): string | undefined {
  const matches = Object.keys(spec.options ?? {}).filter((k) => k.startsWith(prefix));
  if (matches.length === 0) return undefined;
  // Spellings of one option (same spec) count as one match.
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
