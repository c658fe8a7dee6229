/** Every program's hooks by program name: each hooks/<program>.ts module registers itself here. */
import type { ProgramHooks } from '../hook-types.js';

export const HOOKS: Readonly<Record<string, ProgramHooks>> = {};
