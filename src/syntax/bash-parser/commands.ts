/**
 * Lists, pipelines and compound commands (subshell, group, function, if, for, while/until, case):
 * the structure bash-parser gives, converted node for node.
 */
import type { CaseItem, Command, IfClause, List, ListOp, Pipeline, Span } from '../ast.js';
import type { ConvertContext } from './context.js';
import { local, nodeSpan, type Frame } from './frame.js';
import { redirect } from './redirects.js';
import { separatorBetween, trailingSemicolon } from './separators.js';
import { simpleCommand } from './simple-command.js';
import { ParseFailure, type BPNode } from './tree.js';
import { word } from './words.js';

export function emptyList(span: Span): List {
  return { type: 'List', items: [], operators: [], redirects: [], span };
}

/** The items of a list with the operator after each (`&&`/`||` chains flattened into it). */
export function list(ctx: ConvertContext, f: Frame, nodes: BPNode[], span: Span): List {
  const items: Command[] = [];
  const operators: (ListOp | null)[] = [];
  nodes.forEach((node, k) => {
    flattenLogical(ctx, f, node, items, operators, span);
    let op: ListOp | null = null;
    if (node.async) op = '&';
    else {
      const here = local(f, node);
      const next = nodes[k + 1] ? local(f, nodes[k + 1]) : null;
      if (here) op = next ? separatorBetween(f.text, here.end, next.start) : trailingSemicolon(f.text, here.end);
      else if (next) op = '\n';
    }
    operators[operators.length - 1] = op;
  });
  return { type: 'List', items, operators, redirects: [], span };
}

/** `a && b || c` nests to the left in bash-parser (thousands deep for long chains): walk it iteratively. */
function flattenLogical(ctx: ConvertContext, f: Frame, node: BPNode, items: Command[], operators: (ListOp | null)[], span: Span): void {
  const rights: { op: ListOp; node: BPNode }[] = [];
  let cur = node;
  while (cur.type === 'LogicalExpression' && cur.left && cur.right) {
    rights.push({ op: cur.op === 'and' ? '&&' : '||', node: cur.right });
    cur = cur.left;
  }
  items.push(pipelineOrCommand(ctx, f, cur, span));
  operators.push(null);
  for (let i = rights.length - 1; i >= 0; i--) {
    operators[operators.length - 1] = rights[i].op;
    if (rights[i].node.type === 'LogicalExpression') flattenLogical(ctx, f, rights[i].node, items, operators, span);
    else {
      items.push(pipelineOrCommand(ctx, f, rights[i].node, span));
      operators.push(null);
    }
  }
}

function pipelineOrCommand(ctx: ConvertContext, f: Frame, node: BPNode, fallback: Span): Command {
  if (node.type === 'Pipeline') {
    const commands = (node.commands ?? []).map((c) => command(ctx, f, c, fallback));
    const operators: ('|' | '|&')[] = [];
    for (let k = 0; k + 1 < (node.commands ?? []).length; k++) {
      const a = local(f, node.commands![k]);
      const b = local(f, node.commands![k + 1]);
      const gap = a && b ? f.text.slice(a.end, b.start) : '|';
      operators.push(gap.includes('|&') ? '|&' : '|');
    }
    const p: Pipeline = {
      type: 'Pipeline',
      commands,
      operators,
      negated: !!node.bang,
      redirects: [],
      span: nodeSpan(f, node, fallback),
    };
    return p;
  }
  const cmd = command(ctx, f, node, fallback);
  if (node.bang) {
    return { type: 'Pipeline', commands: [cmd], operators: [], negated: true, redirects: [], span: cmd.span };
  }
  return cmd;
}

function command(ctx: ConvertContext, f: Frame, node: BPNode, fallback: Span): Command {
  const span = nodeSpan(f, node, fallback);
  let cmd: Command;
  switch (node.type) {
    case 'Command':
      return simpleCommand(ctx, f, node, span);
    case 'Pipeline':
    case 'LogicalExpression':
      // Not produced inside a pipeline stage by bash-parser; keep them as a nested list.
      return list(ctx, f, [node], span);
    case 'Subshell':
      cmd = { type: 'Subshell', body: compoundList(ctx, f, node.list, span), redirects: [], span };
      break;
    case 'CompoundList':
      cmd = { type: 'Group', body: list(ctx, f, node.commands ?? [], span), redirects: [], span };
      break;
    case 'Function': {
      const body = node.body ? command(ctx, f, node.body, span) : ({ type: 'Group', body: emptyList(span), redirects: [], span } as Command);
      cmd = { type: 'FunctionDef', name: node.name?.text ?? '', body, redirects: [], span };
      break;
    }
    case 'If':
      cmd = ifCommand(ctx, f, node, span);
      break;
    case 'For':
      cmd = {
        type: 'For',
        select: false,
        variable: node.name?.text ?? '',
        items: node.wordlist ? node.wordlist.map((w) => word(ctx, f, w)) : null,
        body: compoundList(ctx, f, node.do, span),
        redirects: [],
        span,
      };
      break;
    case 'While':
    case 'Until':
      cmd = {
        type: 'While',
        until: node.type === 'Until',
        condition: compoundList(ctx, f, node.clause, span),
        body: compoundList(ctx, f, node.do, span),
        redirects: [],
        span,
      };
      break;
    case 'Case': {
      const items: CaseItem[] = (node.cases ?? []).map((c) => ({
        patterns: (c.pattern ?? []).map((w) => word(ctx, f, w)),
        body: compoundList(ctx, f, c.body, nodeSpan(f, c, span)),
      }));
      cmd = {
        type: 'Case',
        word: node.clause ? word(ctx, f, node.clause) : { type: 'Word', parts: [], raw: '', span },
        items,
        redirects: [],
        span,
      };
      break;
    }
    default:
      throw new ParseFailure(`unknown bash-parser node ${node.type}`);
  }
  for (const r of node.redirections ?? []) {
    const red = redirect(ctx, f, r, null);
    if (red) cmd.redirects.push(red);
  }
  return cmd;
}

function compoundList(ctx: ConvertContext, f: Frame, node: BPNode | undefined, fallback: Span): List {
  if (!node) return emptyList(fallback);
  return list(ctx, f, node.commands ?? [], nodeSpan(f, node, fallback));
}

function ifCommand(ctx: ConvertContext, f: Frame, node: BPNode, span: Span): Command {
  const clauses: IfClause[] = [];
  let elseBody: List | null = null;
  let cur: BPNode | undefined = node;
  while (cur) {
    clauses.push({ condition: compoundList(ctx, f, cur.clause, span), body: compoundList(ctx, f, cur.then, span) });
    const next: BPNode | undefined = cur.else;
    if (next?.type === 'If')
      cur = next; // `elif`
    else {
      if (next) elseBody = compoundList(ctx, f, next, span);
      cur = undefined;
    }
  }
  return { type: 'If', clauses, elseBody, redirects: [], span };
}
