/** Virtual operations: what a command does, independent of how it is spelt. */
import type { Span } from '../syntax/ast.js';
import type { PathClass } from '../paths/classify.js';
import type { OpKind, OpSource } from '../programs/hook-types.js';

/** Defined in programs/ (hooks make operations too); re-exported for the rest of the pipeline. */
export type { OpKind, OpSource } from '../programs/hook-types.js';

export interface Operation {
  kind: OpKind;
  /** Index of the sub-command in the verdict's `commands`. */
  command: number;
  /**
   * Absolute path it touches (glob pattern when `glob`), when it touches one: as written, made
   * absolute, unless the kernel reaches another place — a `..` after a symlink, a link made
   * earlier on the line — then that place (paths/readings.ts). `classes` follow the links on disk.
   */
  path?: string;
  /** The path or target as written. */
  target?: string;
  /** Classes of the path (workspace, temp, outside, system, sensitive, device…). */
  classes?: PathClass[];
  host?: string;
  url?: string;
  /** Program it executes (Exec). */
  program?: string;
  /**
   * Where it comes from: an operand, an option, a redirect, the program itself, its stdin, or
   * configuration the program loads from the project or the environment (`config`: `target`
   * says which key or file, `path` is that file when there is one).
   */
  source: OpSource;
  /** Not known statically. */
  dynamic: boolean;
  /** Dynamic because names printed by a program were split where a name may hold the separator (`split-names`). */
  splitNames?: boolean;
  /**
   * Names printed by a program and split into words, judged whole because no name on disk holds
   * a separator — which holds only if nothing on the line makes names first (analyzer-stages.ts).
   */
  splitWhole?: boolean;
  /** Env: the variable's value is printed (`printenv NAME`, `declare -p NAME`), not set. */
  prints?: boolean;
  glob: boolean;
  /** A glob whose wildcards may match names that start with `.` (`shopt -s dotglob`, find's `{}`). */
  dotGlob?: boolean;
  /**
   * The program walks everything below `path` (`grep -r`, `tar -c`, `find`): what is below is
   * reached too, and a deny on any of it applies (policy/rule-match.ts). `visible`: the walk
   * skips names that start with `.`.
   */
  walks?: 'all' | 'visible';
  /** The walk follows the links it meets below its start (`grep -R`, `find -L`). */
  followsLinks?: boolean;
  span: Span;
  /** What produced it: a command spec's operand or option, or the code that reads the program (for `explain`). */
  origin?: OpOrigin;
}

/**
 * Provenance of an operation. `spec`: the command spec file (`rules/programs/rm.json`) and
 * what in it — operand N with its role, an option, the spec's fixed `reads` or extra `ops`.
 * `handler`: code that reads the command itself (a redirect, a wrapper, a program handler…).
 */
export type OpOrigin =
  | {
      spec: string;
      /** Program and subcommands whose table was read (`git push`). */
      program: string;
      /** 1-based operand (after options and subcommands). */
      operand?: number;
      option?: string;
      /** The role the spec gives that operand or option value (`delete`, `url`…). */
      role?: string;
      /** A spec field other than operands and options: `reads`, `writes` (a fixed file), `ops` (an extra operation). */
      field?: 'reads' | 'writes' | 'ops';
    }
  | {
      handler: OpHandler;
      program?: string;
    };

/** The code paths that make operations outside the spec tables (explain maps each to its module). */
export type OpHandler =
  | 'assignment'
  | 'redirect'
  | 'program-handler'
  | 'wrapper'
  | 'program-path'
  | 'unknown-program'
  | 'landing'
  | 'patch-targets'
  | 'project-config'
  | 'stdin-program'
  | 'glob';
