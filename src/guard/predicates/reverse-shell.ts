/** Named predicates for the reverse-shell rules (rules/builtin/reverse-shell.json). */
import type { Subject } from '../subject.js';

export const reverseShellPredicates: Record<string, (s: Subject) => boolean> = {};
