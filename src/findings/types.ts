/**
 * What a finding is: the one shape every layer reports in, from the walker to the policy gate.
 * It sits below the parser so that any layer can make findings without importing a later one.
 */

export type Level = 'allow' | 'ask' | 'deny';

export const LEVEL_ORDER: Record<Level, number> = { allow: 0, ask: 1, deny: 2 };

export function stricter(a: Level, b: Level): Level {
  return LEVEL_ORDER[a] >= LEVEL_ORDER[b] ? a : b;
}

/** Offsets into the original command string (UTF-16 code units, end exclusive); the parser's Span has this shape. */
export interface Span {
  start: number;
  end: number;
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
  /** MITRE ATT&CK technique ids (guard findings: those of the rule that matched). */
  attack?: string[];
  /** The word the finding is about, when a policy needs it (`named-option`: the option). */
  subject?: string;
}
