/**
 * The shapes a wrapper's unwrap hook reads and answers (src/programs/hooks/<wrapper>.ts): given
 * the wrapper's arguments after its name, where the command it runs starts, or which argument
 * is a shell command line. Generic in the word type so the walker's words (walk/types.ts Arg,
 * with spans) come back as they went in.
 */

/** As much of an argv word as unwrapping reads. */
export interface Word {
  value: string;
  /** Only known at run time: `value` is the text as written. */
  dynamic: boolean;
  /** The word as written, when it came from one. */
  raw?: string;
}

export type Inner<W extends Word> =
  /** The wrapped command is `args.slice(start)` (possibly with extra trailing arguments). */
  | { kind: 'argv'; start: number; extraArgs?: 'stdin'; replace?: string }
  /** The wrapped command is a shell string (`sh -c S`, `su -c S`, `watch 'a | b'`). */
  | { kind: 'shell'; script: W[] }
  /** Shell command lines built from `args.slice(start)`, each a job (`parallel`; the walker builds them). */
  | { kind: 'jobs'; start: number }
  /** An interactive or stdin-reading shell (`sudo -i`, `su`, `bash`, `bash -s`). */
  | { kind: 'stdin-shell' }
  /** Runs a script file (`bash script.sh`). */
  | { kind: 'script-file'; file: W }
  /** Only looks something up or prints (`command -v x`, bare `env`). */
  | { kind: 'none' };

/** `env X=1 cmd`, `sudo X=1 cmd`: a value only known at run time is null. */
export interface WrapperAssignment {
  name: string;
  value: string | null;
}

export interface UnwrapAnswer<W extends Word> {
  inner: Inner<W>;
  /** The host the command runs on (`ssh host cmd`). */
  remote?: string;
  assignments?: WrapperAssignment[];
}

/** The wrapper's own options, read with its spec's option table (src/programs/wrapper-options.ts). */
export interface OptionScan<W extends Word> {
  /** Index of the first operand. */
  index: number;
  flags: Set<string>;
  values: Map<string, W>;
  /** The value of an option whose role is `shell-string` (`su -c STRING`). */
  shellString: W | null;
  /** Values of options whose role is `chdir` (`env -C DIR`), in order: where the command runs. */
  chdir: W[];
}

export interface UnwrapInput<W extends Word> {
  args: W[];
  /** The options before the first operand. */
  scan: OptionScan<W>;
  /** Read options again from another index (`flock FILE -c CMD`). */
  scanFrom(start: number): OptionScan<W>;
}

export type UnwrapHook = <W extends Word>(input: UnwrapInput<W>) => UnwrapAnswer<W>;
