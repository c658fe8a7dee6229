/** Named predicates for the privilege-escalation rules (rules/builtin/privilege-escalation.json). */
import type { Subject } from '../subject.js';

export const privilegeEscalationPredicates: Record<string, (s: Subject) => boolean> = {};
