/**
 * The walker as the modules it calls see it. Walking a command finds code inside it — `sh -c`,
 * `eval`, `source`, a function called, an alias, a trap — and that code is walked again, by the
 * same walker, with the same state of the line. Those modules (calls, nested-scripts,
 * code-variables, run-argv) receive the walker as this interface instead of importing the class:
 * walker.ts imports them, and nothing they import leads back to it.
 */
import type { ShellDialect } from '../syntax/dialects.js';
import type { Command, Script, Span } from '../syntax/ast.js';
import type { ParseResult } from '../syntax/parse-result.js';
import type { ExpandScope } from '../expand/word.js';
import type { CoreFindingId } from '../findings/catalog.js';
import type { Arg, CommandContext, WalkedCommand } from './types.js';
import type { PrintedNames } from '../programs/hook-types.js';
import type { SourceFrame } from './source-frame.js';
import type { Scope } from './scope.js';
import type { LineLinkEvents } from './link-events.js';

export interface RawFinding {
  rule: CoreFindingId;
  detail: string;
  span: Span;
  command?: number;
}

/** Steps of walking that several analyses spend in turn (see `WalkOptions.budget`). */
export interface WalkBudget {
  readonly limit: number;
  spent: number;
  /** What the expansion-limit finding calls it (`the file's budget`). */
  readonly name?: string;
}

export interface WalkOptions {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Parse nested command strings (`sh -c`, `eval`, aliases). */
  parse: (source: string) => ParseResult;
  /** How many scripts deep (`sh -c "sh -c …"`) to follow. */
  maxScriptDepth: number;
  /** How many function bodies to walk at call sites in one analysis. */
  maxFunctionWalks: number;
  /**
   * The whole walk's budget of work: every command walked, at any depth (a sourced file, a
   * function body, `eval`, `sh -c`, a loop's body, a substitution), is a step, and nested code
   * costs steps by its length before it is parsed. Past it the walk stops and asks.
   */
  maxWalkSteps: number;
  /**
   * A budget shared with other walks (a linter's file: one budget for all its snippets); when
   * given, its `limit` stands in for `maxWalkSteps` and its `spent` carries on from walk to walk.
   */
  budget?: WalkBudget;
  /**
   * Where the argv of a command that a program runs starts (operand role `command` in its spec:
   * `strace -f CMD`, `ip netns exec NS CMD`), or null.
   */
  commandStart: (program: string, args: Arg[]) => number | null;
  /**
   * Values of a program's options of this role, in order, read with its spec: `shell-string`
   * (`tar --to-command=CMD`, a command line it runs), `chdir` (`systemd-run --working-directory`).
   */
  optionValues?: (program: string, args: Arg[], role: 'shell-string' | 'chdir') => Arg[];
  /** Read `source FILE` contents when the file exists (bounded size). */
  readSource: (path: string) => string | null;
  /**
   * Whether `cd` into this directory would succeed as the disk is now (a directory the shell may
   * enter). Absent: not known, so a `cd` may fail.
   */
  enterable?: (path: string) => boolean;
  /** The shell that runs the line (nested `sh -c`, `zsh -c` bodies are read by their own). */
  shell: ShellDialect;
}

/** The fields of a command the caller of `emit` knows; the walker adds context, cwd and state. */
export type EmittedCommand = Pick<WalkedCommand, 'program' | 'programRaw' | 'args' | 'assignments' | 'redirects' | 'span' | 'text'> &
  Partial<Pick<WalkedCommand, 'parent' | 'calls' | 'execsStdin' | 'programPath'>>;

export interface Walker {
  readonly options: WalkOptions;

  // ---- walking again (the recursion) ----
  /** Walk a script (the line, or a nested one) in `scope`. */
  walkScript(script: Script, frame: SourceFrame, ctx: CommandContext, scope: Scope): void;
  /** Walk one command; `certain`: it surely runs in this shell, so its state changes are known. */
  command(cmd: Command, frame: SourceFrame, ctx: CommandContext, scope: Scope, certain: boolean): void;

  // ---- what the walk produces ----
  /** Add a command to the walk's list (with its context, directory and the line's state). */
  emit(c: EmittedCommand, ctx: CommandContext, scope: Scope): WalkedCommand;
  finding(rule: CoreFindingId, detail: string, span: Span, command?: number): void;
  /**
   * Charge `cost` steps to the walk's one budget (`maxWalkSteps`). False once it is spent: the
   * caller walks nothing more, and the first refusal leaves an `expansion-limit` finding.
   */
  spend(cost: number, span: Span, command?: number): boolean;
  /** What word expansion knows in `scope` (nothing of home and environment on a remote host). */
  expandScope(scope: Scope): ExpandScope;
  /**
   * The file names the stages before `cmd` print into its stdin (`find . -print0 | sort -z | xargs -0 …`,
   * programs/printed-names.ts), read only when a consumer asks; null when unknown or its own redirect feeds it.
   */
  namesPipedTo(cmd: WalkedCommand): PrintedNames | null;

  // ---- state shared by the whole line ----
  /** Functions (and aliases) whose body is being walked at a call: a recursive call stops there. */
  readonly callStack: string[];
  /** Function bodies walked at call sites so far (bounded). */
  functionWalks: number;
  /** Owners of the nested scripts being walked (`bash -c` for the commands inside it). */
  readonly owners: number[];
  /**
   * Files written earlier on the line whose content is known (`echo '…' > f`, `cat > f <<EOF`),
   * by absolute path; null once something else wrote them. Shared by every scope: a subshell's
   * writes reach the disk the parent reads. Used only to add what a later `bash f` or `. f`
   * runs; the run itself still asks.
   */
  readonly writtenFiles: Map<string, string | null>;
  /** Links and directories made on the line (`ln -s ~ h`), for resolving later paths through them. */
  readonly lineLinks: LineLinkEvents;
  /** `hash -p PATH NAME` earlier on the line: NAME may run PATH from then on (PATH as written). */
  readonly hashed: Map<string, string>;
}
