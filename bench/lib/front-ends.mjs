// The parsers timed alone, on the same commands as the full verdict. Each is called as its own
// users call it: ours and tree-sitter into shellgate's AST, bash-parser and shell-quote straight
// from their packages (a peer built on them pays exactly that), and tree-sitter's bare parse (tree
// built and freed, nothing read from it) as the floor under the tree-sitter front end.
import { createRequire } from 'node:module';
import { swallowing } from './timing.mjs';

const require = createRequire(import.meta.url);

/**
 * @typedef {{ name: string, parse: ((command: string) => unknown) | null, note?: string }} FrontEnd
 * `parse` is null when the front end cannot run in this build; `note` says why.
 */

/** Our parser (src/syntax/parser), or null with the reason while it is not built or not implemented. */
export async function ourParser() {
  try {
    const { parseBash } = await import('../../dist/syntax/parser/index.js');
    parseBash('true');
    return { parse: parseBash };
  } catch (e) {
    return { parse: null, note: String(e?.message ?? e).split('\n')[0] };
  }
}

/** @returns {Promise<FrontEnd[]>} */
export async function loadFrontEnds() {
  const ours = await ourParser();
  const { BashParser } = await import('../../dist/syntax/tree-sitter/parser.js');
  const ts = await BashParser.create();
  const rawTs = await bareTreeSitter();
  const bashParser = require('bash-parser');
  const { parse: shellQuote } = require('shell-quote');
  return [
    { name: 'ours (parseBash → our AST)', parse: ours.parse, note: ours.note },
    { name: 'tree-sitter → our AST', parse: (c) => ts.parse(c) },
    { name: 'tree-sitter bare parse', parse: rawTs },
    // bash-parser throws on what it cannot read (about one command in ten): that is its answer.
    { name: 'bash-parser parse', parse: swallowing((c) => bashParser(c)) },
    { name: 'shell-quote tokenise', parse: swallowing((c) => shellQuote(c)) },
  ];
}

async function bareTreeSitter() {
  const { Parser, Language } = await import('web-tree-sitter');
  await Parser.init();
  const p = new Parser();
  p.setLanguage(await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')));
  return (c) => p.parse(c)?.delete();
}
