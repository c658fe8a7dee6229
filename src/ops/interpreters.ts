/** Interpreters moved to programs/interpreters.ts (below walk/ and ops/); this name is kept for older imports. */
export * from '../programs/interpreters.js';
