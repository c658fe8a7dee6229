/**
 * Rebuild lists and pipelines from a flat stream with bash's precedence: `|`/`|&` bind tightest,
 * then `&&`/`||`, then `;`, `&` and newlines. See convert-commands.ts for why.
 */
import type { Command, List, ListOp, Pipeline, Span } from '../ast.js';

export type StreamOp = '|' | '|&' | '&&' | '||' | ';' | '&' | '\n' | ';;' | ';&' | ';;&';
export type StreamItem = { command: Command; op?: undefined } | { op: StreamOp; command?: undefined };

export function rebuildList(stream: StreamItem[], span: Span): List {
  const items: Command[] = [];
  const operators: (ListOp | null)[] = [];
  let stages: Command[] = [];
  let pipeOps: ('|' | '|&')[] = [];

  const closePipeline = () => {
    if (stages.length === 0) return;
    items.push(stages.length === 1 ? stages[0] : makePipeline(stages, pipeOps));
    operators.push(null);
    stages = [];
    pipeOps = [];
  };

  for (const item of stream) {
    if (item.command) {
      if (stages.length > pipeOps.length) {
        // Two commands with no operator between them were on separate lines.
        closePipeline();
        operators[operators.length - 1] = '\n';
      }
      stages.push(item.command);
      continue;
    }
    const op = item.op;
    if (op === '|' || op === '|&') {
      if (stages.length > pipeOps.length) pipeOps.push(op);
      continue;
    }
    closePipeline();
    if (operators.length > 0) operators[operators.length - 1] = op.startsWith(';;') || op === ';&' ? ';' : (op as ListOp);
  }
  closePipeline();
  return { type: 'List', items, operators, redirects: [], span };
}

function makePipeline(stages: Command[], operators: ('|' | '|&')[]): Pipeline {
  // `! a | b`: tree-sitter negates only the first stage; bash negates the whole pipeline.
  let negated = false;
  const first = stages[0];
  if (first.type === 'Pipeline' && first.negated && first.commands.length === 1) {
    negated = true;
    stages = [first.commands[0], ...stages.slice(1)];
  }
  // `a | b 2>&1 | c`: tree-sitter nests `a | b` in the outer pipeline; it is one pipeline.
  const flat: Command[] = [];
  const ops: ('|' | '|&')[] = [];
  stages.forEach((stage, i) => {
    const st = stage.type === 'List' && stage.items.length === 1 && stage.redirects.length === 0 ? stage.items[0] : stage;
    if (st.type === 'Pipeline' && (!st.negated || i === 0) && st.redirects.length === 0 && st.commands.length > 1) {
      if (st.negated) negated = true;
      flat.push(...st.commands);
      ops.push(...st.operators);
    } else flat.push(st);
    if (i < stages.length - 1) ops.push(operators[i] ?? '|');
  });
  stages = flat;
  operators = ops;
  return {
    type: 'Pipeline',
    commands: stages,
    operators: operators.slice(0, stages.length - 1),
    negated,
    redirects: [],
    span: { start: stages[0].span.start, end: stages[stages.length - 1].span.end },
  };
}
