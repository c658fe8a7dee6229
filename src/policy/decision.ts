/**
 * What the gate answers for a tool call, and the names of the layers that can decide it. The
 * `layer` of a decision is a contract: users read it in `explain`, the audit log and hook reasons.
 */
import type { Finding, Level, TraceStep, Verdict } from '../verdict/types.js';
import type { Part } from './tool-calls.js';

/** The gate's layers, in the order they run (policy/layers.ts holds the table). */
export const GATE_LAYER_NAMES = [
  'tool-default',
  'whole-tool-deny',
  'guard-deny',
  'rule-deny',
  'rule-ask',
  'rule-allow',
  'external-directory',
  'mode',
  'channel',
] as const;
export type GateLayerName = (typeof GATE_LAYER_NAMES)[number];

/** The steps auto mode appends after the gate's layers (auto/auto-gate.ts), and `user` when it hands the call to a person. */
export const AUTO_STEP_NAMES = ['policy', 'accept-edits', 'safe-tool', 'guard', 'classifier', 'user'] as const;
export type AutoStepName = (typeof AUTO_STEP_NAMES)[number];
export type AutoLayerName = `auto:${AutoStepName}`;

/** Every name a decision's `layer` can hold. */
export type LayerName = GateLayerName | AutoLayerName;

export interface PartDecision {
  kind: Part['kind'];
  label: string;
  /** The sub-command it belongs to (shell calls). */
  command?: number;
  level: Level;
  /** Which layer and rule decided this part. */
  decidedBy: string;
}

export interface Decision {
  level: Level;
  reason: string;
  /** The layer that decided: one of the gate's layers, or auto mode's `auto:<step>`. */
  layer: LayerName;
  findings: Finding[];
  trace: TraceStep[];
  parts: PartDecision[];
  /** The analyser's verdict, for shell calls. */
  verdict?: Verdict;
}
