/**
 * Loads tree-sitter-bash (WASM, once per process) and turns source text into our AST. After the
 * async load, parsing is synchronous. Every tree-sitter tree is deleted before returning: WASM
 * memory is not garbage-collected.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { Language, Parser } from 'web-tree-sitter';
import { TSNode } from './ts-node.js';
import type { Span } from '../ast.js';
import type { ParseIssue, ParseResult } from '../parse-result.js';

export type { ParseIssue, ParseResult } from '../parse-result.js';
import { skipAnsiC } from '../bash-scan.js';
import { ansiCRepair, applyRepairs, dparenRepair, maskCarriageReturns, type Repair, type Reread } from './repairs.js';
import { CommandConverter } from './convert-commands.js';
import { isReadWriteRedirect } from './tree-sitter-quirks.js';
import { childrenOf } from './convert-words.js';

const MAX_ISSUES = 20;
/** Rounds of masking and parsing again (each fixes at least one construct). */
const MAX_REPAIR_ROUNDS = 16;

let languagePromise: Promise<Language> | null = null;

function loadLanguage(): Promise<Language> {
  if (!languagePromise) {
    const require = createRequire(import.meta.url);
    const wasm = require.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
    // web-tree-sitter's own runtime, found through the package (not beside the script that runs
    // it: the CLI is bundled into one file elsewhere).
    const runtime = require.resolve('web-tree-sitter/tree-sitter.wasm');
    // Both given as bytes: web-tree-sitter reads a path with a dynamic import(), which the bundled
    // CLI (run through vm.Script for its code cache) cannot do.
    languagePromise = Parser.init({
      locateFile: (name: string) => (name.endsWith('.wasm') ? runtime : name),
      wasmBinary: readFileSync(runtime),
    } as object).then(() => Language.load(readFileSync(wasm)));
    languagePromise.catch(() => {
      languagePromise = null; // let a later call try again
    });
  }
  return languagePromise;
}

export class BashParser {
  private constructor(private readonly parser: Parser) {}

  static async create(): Promise<BashParser> {
    const language = await loadLanguage();
    const parser = new Parser();
    parser.setLanguage(language);
    return new BashParser(parser);
  }

  /**
   * Parse as bash reads it. tree-sitter-bash cuts a few constructs into tokens differently from
   * bash (repairs.ts): those are masked and the text parsed again, a bounded number of times (each
   * round can reveal text a wrong token had swallowed). Without such constructs, one pass.
   */
  parse(source: string): ParseResult {
    let input = maskCarriageReturns(source);
    const rereads = new Map<number, Reread>();
    const masked: Span[] = [];
    for (let round = 0; ; round++) {
      const { result, repairs } = this.parseOnce(source, input, rereads);
      if (repairs.length === 0) return result;
      const next = applyRepairs(input, repairs, rereads, masked);
      if (next === input || round >= MAX_REPAIR_ROUNDS) {
        result.issues.push({ kind: 'doubt', span: repairs[0].span, text: source.slice(repairs[0].span.start, repairs[0].span.start + 80) });
        return result;
      }
      input = next;
    }
  }

  /** One tree-sitter pass over `input` (the source or a masked copy of it), converted from `source`. */
  private parseOnce(source: string, input: string, rereads: ReadonlyMap<number, Reread>): { result: ParseResult; repairs: Repair[] } {
    const tree = this.parser.parse(input);
    if (!tree) {
      const span = { start: 0, end: source.length };
      return {
        result: { script: new CommandConverter(source).script([], span), issues: [{ kind: 'error', span, text: 'parser returned no tree' }] },
        repairs: [],
      };
    }
    try {
      const root = new TSNode(tree.rootNode, null, 0, source);
      const span = { start: 0, end: source.length };
      // Backquote bodies and substitutions read again are parsed on their own (backquotes.ts, word-sites.ts).
      const converter = new CommandConverter(source, {
        parseText: (text) => {
          const r = this.parse(text);
          return { script: r.script, issues: r.issues.map((i) => ({ span: i.span, text: i.text, kind: i.kind === 'doubt' ? 'doubt' : 'error' })) };
        },
        rereads,
      });
      const script = converter.script(childrenOf(root), span);
      const repairs = converter.repairs;
      const issues = root.hasError ? findIssues(root, source, repairs) : [];
      for (const i of converter.issues) issues.push({ kind: i.kind ?? 'error', span: i.span, text: i.text });
      return { result: { script, issues }, repairs };
    } finally {
      tree.delete();
    }
  }
}

/**
 * The error and missing nodes, up to MAX_ISSUES. An error holding a `((` or `$((` that bash does
 * not read as arithmetic asks for a repair (repairs.ts).
 */
function findIssues(root: TSNode, source: string, repairs: Repair[]): ParseIssue[] {
  const issues: ParseIssue[] = [];
  const stack: TSNode[] = [root];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const n = stack.pop()!;
    if (n.isMissing) {
      issues.push({ kind: 'missing', span: { start: n.startIndex, end: n.endIndex }, text: n.type });
      continue;
    }
    if (n.type === 'ansi_c_string') {
      // Inside an error region the converter never sees it (convert-words.ts checks the others).
      const end = skipAnsiC(source, n.startIndex);
      if (end > 0 && end !== n.endIndex) repairs.push(ansiCRepair(n.startIndex, end));
      continue;
    }
    if (n.type === 'ERROR' && !isReadWriteRedirect(n)) {
      issues.push({ kind: 'error', span: { start: n.startIndex, end: n.endIndex }, text: n.text.slice(0, 80) });
      for (const c of n.children) {
        if (c.type !== '((' && c.type !== '$((') continue;
        const dollar = c.type === '$((';
        const r = dparenRepair(source, c.startIndex + (dollar ? 1 : 0), dollar);
        if (r) repairs.push(r);
      }
    }
    if (!n.hasError) continue;
    const kids = childrenOf(n);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return issues;
}
