/** Named predicates for the resource-abuse rules (rules/builtin/resource-abuse.json). */
import type { Subject } from '../subject.js';

export const resourceAbusePredicates: Record<string, (s: Subject) => boolean> = {};
