/** The argv parser moved to programs/argv.ts (below walk/ and ops/); this name is kept for older imports. */
export * from '../programs/argv.js';
