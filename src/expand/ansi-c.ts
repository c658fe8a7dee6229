// TEMPORARY (issue 14): decodeAnsiC moved to src/syntax/ansi-c.ts (the syntax layer reads `$'…'`
// and may not import expand/). This re-export keeps src/walk/printed-text.ts building until its
// owner imports '../syntax/ansi-c.js'; then delete this file.
export { decodeAnsiC } from '../syntax/ansi-c.js';
