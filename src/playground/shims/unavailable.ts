/**
 * Stands for web-tree-sitter and bash-parser in the browser build: only the `tree-sitter` and
 * `consensus` parser choices load them, and the playground runs the default parser.
 */
const unavailable = (): never => {
  throw new Error('the tree-sitter and bash-parser front ends are not in the browser build (the playground runs the default parser)');
};
export const Parser = { init: unavailable };
export const Language = { load: unavailable };
export const parse = unavailable;
export default { Parser, Language, parse };
