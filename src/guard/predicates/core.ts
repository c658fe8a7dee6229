/**
 * What guard rules cannot say declaratively, as small named predicates. Each is referenced by name
 * from a rule (`"predicate": "fork-bomb"`) and tested through that rule's examples.
 */
import type { Subject } from '../subject.js';
import { requires, type Predicate } from './programs.js';

/**
 * A function that calls itself in a pipeline or in the background, and is called: `:(){ :|:& };:`,
 * `bomb() { bomb | bomb & }; bomb`. Each call starts two more, without end.
 */
function forkBomb(s: Subject): boolean {
  const name = s.cmd.calls?.kind === 'function' ? s.cmd.calls.name : null;
  if (name === null || s.cmd.context.functionName === name) return false;
  return s.all.some((o) => o.cmd.calls?.name === name && o.cmd.context.functionName === name && (o.cmd.context.pipeline !== null || o.cmd.context.background));
}

/** A command started in the background inside a loop that never ends (`while :; do … & done`). */
function spawnLoop(s: Subject): boolean {
  return s.cmd.context.infiniteLoop && s.cmd.context.background && s.cmd.program !== null;
}

/** Any command inside a loop that never ends and never sleeps. */
function busyLoop(s: Subject): boolean {
  if (!s.cmd.context.infiniteLoop) return false;
  return !s.all.some((o) => o.cmd.context.infiniteLoop && (o.cmd.program === 'sleep' || o.cmd.program === 'read' || o.cmd.program === 'wait'));
}

export const CORE_PREDICATES: Record<string, Predicate> = {
  'fork-bomb': requires([{ features: ['calls-function'] }], forkBomb),
  'spawn-loop': requires([{ features: ['infinite-loop'] }, { features: ['background'] }], spawnLoop),
  'busy-loop': requires([{ features: ['infinite-loop'] }], busyLoop),
};
