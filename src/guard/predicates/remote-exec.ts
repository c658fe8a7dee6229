/** Named predicates for the remote-exec rules (rules/builtin/remote-exec.json). */
import type { Subject } from '../subject.js';

export const remoteExecPredicates: Record<string, (s: Subject) => boolean> = {};
