/** find's command line is read in programs/hooks/find.ts; this name is kept for older imports. */
export { findCommandLine as findRoots, type FindArgs } from '../programs/hooks/find.js';
