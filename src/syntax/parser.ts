/**
 * Loads tree-sitter-bash (WASM, once per process) and turns source text into our AST. After the
 * async load, parsing is synchronous. Every tree-sitter tree is deleted before returning: WASM
 * memory is not garbage-collected.
 */
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import { TSNode } from './ts-node.js';
import type { Script, Span } from './ast.js';
import { CommandConverter } from './convert-commands.js';
import { isReadWriteRedirect } from './tree-sitter-quirks.js';
import { childrenOf } from './convert-words.js';

export interface ParseIssue {
  /** `error`: tree-sitter could not parse this region; `missing`: a token it had to invent. */
  kind: 'error' | 'missing';
  span: Span;
  /** The token that was missing, or the text that did not parse (cut to 80 characters). */
  text: string;
}

export interface ParseResult {
  script: Script;
  issues: ParseIssue[];
}

const MAX_ISSUES = 20;

let languagePromise: Promise<Language> | null = null;

function loadLanguage(): Promise<Language> {
  if (!languagePromise) {
    const require = createRequire(import.meta.url);
    const wasm = require.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
    languagePromise = Parser.init().then(() => Language.load(wasm));
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

  parse(source: string): ParseResult {
    const tree = this.parser.parse(source);
    if (!tree) {
      const span = { start: 0, end: source.length };
      return { script: new CommandConverter(source).script([], span), issues: [{ kind: 'error', span, text: 'parser returned no tree' }] };
    }
    try {
      const root = new TSNode(tree.rootNode, null, 0);
      const span = { start: 0, end: source.length };
      // Backquote bodies are parsed again on their own (see backquotes.ts).
      const converter = new CommandConverter(source, (text) => this.parse(text));
      const script = converter.script(childrenOf(root), span);
      const issues = root.hasError ? findIssues(root) : [];
      for (const i of converter.issues) issues.push({ kind: 'error', span: i.span, text: i.text });
      return { script, issues };
    } finally {
      tree.delete();
    }
  }
}

function findIssues(root: TSNode): ParseIssue[] {
  const issues: ParseIssue[] = [];
  const stack: TSNode[] = [root];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const n = stack.pop()!;
    if (n.isMissing) {
      issues.push({ kind: 'missing', span: { start: n.startIndex, end: n.endIndex }, text: n.type });
      continue;
    }
    if (n.type === 'ERROR' && !isReadWriteRedirect(n)) {
      issues.push({ kind: 'error', span: { start: n.startIndex, end: n.endIndex }, text: n.text.slice(0, 80) });
    }
    if (!n.hasError) continue;
    const kids = childrenOf(n);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return issues;
}
