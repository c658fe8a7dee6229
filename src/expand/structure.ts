/**
 * The shape of a parsed script that matters for deciding, flattened for comparing two parsers:
 * every command that can run, with its words (statically expanded) and redirects, and every
 * list/pipeline operator, in source order.
 *
 * - A simple command's assignments come first among its words, as `name=value` (`name+=value`,
 *   `name=(a b)` for arrays), then its words.
 * - Compound commands appear as commands too (so their redirects and headers are compared): a
 *   subshell as `(…)`, a group as `{…}`, `function NAME`, `if` (+ `elif`… `else`), `for VAR in
 *   ITEMS…` / `select …`, `while`/`until`, `case WORD in` + one `PATTERNS)` word per item,
 *   `((…))`, `for ((…))`; `[ … ]` and `[[ … ]]` as the words written between the brackets.
 *   They come before the commands inside them.
 * - Commands inside substitutions (in words, assignments, redirect targets, heredoc bodies,
 *   expansions' defaults) follow the command whose words hold them.
 * - Operators: `;`, `&&`, `||`, `&`, `\n` after list items (a trailing newline is not one), `|`
 *   and `|&` between pipeline stages, and `!` for a negated pipeline.
 */
import type { Command, List, Redirect, Script, Word, WordPart } from '../syntax/ast.js';
import { expandWord, type ExpandScope } from './word.js';

export interface CommandShape {
  words: string[];
  redirects: string[];
}

export interface Structure {
  commands: CommandShape[];
  operators: string[];
}

const SCOPE: ExpandScope = { home: '/home/user', env: {}, vars: new Map() };

function text(w: Word): string {
  return expandWord(w, SCOPE).fields.join(' ');
}

function redirectText(r: Redirect): string {
  const fd = r.fd === null ? '' : String(r.fd);
  // A heredoc delimiter is shown as written: its quoting decides whether the body expands.
  const target = r.heredoc ? r.target.raw : text(r.target);
  return fd + r.op + target;
}

export function structureOf(script: Script): Structure {
  const out: Structure = { commands: [], operators: [] };
  walkList(script.body, out);
  return out;
}

function walkList(list: List, out: Structure): void {
  list.items.forEach((item, i) => {
    walkCommand(item, out);
    const op = list.operators[i];
    if (op) out.operators.push(op);
  });
}

function shape(out: Structure, words: string[], cmd: Command): void {
  out.commands.push({ words, redirects: cmd.redirects.map(redirectText) });
}

function walkCommand(cmd: Command, out: Structure): void {
  switch (cmd.type) {
    case 'SimpleCommand': {
      const words: string[] = [];
      for (const a of cmd.assignments) {
        const eq = a.append ? '+=' : '=';
        const value = a.array ? `(${a.array.map(text).join(' ')})` : a.value ? text(a.value) : '';
        words.push(a.name + eq + value);
      }
      for (const w of cmd.words) words.push(text(w));
      shape(out, words, cmd);
      for (const a of cmd.assignments) {
        walkParts(a.subscript, out);
        if (a.value) walkParts(a.value.parts, out);
        for (const w of a.array ?? []) walkParts(w.parts, out);
      }
      for (const w of cmd.words) walkParts(w.parts, out);
      walkRedirects(cmd.redirects, out);
      return;
    }
    case 'List':
      walkRedirects(cmd.redirects, out);
      walkList(cmd, out);
      return;
    case 'Pipeline':
      if (cmd.negated) out.operators.push('!');
      cmd.commands.forEach((c, i) => {
        walkCommand(c, out);
        if (i < cmd.operators.length) out.operators.push(cmd.operators[i]);
      });
      walkRedirects(cmd.redirects, out);
      return;
    case 'Subshell':
      shape(out, ['(…)'], cmd);
      walkRedirects(cmd.redirects, out);
      walkList(cmd.body, out);
      return;
    case 'Group':
      shape(out, ['{…}'], cmd);
      walkRedirects(cmd.redirects, out);
      walkList(cmd.body, out);
      return;
    case 'FunctionDef':
      shape(out, ['function', cmd.name], cmd);
      walkRedirects(cmd.redirects, out);
      walkCommand(cmd.body, out);
      return;
    case 'If':
      shape(out, ['if', ...cmd.clauses.slice(1).map(() => 'elif'), ...(cmd.elseBody ? ['else'] : [])], cmd);
      walkRedirects(cmd.redirects, out);
      for (const c of cmd.clauses) {
        walkList(c.condition, out);
        walkList(c.body, out);
      }
      if (cmd.elseBody) walkList(cmd.elseBody, out);
      return;
    case 'For':
      shape(out, [cmd.select ? 'select' : 'for', cmd.variable, ...(cmd.items ? ['in', ...cmd.items.map(text)] : [])], cmd);
      walkRedirects(cmd.redirects, out);
      for (const w of cmd.items ?? []) walkParts(w.parts, out);
      walkList(cmd.body, out);
      return;
    case 'ArithFor':
      shape(out, ['for ((…))'], cmd);
      walkRedirects(cmd.redirects, out);
      walkParts(cmd.inner, out);
      walkList(cmd.body, out);
      return;
    case 'While':
      shape(out, [cmd.until ? 'until' : 'while'], cmd);
      walkRedirects(cmd.redirects, out);
      walkList(cmd.condition, out);
      walkList(cmd.body, out);
      return;
    case 'Case':
      shape(out, ['case', text(cmd.word), 'in', ...cmd.items.map((it) => it.patterns.map(text).join('|') + ')')], cmd);
      walkRedirects(cmd.redirects, out);
      walkParts(cmd.word.parts, out);
      for (const it of cmd.items) {
        for (const p of it.patterns) walkParts(p.parts, out);
        walkList(it.body, out);
      }
      return;
    case 'TestCommand':
      shape(out, [cmd.bracket, ...cmd.words.map(text), cmd.bracket === '[' ? ']' : ']]'], cmd);
      for (const w of cmd.words) walkParts(w.parts, out);
      walkRedirects(cmd.redirects, out);
      return;
    case 'ArithCommand':
      shape(out, [cmd.raw], cmd);
      walkParts(cmd.inner, out);
      walkRedirects(cmd.redirects, out);
      return;
    case 'Unparsed':
      shape(out, ['<unparsed>', cmd.raw], cmd);
      walkParts(cmd.inner, out);
      walkRedirects(cmd.redirects, out);
      return;
  }
}

function walkRedirects(redirects: Redirect[], out: Structure): void {
  for (const r of redirects) {
    walkParts(r.target.parts, out);
    if (r.heredoc && !r.heredoc.quoted) walkParts(r.heredoc.body.parts, out);
  }
}

/** Commands inside substitutions, wherever they hide in a word. */
function walkParts(parts: WordPart[], out: Structure): void {
  for (const p of parts) {
    switch (p.type) {
      case 'CmdSubst':
      case 'ProcSubst':
        walkList(p.body.body, out);
        break;
      case 'DoubleQuoted':
        walkParts(p.parts, out);
        break;
      case 'ParamExp':
      case 'ArithExp':
        walkParts(p.inner, out);
        break;
      default:
        break;
    }
  }
}

function listOf(xs: string[]): string {
  return `[${xs.join(', ')}]`;
}

function same(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Null when the structures agree; else the first difference, on one line. */
export function compareStructures(a: Structure, b: Structure): string | null {
  const d = firstDifference(a, b);
  return d === null ? null : d.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

function firstDifference(a: Structure, b: Structure): string | null {
  const n = Math.max(a.commands.length, b.commands.length);
  for (let i = 0; i < n; i++) {
    const x = a.commands[i];
    const y = b.commands[i];
    const label = `command ${i + 1}`;
    if (!x) return `${label}: missing vs words ${listOf(y.words)}`;
    if (!y) return `${label}: words ${listOf(x.words)} vs missing`;
    if (!same(x.words, y.words)) return `${label}: words ${listOf(x.words)} vs ${listOf(y.words)}`;
    if (!same(x.redirects, y.redirects)) return `${label}: redirects ${listOf(x.redirects)} vs ${listOf(y.redirects)}`;
  }
  if (!same(a.operators, b.operators)) return `operators ${listOf(a.operators)} vs ${listOf(b.operators)}`;
  return null;
}
