/** Named predicates for the obfuscation rules (rules/builtin/obfuscation.json). */
import type { Subject } from '../subject.js';

export const obfuscationPredicates: Record<string, (s: Subject) => boolean> = {};
