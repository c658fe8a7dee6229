/**
 * Simple commands: assignments, words and redirects in their order, with two repairs of
 * bash-parser's reading (a word it split at a NUL, and `a[i]=x` taken as a command name).
 */
import type { SimpleCommand, Span } from '../ast.js';
import { ASSIGNMENT, SUBSCRIPT_ASSIGNMENT, assignment, subscriptEnd } from './assignments.js';
import type { ConvertContext } from './context.js';
import type { Frame } from './frame.js';
import { redirect } from './redirects.js';
import type { BPNode } from './tree.js';
import { declarationWord, word } from './words.js';

const DECLARATION_BUILTINS = new Set(['export', 'local', 'declare', 'typeset', 'readonly']);

export function simpleCommand(ctx: ConvertContext, f: Frame, node: BPNode, span: Span): SimpleCommand {
  const cmd: SimpleCommand = { type: 'SimpleCommand', assignments: [], words: [], redirects: [], span };
  // bash-parser splits a word at a NUL character into fields that all carry the whole word's
  // location: the source word is one word.
  const keep = (x: BPNode) => {
    if (!x.fieldIdx) return true;
    ctx.repairs.add('nul-field');
    return false;
  };
  for (const p of (node.prefix ?? []).filter(keep)) {
    if (p.type === 'AssignmentWord' && cmd.words.length === 0) cmd.assignments.push(assignment(ctx, f, p));
    else wordOrRedirect(ctx, f, p, cmd);
  }
  if (node.name && keep(node.name)) cmd.words.push(word(ctx, f, node.name));
  const declaration = cmd.words.length > 0 && DECLARATION_BUILTINS.has(cmd.words[0].raw);
  const suffix = (node.suffix ?? []).filter(keep);
  for (const s of suffix) wordOrRedirect(ctx, f, s, cmd, declaration);
  // bash-parser only knows `name=value` assignments; `a[$i]=x cmd` comes back as a command
  // named `a[$i]=x`. bash reads it (and any assignments after it) as assignments.
  if (cmd.words.length > 0 && SUBSCRIPT_ASSIGNMENT.test(cmd.words[0].raw) && subscriptEnd(cmd.words[0].raw) > 0) {
    const words = [node.name!, ...suffix].filter((x) => x.type !== 'Redirect' && x.type !== 'dless' && x.type !== 'dlessdash' && x.type !== 'io_number');
    ctx.repairs.add('subscript-assignment');
    let k = 0;
    while (k < cmd.words.length && k < words.length && (ASSIGNMENT.test(cmd.words[k].raw) || subscriptEnd(cmd.words[k].raw) > 0)) {
      cmd.assignments.push(assignment(ctx, f, words[k]));
      k++;
    }
    cmd.words = cmd.words.slice(k);
  }
  return cmd;
}

function wordOrRedirect(ctx: ConvertContext, f: Frame, n: BPNode, cmd: SimpleCommand, declaration = false): void {
  if (n.type === 'Word' || n.type === 'AssignmentWord' || n.type === 'Name') {
    cmd.words.push(declaration ? declarationWord(ctx, f, n) : word(ctx, f, n));
    return;
  }
  const r = redirect(ctx, f, n, cmd);
  if (r) cmd.redirects.push(r);
}
