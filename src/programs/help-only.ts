/**
 * `git commit -h`, `cargo check --help`, `node --version`: a program asked only for its help or
 * its version prints it and exits, whatever the command would otherwise do. A spec declares those
 * options (`"help": ["--help", "-h", "--version"]`) because the same letters mean other things
 * elsewhere (`ls -h`, `sort -h`, `df -h`). `help` holds at the level that declares it;
 * `subcommandHelp` lists what every subcommand below accepts (`git <any> -h`), since the same
 * letter may be an option of one (`docker compose down -v` removes volumes). Only a command line made of the subcommand path and declared options is help-only: an
 * operand, any other option, or a word known only at run time makes it the real command.
 */
import type { ParsedArgv } from './argv.js';
import type { CommandSpec } from './spec-types.js';
import { own } from '../own.js';

/**
 * The help options in force at the parsed subcommand: the subcommand's own `help`, else what its
 * ancestors' `subcommandHelp` says every subcommand accepts — minus a spelling the subcommand's
 * own table gives another meaning (`docker run -v VOLUME`: a value, a role, an effect).
 */
function helpOptions(root: CommandSpec, subcommands: readonly string[]): readonly string[] {
  let spec: CommandSpec | undefined = root;
  let help = root.help ?? [];
  let inherited = root.subcommandHelp ?? [];
  for (const name of subcommands) {
    spec = spec?.subcommands === undefined ? undefined : own(spec.subcommands, name);
    if (spec === undefined) return [];
    const table = spec.options;
    help =
      spec.help ??
      inherited.filter((h) => {
        const o = own(table, h);
        return (
          o === undefined ||
          (o.value === undefined && o.values === undefined && o.role === undefined && o.class === undefined && o.ops === undefined && o.named === undefined)
        );
      });
    inherited = spec.subcommandHelp ?? inherited;
  }
  return help;
}

/** Does this command line only ask the program for its help or version? */
export function asksOnlyForHelp(root: CommandSpec, parsed: ParsedArgv): boolean {
  if (parsed.options.length === 0 || parsed.operands.length > 0 || parsed.maybeOptions.length > 0 || parsed.unknownSubcommand !== null) return false;
  const help = helpOptions(root, parsed.subcommands);
  return help.length > 0 && parsed.options.every((o) => o.value === null && o.more.length === 0 && help.includes(o.name) && !o.arg.dynamic);
}
