/** Named predicates for the destructive-delete rules (rules/builtin/destructive-delete.json). */
import type { Subject } from '../subject.js';

export const destructiveDeletePredicates: Record<string, (s: Subject) => boolean> = {};
