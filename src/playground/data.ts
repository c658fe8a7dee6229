/**
 * shellgate's own data (command specs, guard rules) put in the in-memory tree before any other
 * module of the bundle runs: some read it when they load. Imported first by browser-entry.ts.
 */
// @ts-expect-error: a module the playground build generates (scripts/build-playground.mjs)
import data from 'shellgate-data';
import { declare } from './shims/fs.js';

for (const [path, text] of Object.entries(data as Record<string, string>)) declare(path, { kind: 'file', text });
