/**
 * What a program does that its spec (data, rules/programs/<program>.json) cannot say, as code
 * beside the program: src/programs/hooks/<program>.ts. Every member is optional; a program with
 * no hooks is described by its spec alone.
 *
 * Hooks sit below walk/ and ops/: they see the command and the operation builder through the
 * narrow interfaces here, which ops/ implements (ops/op-builder.ts).
 */
import type { Span } from '../syntax/ast.js';
import type { Arg } from '../expand/arg.js';
import type { CommandClass } from './spec-types.js';
import type { ParsedArgv } from './argv.js';
import type { UnwrapHook } from './unwrap-types.js';

/** The kinds of virtual operation (ops/types.ts re-exports this for the rest of the pipeline). */
export type OpKind = 'Read' | 'Write' | 'Delete' | 'List' | 'Exec' | 'Network' | 'Privilege' | 'Env' | 'Process' | 'System' | 'Unknown';

/**
 * Where an operation comes from: an operand, an option, a redirect, the program itself, its
 * stdin, or configuration the program loads from the project or the environment (`config`).
 */
export type OpSource = 'operand' | 'option' | 'redirect' | 'program' | 'stdin' | 'config';

/** The fields of an operation a hook may set besides its kind, source and span. */
export interface OpFields {
  target?: string;
  program?: string;
  host?: string;
  url?: string;
  dynamic?: boolean;
  glob?: boolean;
  /** Env: the variable's value is printed (`printenv NAME`), not set. */
  prints?: boolean;
}

/** What a hook sees of the walked command. */
export interface HookCommand {
  readonly program: string | null;
  readonly args: Arg[];
  readonly span: Span;
  /** Working directory; null when it cannot be known. */
  readonly cwd: string | null;
  /** What the command reads on stdin when that is known statically. */
  readonly stdinText: string | null;
  /** Its place in a pipeline (index 0 reads the line's stdin; a later one reads a pipe). */
  readonly context: { readonly pipeline: { readonly index: number } | null };
}

/** The operation builder as hooks use it (ops/op-builder.ts implements it). */
export interface OperationSink {
  readonly cmd: HookCommand;
  readonly env: { readonly home: string };
  add(kind: OpKind, source: OpSource, span: Span, extra?: OpFields): void;
  /**
   * A path operation for `arg`, resolved against the command's cwd and classified. `walks`: the
   * program lists or reads everything below it (find), so a deny on a path below applies.
   */
  path(kind: OpKind, arg: Arg, source: OpSource, extra?: { walks?: 'all' | 'visible'; followsLinks?: boolean }): void;
  /** Runs `make` with relative paths resolved in `cwd` (null: unknown), as after `tar -C DIR`. */
  within<T>(cwd: string | null, make: () => T): T;
  /** An option that changes what the program is: an allow rule must name it. */
  namedOption(option: string, word: Arg, why: string): void;
  /** An option the program's table does not list (or a dynamic word that may be one). */
  unknownOption(option: string, word: Arg, program: string, checkedAgainst?: string | null, dynamic?: boolean): void;
  /** The text of a script file the program runs (`sed -f F`, `awk -f F`); null when it cannot be read. */
  scriptText(file: Arg): string | null;
  /**
   * A read of `arg` and of every file below it the program's walk reaches (`grep -r`, `rg`,
   * `find -L`): sensitive files and links leading out of the workspace are reads of their own.
   */
  recursiveRead(arg: Arg, walk: RecursiveWalk, source: OpSource): void;
}

/** How a program walks the directories it reads recursively (each program's own knowledge, in its hook). */
export interface RecursiveWalk {
  /** Links met below a start point are followed (`grep -R`, `rg -L`, `find -L`); links given as start points always are. */
  followsLinks: boolean;
  /** The walk lists names and reads no content (`find -L`): only where links lead matters, as a List. */
  lists?: boolean;
  /** Names starting with `.` below a start point are skipped (rg without `--hidden`). */
  skipsHidden: boolean;
  /**
   * Base-name globs that select the files read (`grep --include=GLOB`, `rg -g GLOB`). Where the
   * tree cannot be read from the disk, what they may select is compared with the sensitive names.
   */
  selects?: string[];
  /**
   * Names of ignore files whose `!PATTERN` lines bring a skipped hidden name back (rg's `.ignore`,
   * `.gitignore`…): where one below the start point, or above it in the workspace, has such a line,
   * hidden names are not counted as skipped.
   */
  ignoreFiles?: string[];
}

export interface HandlerResult {
  class?: CommandClass;
  /** The handler made the operations for every operand itself. */
  skipOperands?: boolean;
  /** The handler made the operations for every option value itself (else the spec's roles apply). */
  skipOptions?: boolean;
  /** The handler reported the options it does not know itself (its own option language). */
  optionsChecked?: boolean;
  /**
   * The handler proved the effects the spec's `ops` stand for do not happen (an interpreter whose
   * inline program only reads and prints): they are not added.
   */
  skipSpecOps?: boolean;
  /** The handler read the argv differently (tar's old-style bundle): roles and checks use this. */
  parsed?: ParsedArgv;
}

/**
 * A program's operations beyond its spec's roles: adds operations to `b` and may change the
 * class. `parsed` is the argv parsed with the program's spec (null when there is no spec).
 */
export type OperationsHook = (b: OperationSink, parsed: ParsedArgv | null) => HandlerResult | void;

/**
 * What a program prints on stdout when that is a list of names (`find .`, `git ls-files`): a
 * consumer that reads names from it (`xargs`) gets paths of these patterns instead of unknown ones.
 */
export interface PrintedNames {
  /** Globs every printed name matches, relative to the command's working directory or absolute. */
  patterns: string[];
  /** How names are separated: a NUL byte (`-print0`, `-z`) or a newline. */
  separator: 'nul' | 'newline';
  /** A newline inside a name is escaped (git quotes such names), so one line is always one name. */
  newlineSafe: boolean;
  /** A name may start with `-` (printed without a `./` or root prefix): it may be read as an option. */
  dashFirst: boolean;
}

/** A command a program runs once per match, or per batch of matches (`find -exec`, `fd -x`). */
export interface PerMatchCommand {
  /** The option that runs it: `-exec`, `-execdir`, `-ok`, `-okdir`, `-x`, `-X`. */
  primary: string;
  /** Its argv, each match standing as a pattern of the paths it may be (dynamic when not known). */
  args: Arg[];
}

export interface ProgramHooks {
  /**
   * A wrapper (tag `wrapper`) or shell: what it runs, where its spec cannot say it (`env -S`
   * splits a string, `ssh` joins the rest into a remote command line, `sudo -i` opens a shell).
   * Without it, the command starts at the spec's `command` operand.
   */
  unwrap?: UnwrapHook;
  /** The module that defines these hooks, under src/programs/hooks/ (`find.ts`): explain names it. */
  module?: string;
  /** Operations the spec cannot say (sed's and awk's program text, find's expression, tar's modes…). */
  operations?: OperationsHook;
  /** The names this command line prints on stdout, when it prints only names of files; else null. */
  prints?: (args: Arg[]) => PrintedNames | null;
  /**
   * A filter that only selects or reorders whole lines of its stdin (`sort`, `grep -v x`, `head`):
   * the separator it reads and writes lines by, or null when this command line does more.
   */
  passesLines?: (args: Arg[]) => 'nul' | 'newline' | null;
  /** The commands this command line runs on what it finds (walked as commands of their own). */
  execs?: (args: Arg[]) => PerMatchCommand[];
}
