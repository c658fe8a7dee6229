/**
 * Approval modes, applied after the rules (layer 8), then the channel:
 * - plan: only read-only calls may run; anything mutating is denied, saying why.
 * - default: ask stays ask.
 * - auto-edit: edits and writes inside the workspace are approved (file tools and shell writes
 *   such as mkdir, touch, cp, mv, `> file`), nothing else.
 * - auto: the ask tier goes to a classifier; until one is configured, ask.
 * - yolo: ask becomes allow; every deny stays deny.
 * On a non-interactive channel ask becomes deny: there is nobody to ask.
 */
import type { ModeName } from '../agents/types.js';

export const MODES = ['plan', 'default', 'auto-edit', 'auto', 'yolo'] as const;
export type Mode = (typeof MODES)[number];

// Agent profiles name modes without importing policy: the two lists must be the same.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameModes: Same<Mode, ModeName> = true;
void sameModes;

/** Channels where nobody can answer a question. */
export const NON_INTERACTIVE_CHANNELS = new Set(['non-interactive', 'ci', 'batch', 'headless']);
