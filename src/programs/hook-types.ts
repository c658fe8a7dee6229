/**
 * What a program does that its spec (data, rules/programs/<program>.json) cannot say, as code
 * beside the program: src/programs/hooks/<program>.ts. Every member is optional; a program with
 * no hooks is described by its spec alone.
 */
import type { UnwrapHook } from './unwrap-types.js';

export interface ProgramHooks {
  /**
   * A wrapper (tag `wrapper`) or shell: what it runs, where its spec cannot say it (`env -S`
   * splits a string, `ssh` joins the rest into a remote command line, `sudo -i` opens a shell).
   * Without it, the command starts at the spec's `command` operand.
   */
  unwrap?: UnwrapHook;
}
