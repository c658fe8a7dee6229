/** Named predicates for the exfiltration rules (rules/builtin/exfiltration.json). */
import type { Subject } from '../subject.js';

export const exfiltrationPredicates: Record<string, (s: Subject) => boolean> = {};
