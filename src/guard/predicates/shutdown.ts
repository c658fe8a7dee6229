/** Named predicates for the shutdown rules (rules/builtin/shutdown.json). */
import type { Subject } from '../subject.js';

export const shutdownPredicates: Record<string, (s: Subject) => boolean> = {};
