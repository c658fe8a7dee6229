/**
 * The parsers the analyser reads a command with: the one in front (ours or tree-sitter), and in
 * consensus mode the second opinions it is compared with.
 */
import { parseBash } from './syntax/parser/index.js';
import type { ParseResult } from './syntax/parse-result.js';
import { compareStructures, structureOf } from './expand/structure.js';
import type { ParserChoice } from './analyzer-options.js';

export type FrontEnd = (s: string) => ParseResult;

/** How the other parsers read a text our parser read: `difference` null when they agree. */
export type Consensus = (ours: ParseResult, source: string) => { difference: string | null; reason: string };

/**
 * The parser in front: ours, or tree-sitter (loaded only when asked for: its WASM costs start-up
 * time and memory the default path does not pay).
 */
export async function frontEnd(choice: ParserChoice): Promise<FrontEnd> {
  if (choice !== 'tree-sitter') return parseBash;
  const { BashParser } = await import('./syntax/tree-sitter/parser.js');
  const parser = await BashParser.create();
  return (s) => parser.parse(s);
}

/**
 * Consensus: tree-sitter-bash and bash-parser read the text too, and any structural difference
 * from our reading asks. Where one of them cannot parse, there is nothing to compare with it.
 */
export async function secondOpinions(): Promise<Consensus> {
  const [{ BashParser }, { loadBashParser, parseWithBashParser }] = await Promise.all([
    import('./syntax/tree-sitter/parser.js'),
    import('./syntax/bash-parser-adapter.js'),
  ]);
  const treeSitter = await BashParser.create();
  await loadBashParser();
  return (ours, source) => {
    const mine = structureOf(ours.script);
    const ts = treeSitter.parse(source);
    if (ts.issues.length === 0) {
      const d = compareStructures(mine, structureOf(ts.script));
      if (d !== null) return { difference: `tree-sitter-bash: ${d}`, reason: `tree-sitter-bash reads it otherwise: ${d}` };
    }
    const bp = parseWithBashParser(source);
    if (bp !== null) {
      const d = compareStructures(mine, structureOf(bp));
      if (d !== null) return { difference: `bash-parser: ${d}`, reason: `bash-parser reads it otherwise: ${d}` };
    }
    const unread = [ts.issues.length > 0 ? 'tree-sitter-bash' : '', bp === null ? 'bash-parser' : ''].filter(Boolean);
    return {
      difference: null,
      reason: unread.length === 0 ? 'all three parsers agree' : `the parsers that could read it agree (${unread.join(' and ')} could not)`,
    };
  };
}
