/**
 * The file names a pipeline hands to its next stage: read from the last stage back, filters that
 * only pass whole lines (`sort`, `grep -v x`, each by the same separator) down to a producer that
 * says what it prints (`find -print0`, `git ls-files`): programs/hooks `prints` and `passesLines`.
 * One reading for a walked pipeline (`find . | sort | xargs …`) and a substitution's
 * (`$(git ls-files | grep -v test)`).
 */
import type { Arg } from '../expand/arg.js';
import type { PrintedNames } from './hook-types.js';
import { registry } from './registry.js';

/** A stage as this reads it: its program and arguments, or null when it is not one known command. */
export interface StageArgv {
  program: string;
  args: Arg[];
}

/** The names stage `count - 1` passes on (stages 0…count-1, `stageAt(k)` each); null when unknown. */
export function namesThroughStages(count: number, stageAt: (k: number) => StageArgv | null): PrintedNames | null {
  let separator: PrintedNames['separator'] | null = null;
  for (let k = count - 1; k >= 0; k--) {
    const stage = stageAt(k);
    if (stage === null) return null;
    const hooks = registry.get(stage.program).hooks;
    const printed = hooks.prints?.(stage.args) ?? null;
    if (printed !== null) return separator === null || printed.separator === separator ? printed : null;
    const passes = hooks.passesLines?.(stage.args) ?? null;
    if (passes === null || (separator !== null && passes !== separator)) return null;
    separator = passes;
  }
  return null;
}
