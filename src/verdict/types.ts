/** The public shape of a verdict and its findings. */
import type { WalkedCommand } from '../walk/types.js';
import type { Operation } from '../ops/types.js';
import type { Level, Finding } from '../findings/types.js';

// Findings and levels live in the foundation (src/findings/); this module keeps their public names.
export { LEVEL_ORDER, stricter } from '../findings/types.js';
export type { Level, Finding } from '../findings/types.js';

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
