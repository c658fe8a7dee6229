/**
 * Which commands asked, grouped as a person would name them: the program and its subcommands
 * (`git push`, `docker compose up`), with the script or target a runner runs (`npm run test`,
 * `make build`) — the words an allow rule would name.
 */
import type { SpecTable } from '../programs/load-specs.js';
import type { CommandSpec } from '../programs/spec-types.js';
import type { Verdict } from '../verdict/types.js';
import type { WalkedCommand } from '../walk/types.js';

/** One sub-command that asked: its argv as the gate matches rules against it, and its group. */
export interface AskedCommand {
  /** `[program, ...args]`, the program normalised (`/usr/bin/git` → `git`). */
  argv: string[];
  /** Some word is not known statically (`$VAR`, `$(…)`, an unquoted glob): no exact rule can name it. */
  dynamic: boolean;
  /** The group: program and subcommands (`['npm', 'run', 'test']`). */
  key: string[];
  /** The program has subcommands but none was found at the start (`git -C dir push`). */
  subcommandMissing: boolean;
  /** A guard rule that asked (or denied) for this sub-command: an allow rule must not override it. */
  guard: string | null;
}

/** Runners whose next word names what they run: it belongs to the group (`npm run test`, not `npm run`). */
const RUNS_NAMED_TARGET = new Set(['npm run', 'npm run-script', 'pnpm run', 'yarn run', 'bun run', 'make', 'just', 'task', 'rake', 'invoke']);

/** A word that can be a subcommand or a script name (not an option, a path or a URL). */
const PLAIN_WORD = /^[A-Za-z0-9][A-Za-z0-9._:@+-]*$/;

/**
 * The sub-commands of an asked call that an allow rule would have to cover: those with a finding
 * at ask or deny. When none has one (the ask came from a settings rule, a mode or an outside
 * path), every sub-command with a known program.
 */
export function askedCommands(v: Pick<Verdict, 'commands' | 'findings'>, specs: SpecTable, isGuardRule: (id: string) => boolean): AskedCommand[] {
  const flagged = v.findings.filter((f) => f.level !== 'allow' && f.command !== undefined);
  const flaggedIds = new Set(flagged.map((f) => f.command));
  const withProgram = v.commands.filter((c) => c.program !== null);
  const chosen = withProgram.some((c) => flaggedIds.has(c.id)) ? withProgram.filter((c) => flaggedIds.has(c.id)) : withProgram;
  return chosen.map((c) => {
    const { key, subcommandMissing } = groupKey(c, specs);
    return {
      argv: [c.program!, ...c.args.map((a) => a.value)],
      dynamic: c.args.some((a) => a.dynamic || a.glob),
      key,
      subcommandMissing,
      guard: flagged.find((f) => f.command === c.id && isGuardRule(f.rule))?.rule ?? null,
    };
  });
}

/** Program, then each word that names a subcommand of the one before, then a runner's target. */
export function groupKey(c: Pick<WalkedCommand, 'program' | 'args'>, specs: SpecTable): { key: string[]; subcommandMissing: boolean } {
  const program = c.program!;
  const key = [program];
  const plainAt = (i: number): string | null => {
    const a = c.args[i];
    return a !== undefined && !a.dynamic && !a.glob && PLAIN_WORD.test(a.value) ? a.value : null;
  };
  const top = specOf(specs, program);
  let spec = top;
  let i = 0;
  while (spec?.subcommands) {
    const w = plainAt(i);
    if (w === null || !Object.prototype.hasOwnProperty.call(spec.subcommands, w)) break;
    key.push(w);
    spec = spec.subcommands[w];
    i++;
  }
  if (i === 0 && (top === undefined || top.subcommands !== undefined)) {
    // No spec, or a first word the spec does not list (`yarn test` runs a script): that word names what runs.
    const w = plainAt(0);
    if (w !== null) return { key: [program, w], subcommandMissing: false };
    return { key, subcommandMissing: top !== undefined };
  }
  if (RUNS_NAMED_TARGET.has(key.join(' '))) {
    const w = plainAt(i);
    if (w !== null) key.push(w);
  }
  return { key, subcommandMissing: false };
}

function specOf(specs: SpecTable, program: string): CommandSpec | undefined {
  try {
    return specs.get(program);
  } catch {
    return undefined; // a broken spec file: group by the words alone
  }
}
