/**
 * Compound commands: if/elif/else, for/select, while/until, case, and the words of `[[ … ]]`.
 * The converter (convert-commands.ts) hands each its node; lists inside go back through it.
 */
import type { TSNode } from './ts-node.js';
import type { CaseItem, Command, IfClause, List, Span, Word } from '../ast.js';
import { childrenOf, convertWord, spanOf, wordFromParts, type WordContext } from './convert-words.js';
import { STATEMENT_TYPES } from './node-types.js';

/** What compound constructs need from the converter. */
export interface CompoundHost {
  readonly words: WordContext;
  sequence(nodes: TSNode[], span: Span): List;
  bodyNodes(n: TSNode): TSNode[];
}

export const LIST_OPS = new Set([';', '&', '&&', '||', '|', '|&', ';;', ';&', ';;&', '\n']);

export function ifStatement(host: CompoundHost, n: TSNode): Command {
  // Clauses in source order: the `if` clause, then each `elif`, then `else`.
  const split = (nodes: TSNode[]): IfClause => {
    const cond: TSNode[] = [];
    const body: TSNode[] = [];
    let inBody = false;
    for (const c of nodes) {
      if (c.type === 'then') inBody = true;
      else if (c.isNamed || LIST_OPS.has(c.type)) (inBody ? body : cond).push(c);
    }
    return { condition: host.sequence(cond, spanOf(n)), body: host.sequence(body, spanOf(n)) };
  };
  const kids = childrenOf(n);
  const main = kids.filter((c) => c.type !== 'elif_clause' && c.type !== 'else_clause');
  const clauses: IfClause[] = [split(main)];
  let elseBody: List | null = null;
  for (const c of kids) {
    if (c.type === 'elif_clause') clauses.push(split(childrenOf(c)));
    else if (c.type === 'else_clause') elseBody = host.sequence(host.bodyNodes(c), spanOf(c));
  }
  return { type: 'If', clauses, elseBody, redirects: [], span: spanOf(n) };
}

export function forStatement(host: CompoundHost, n: TSNode): Command {
  const body = n.childForFieldName('body');
  const kids = childrenOf(n);
  const hasIn = kids.some((c) => c.type === 'in');
  const items = n
    .childrenForFieldName('value')
    .filter((c): c is TSNode => c !== null)
    .map((c) => convertWord(c, host.words));
  return {
    type: 'For',
    select: kids[0]?.type === 'select',
    variable: n.childForFieldName('variable')?.text ?? '',
    items: hasIn ? items : null,
    body: body ? host.sequence(host.bodyNodes(body), spanOf(body)) : host.sequence([], spanOf(n)),
    redirects: [],
    span: spanOf(n),
  };
}

export function whileStatement(host: CompoundHost, n: TSNode): Command {
  const body = n.childForFieldName('body');
  const cond = childrenOf(n).filter((c, i) => n.fieldNameForChild(i) === 'condition' && (c.isNamed || LIST_OPS.has(c.type)));
  return {
    type: 'While',
    until: n.child(0)?.type === 'until',
    condition: host.sequence(cond, spanOf(n)),
    body: body ? host.sequence(host.bodyNodes(body), spanOf(body)) : host.sequence([], spanOf(n)),
    redirects: [],
    span: spanOf(n),
  };
}

export function caseStatement(host: CompoundHost, n: TSNode): Command {
  const valueNode = n.childForFieldName('value');
  const items: CaseItem[] = [];
  for (const item of childrenOf(n)) {
    if (item.type !== 'case_item') continue;
    const patterns: Word[] = [];
    const body: TSNode[] = [];
    const kids = childrenOf(item);
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (item.fieldNameForChild(i) === 'value') patterns.push(convertWord(c, host.words));
      else if (c.isNamed && STATEMENT_TYPES.has(c.type)) body.push(c);
      else if (c.type === ';' || c.type === '&' || c.type === '&&' || c.type === '||') body.push(c);
    }
    items.push({ patterns, body: host.sequence(body, spanOf(item)) });
  }
  return {
    type: 'Case',
    word: valueNode ? convertWord(valueNode, host.words) : wordFromParts([], '', spanOf(n)),
    items,
    redirects: [],
    span: spanOf(n),
  };
}

/**
 * Every token of a `[[ … ]]` (or `[ … ]`) expression as a word, operators included (`!`, `==`,
 * `&&`, parentheses), as bash's trace shows the command and as shellgate's own parser reads it.
 */
export function testWords(host: CompoundHost, n: TSNode): Word[] {
  const out: Word[] = [];
  const visit = (x: TSNode) => {
    for (const c of childrenOf(x)) {
      if (x === n && (c.type === '[[' || c.type === ']]' || c.type === '[' || c.type === ']')) continue;
      if (
        c.type === 'binary_expression' ||
        c.type === 'unary_expression' ||
        c.type === 'parenthesized_expression' ||
        c.type === 'ternary_expression' ||
        c.type === 'postfix_expression'
      ) {
        visit(c);
      } else if (c.isNamed) out.push(convertWord(c, host.words));
      else if (c.text.trim() !== '') {
        const span = spanOf(c);
        out.push(wordFromParts([{ type: 'Literal', raw: c.text, span }], c.text, span));
      }
    }
  };
  visit(n);
  return out;
}
