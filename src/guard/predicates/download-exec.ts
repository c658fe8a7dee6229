/** Named predicates for the download-exec rules (rules/builtin/download-exec.json). */
import type { Subject } from '../subject.js';

export const downloadExecPredicates: Record<string, (s: Subject) => boolean> = {};
