/** The public shape of a verdict and its findings. */
import type { Span } from '../syntax/ast.js';
import type { WalkedCommand } from '../walk/types.js';
import type { Operation } from '../ops/types.js';

export type Level = 'allow' | 'ask' | 'deny';

export const LEVEL_ORDER: Record<Level, number> = { allow: 0, ask: 1, deny: 2 };

export function stricter(a: Level, b: Level): Level {
  return LEVEL_ORDER[a] >= LEVEL_ORDER[b] ? a : b;
}

export interface Finding {
  /** Stable id (`parse-error`, `dynamic-command`, `destructive-delete/rm-recursive-root`…). */
  rule: string;
  category: string;
  level: Level;
  /** One line that says what was found and why it matters. */
  message: string;
  /** Where in the original command text. */
  span: Span;
  /** Index into `commands` of the sub-command it is about, when there is one. */
  command?: number;
  /** Index into `operations` of the operation it is about, when there is one. */
  operation?: number;
  /** The word the finding is about, when a policy needs it (`named-option`: the option). */
  subject?: string;
}

export interface TraceStep {
  /** Which layer spoke: `parse`, `walk`, `ops`, `paths`, `guard`, `options`, `final`. */
  layer: string;
  level: Level;
  reason: string;
}

export interface Verdict {
  command: string;
  level: Level;
  findings: Finding[];
  commands: WalkedCommand[];
  operations: Operation[];
  trace: TraceStep[];
}
