/** The browser bundle's entry: shellgate's data first (data.ts), then the engine. */
import './data.js';

export { decide } from './engine.js';
export type { PlaygroundInput, PlaygroundResult } from './engine.js';
