/**
 * A second front end: the `bash-parser` package (npm, v0.5.0, CommonJS) parses the command and
 * this adapter converts its tree into shellgate's own AST (ast.ts), so the two parsers can be
 * compared (test/differential) or one used where the other fails.
 *
 * What comes from bash-parser: the command structure (lists, `&&`/`||`, `&`, pipelines, simple
 * commands, subshells, groups, functions, if/for/while/until/case), which tokens are words,
 * assignments and redirects, and where each word starts and ends (`insertLOC`). What the adapter
 * adds itself, because bash-parser does not give it, and where (all under bash-parser/):
 *
 * - heredoc bodies and `&>`, which bash-parser misreads: found and blanked before it parses
 *   (prepare-input.ts), rebuilt afterwards (redirects.ts);
 * - word parts, re-scanned from each word's source slice (words.ts, assignments.ts, with the end
 *   finders of scan-ends.ts); substitution bodies are parsed again with bash-parser;
 * - whether `;` or a newline separated two commands (separators.ts);
 * - spans in UTF-16 code units of the source, where bash-parser counts code points (frame.ts).
 *
 * This file only names the public entry points, so importers need not know the folder's layout.
 */
export { loadBashParser } from './bash-parser/load.js';
export { parseWithBashParser } from './bash-parser/parse.js';
export type { AdapterRepair } from './bash-parser/context.js';
