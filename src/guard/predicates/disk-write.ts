/** Named predicates for the disk-write rules (rules/builtin/disk-write.json). */
import type { Subject } from '../subject.js';

export const diskWritePredicates: Record<string, (s: Subject) => boolean> = {};
