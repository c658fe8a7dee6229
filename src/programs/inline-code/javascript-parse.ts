/**
 * Reads `node -e`/`-p` code the way node does, with acorn (a real ECMAScript parser): a sloppy-mode
 * script of ECMAScript 2022, which every node still in use parses (newer syntax could fail in an
 * older node, which may then read the text again as a module or as TypeScript). Anything that is
 * not a plain script (`import`/`export`, `import.meta`: node ≥ 22 would run it again as a module)
 * is a parse error here, so not proven.
 * acorn is loaded on the first call only: a hook call that meets no JavaScript does not pay for it.
 */
import { createRequire } from 'node:module';
import type { Options, Program } from 'acorn';

type Parse = (input: string, options: Options) => Program;

let parser: Parse | null | undefined;

function loadParser(): Parse | null {
  if (parser === undefined) {
    try {
      parser = (createRequire(import.meta.url)('acorn') as { parse: Parse }).parse;
    } catch {
      parser = null; // the playground's bundle, or acorn missing: nothing is proven
    }
  }
  return parser;
}

/**
 * The program's AST, or why it could not be read. HTML-like comments (`<!--`, `-->`) are where
 * acorn and V8 read the same text differently (`/*…*\/ -->` is a comment to V8 only), so any text
 * that holds one is not read at all.
 */
export function parseNodeScript(code: string): Program | string {
  if (code.includes('<!--') || code.includes('-->')) return 'an HTML-like comment, which parsers read differently';
  const parse = loadParser();
  if (parse === null) return 'no JavaScript parser is available';
  try {
    return parse(code, { ecmaVersion: 2022, allowHashBang: true, sourceType: 'script', allowReturnOutsideFunction: false, allowAwaitOutsideFunction: false });
  } catch {
    return 'the JavaScript code does not parse as a script';
  }
}
