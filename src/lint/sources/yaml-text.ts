/**
 * YAML for the sources that are YAML (GitHub Actions, GitLab CI, compose) or JSON read as YAML
 * (package.json: JSON is YAML 1.2, and the YAML parser keeps every node's file range, which
 * JSON.parse does not).
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type Scalar } from 'yaml';
import { alignValue, type MappedText } from '../source-text.js';
import { lintMessage } from '../lint-rules.js';
import type { SourceFinding } from './types.js';

export interface ParsedYaml {
  doc: Document.Parsed | null;
  /** `lint/unreadable-file` for the first syntax error, if any. */
  findings: SourceFinding[];
}

/** Parse YAML (or JSON); a syntax error becomes a finding at its position, never an exception. */
export function parseYaml(text: string, what: string): ParsedYaml {
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter: new LineCounter(), prettyErrors: false, uniqueKeys: false, merge: true });
  } catch (e) {
    return { doc: null, findings: [unreadable(what, e instanceof Error ? e.message : String(e), 0, Math.min(text.length, 1))] };
  }
  const err = doc.errors[0];
  if (err) {
    // The parser may place an error at end of input one past the last character.
    const s = Math.min(err.pos[0], text.length);
    const e = Math.min(Math.max(err.pos[1], s), text.length);
    return { doc: null, findings: [unreadable(what, err.message.split('\n')[0]!, s, e)] };
  }
  return { doc, findings: [] };
}

function unreadable(what: string, why: string, start: number, end: number): SourceFinding {
  return { rule: 'lint/unreadable-file', level: 'ask', message: `${lintMessage('lint/unreadable-file', what)} (${why})`, start, end };
}

/** A scalar's value mapped onto the file characters it was read from. */
export function scalarText(file: string, node: Scalar): MappedText {
  const value = typeof node.value === 'string' ? node.value : String(node.value);
  const [start, valueEnd] = node.range ?? [0, 0];
  let from = start;
  // A block scalar's range starts at its `|` or `>` header; the value starts on the next line.
  if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') {
    const nl = file.indexOf('\n', start);
    from = nl < 0 ? valueEnd : nl + 1;
  } else if (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') from = start + 1;
  return alignValue(file, from, valueEnd, value);
}

/** The value at `key` of a map node, if the node is a map. */
export function get(node: unknown, key: string): Node | undefined {
  if (!isMap(node)) return undefined;
  for (const pair of node.items) {
    const k = pair.key;
    if ((isScalar(k) ? k.value : k) === key) return (pair.value ?? undefined) as Node | undefined;
  }
  return undefined;
}

/** The entries of a map node as [key, value] pairs with string keys. */
export function entries(node: unknown): [string, Node | null, Node | null][] {
  if (!isMap(node)) return [];
  return node.items.map((p) => [String(isScalar(p.key) ? p.key.value : p.key), (p.key ?? null) as Node | null, (p.value ?? null) as Node | null]);
}

/** A scalar's string value, when the node is a string scalar. */
export function str(node: unknown): string | undefined {
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}

export { isMap, isScalar, isSeq };
export type { Node, Scalar };
