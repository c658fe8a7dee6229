/** What the walker produces: every simple command that could run, with its context. */
import type { Span } from '../syntax/ast.js';
import type { Arg } from '../expand/arg.js';

/** `shopt` glob options that change what a later glob can match (set: may be on). */
export type GlobOption = 'dotglob' | 'globstar' | 'nullglob' | 'extglob' | 'nocaseglob' | 'failglob';

/** One argv word after expansion (a word can give several, or none): defined in expand/, where programs/ can read it. */
export type { Arg } from '../expand/arg.js';

export interface RedirectTarget {
  /** `>`, `>>`, `<`, `<<<`, `<<`, `>&`… as written. */
  op: string;
  fd: number | null;
  /** File target; null for fd duplications, heredocs and here-strings. */
  path: Arg | null;
  /** `>&2`, `2>&1`, `<&-`: fd duplication or close, not a file. */
  dup: boolean;
  /** Heredoc / here-string content when static (fed to the command's stdin). */
  input: string | null;
  /**
   * Written on a wrapper (`sudo bash >& /dev/tcp/…`): the wrapped command inherits the stream.
   * Its file operation belongs to the wrapper (the shell opens it once).
   */
  inherited?: boolean;
  span: Span;
}

export type Via =
  | 'wrapper' // sudo, env, timeout… (the wrapper itself is a command too)
  | 'shell-c' // bash -c STRING
  | 'shell-stdin' // sh <<< STRING, sh <<EOF
  | 'eval'
  | 'source'
  | 'alias'
  | 'xargs'
  | 'find-exec'
  | 'remote'; // ssh host CMD

export interface CommandContext {
  /** Pipeline this command is a stage of (id shared by its stages), index and length. */
  pipeline: { id: number; index: number; length: number } | null;
  /** Inside `$(…)`, backticks, `<(…)` or `>(…)`. */
  substitution: 'command' | 'process-in' | 'process-out' | null;
  background: boolean;
  negated: boolean;
  /** Runs only depending on an earlier command (`&&`, `||`, if/while/case). */
  conditional: boolean;
  loop: boolean;
  /** Inside a loop whose condition never fails (`while :`, `while true`, `until false`, `for ((;;))`). */
  infiniteLoop: boolean;
  /**
   * How many times the loops around it run it, all passes multiplied (`for i in {1..50}` inside
   * `for j in a b`: 100); Infinity in a loop that never ends; null outside loops or when a header
   * does not say (walk/loop-passes.ts).
   */
  loopPasses: number | null;
  /**
   * How many copies of it a loop starts in the background: the loop passes around the `&` that
   * backgrounds it (`for i in {1..500}; do x & done`: 500). Null when no `&` inside a counted loop
   * backgrounds it (`(for …; do x; done) &` runs the passes one after another).
   */
  backgroundJobs: number | null;
  /** Name of the function whose body this is. */
  functionName: string | null;
  /** Nesting depth of constructs and nested scripts. */
  depth: number;
  /** How it was reached, outermost first (e.g. `['wrapper:sudo', 'shell-c:bash']`). */
  via: string[];
  /** Host for commands that run remotely (`ssh host CMD`). */
  remote: string | null;
  /** Runs with raised privileges (sudo, doas, su, pkexec…). */
  privileged: boolean;
}

/** The context of a command at the top level of the line: nothing around it yet. */
export function topLevelContext(): CommandContext {
  return {
    pipeline: null,
    substitution: null,
    background: false,
    negated: false,
    conditional: false,
    loop: false,
    infiniteLoop: false,
    loopPasses: null,
    backgroundJobs: null,
    functionName: null,
    depth: 0,
    via: [],
    remote: null,
    privileged: false,
  };
}

export interface WalkedCommand {
  /** Index in the verdict's `commands` list. */
  id: number;
  /** Normalised program name (`/bin/rm`, `\rm`, `"rm"` → `rm`); null when it is dynamic or absent. */
  program: string | null;
  /** The program word as written. */
  programRaw: string;
  /** The program as a path when it was given with a `/` (`./cat`, `/usr/bin/rm`), else null. */
  programPath: string | null;
  /** Arguments after the program (expanded). */
  args: Arg[];
  /** `NAME=value` prefix assignments (value null when dynamic). */
  assignments: { name: string; value: string | null }[];
  redirects: RedirectTarget[];
  context: CommandContext;
  /** Working directory at this point; null when it cannot be known. */
  cwd: string | null;
  /** Id of the wrapper command this one was unwrapped from. */
  parent: number | null;
  /** For commands inside `$(…)`, backticks or `<(…)` in another command's words: that command's id. */
  substitutionOf: number | null;
  /**
   * Calls a function defined on the line. `maybe`: the definition may not have run (after `&&`, in
   * a branch), so the program of that name may run instead and is analysed too.
   */
  calls: { kind: 'function'; name: string; maybe?: boolean } | null;
  /** The command reads the program text it runs from stdin (`sh`, `bash -s`, `python -`). */
  execsStdin: boolean;
  /**
   * What the command reads on stdin when that is known statically: a heredoc or here-string, or
   * the output of `echo`/`printf` with static arguments in the stage before it.
   */
  stdinText: string | null;
  /**
   * Variables exported earlier on this line (`export X=1; cmd`, `set -a; X=1; cmd`), with their
   * value when it is known (null: exported, value unknown). Prefix assignments are in `assignments`.
   */
  exported: ReadonlyMap<string, string | null>;
  /** Glob options the line may have turned on by now (`shopt -s dotglob`…): they change what globs match. */
  globOptions: ReadonlySet<GlobOption>;
  span: Span;
  /** Source text of the simple command (nested scripts: the text of the nested command). */
  text: string;
}
