/**
 * `node:module` for the browser build. Only the tree-sitter and bash-parser front ends use it; the
 * page runs the default pipeline (shellgate's own parser), so asking for them is an error.
 */
export function createRequire(): (id: string) => never {
  return (id: string) => {
    throw new Error(`${id} is not available in the browser build (the playground runs the default parser)`);
  };
}
export default { createRequire };
