/**
 * Find the command a wrapper runs. Given a wrapper's arguments (after its name), say where the
 * wrapped argv starts, or which argument is a shell string to parse, with the wrapper's side facts
 * (privilege, remote host, extra arguments from stdin). What a wrapper is comes from the program
 * registry: its tags (`wrapper`, `shell`, `privilege`), its spec's options and `command`
 * operand, and its unwrap hook (src/programs/hooks/<wrapper>.ts) where data cannot say it.
 */
import type { Arg } from './types.js';
import { parallelJobs } from './parallel-jobs.js';
import { registry, type ProgramEntry } from '../programs/registry.js';
import { scanOptions, wrapperOptions } from '../programs/wrapper-options.js';
import type { Inner as HookInner, UnwrapAnswer, UnwrapInput } from '../programs/unwrap-types.js';

export type Inner =
  | Exclude<HookInner<Arg>, { kind: 'jobs' }>
  /** Several shell command lines, each a job (`parallel`). */
  | { kind: 'jobs'; scripts: Arg[] };

export interface Unwrapped {
  wrapper: string;
  inner: Inner;
  privileged: boolean;
  remote: string | null;
  /** `env VAR=x cmd`, `sudo VAR=x cmd`. */
  assignments: { name: string; value: string | null }[];
  /** `env -C DIR cmd`, `sudo -D DIR cmd`: the directories it changes to, in order, before running the command. */
  chdir: Arg[];
}

/** A wrapper that runs its command with raised rights: it raises them (sudo) or only root may run it (chroot). */
export function runsPrivileged(entry: ProgramEntry): boolean {
  return entry.tags.has('wrapper') && (entry.tags.has('privilege') || entry.tags.has('runs-as-root'));
}

/** Without a hook: the command is at the spec's `command` operand; nothing runs when it is missing. */
function commandOperand(entry: ProgramEntry, { args, scan }: UnwrapInput<Arg>): UnwrapAnswer<Arg> {
  const at = entry.spec?.operands?.indexOf('command') ?? 0;
  const start = scan.index + Math.max(at, 0);
  return { inner: start >= args.length ? { kind: 'none' } : { kind: 'argv', start } };
}

/** Unwrap `name args…` if `name` is a wrapper or a shell; null when it is neither. */
export function unwrap(name: string, args: Arg[], stdin: string | null = null): Unwrapped | null {
  // Every command asks; most are neither: two lookups in the tag index, no spec read.
  if (!registry.has(name, 'wrapper') && !registry.has(name, 'shell')) return null;
  const entry = registry.get(name);
  const opts = wrapperOptions(entry.tags.has('wrapper') ? entry.spec : undefined);
  const input: UnwrapInput<Arg> = {
    args,
    scan: scanOptions(args, 0, opts),
    scanFrom: (start) => scanOptions(args, start, opts),
  };
  const answer = entry.hooks.unwrap ? entry.hooks.unwrap(input) : commandOperand(entry, input);
  const inner: Inner = answer.inner.kind === 'jobs' ? { kind: 'jobs', scripts: parallelJobs(args.slice(answer.inner.start), stdin) } : answer.inner;
  return {
    wrapper: name,
    inner,
    privileged: runsPrivileged(entry),
    remote: answer.remote ?? null,
    assignments: answer.assignments ?? [],
    chdir: input.scan.chdir,
  };
}
