/**
 * bash's own reading of a command's structure: `bash --pretty-print FILE` parses the script and
 * prints each command back in bash's canonical layout (one space between words, redirects as
 * `> f`, lists and compound commands laid out by bash's printer) without running it. Words are
 * printed as they were written, each command's separated by one space, so this settles where
 * words, commands, operators and redirects are, not how a word expands: that is what the trace
 * (bash-trace.ts) is for.
 *
 * It runs inside the oracle sandbox like everything else of a tested command (with `-c`,
 * --pretty-print would run the command; with a file it only prints), the command given on stdin
 * through a quoted heredoc, and the printed text handed out through a recorder stub.
 */
import type { RunResult } from '../oracle/sandbox.js';
import type { Script, SimpleCommand, TestCommand } from '../../src/syntax/ast.js';
import { structureOf, type Structure } from '../../src/expand/structure.js';

export const PRINT_PROGRAM = 'sg-pretty';
const OUT = '/tmp/.sg-pretty';

/** The text the sandbox runs to have bash print `command`. */
export function prettyPrinting(command: string): string {
  let delim = 'SG_PRETTY_EOF';
  while (command.includes(delim)) delim += '_';
  return `bash --pretty-print /dev/stdin > ${OUT} 2>/dev/null <<'${delim}'\n${command}\n${delim}\n${PRINT_PROGRAM} "$?" "$(< ${OUT})"`;
}

/** What bash printed, or null when it rejected the command (or the run failed). */
export function printed(r: RunResult): string | null {
  const rec = r.records.find((x) => x.kind === 'exec' && x.program === PRINT_PROGRAM);
  if (!rec || rec.args[0] !== '0') return null;
  return rec.args[1] ?? '';
}

/** A verdict from bash's print; `same`: bash's reading matches both parses. */
export interface PrintJudgement {
  winner: 'ours' | 'other' | 'same' | null;
  evidence: string[];
}

/** Each simple command and `[`/`[[` test as its words written, space-separated (as bash prints them). */
function commandTexts(script: Script): string[] {
  const texts: string[] = [];
  const stack: unknown[] = [script];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object') continue;
    if (Array.isArray(x)) {
      stack.push(...x);
      continue;
    }
    const o = x as Record<string, unknown>;
    if (o.type === 'SimpleCommand') {
      const c = o as unknown as SimpleCommand;
      if (c.words.length > 0) texts.push(c.words.map((w) => w.raw).join(' '));
    } else if (o.type === 'TestCommand') {
      const c = o as unknown as TestCommand;
      texts.push([c.bracket, ...c.words.map((w) => w.raw), c.bracket === '[' ? ']' : ']]'].join(' '));
    }
    for (const k in o) if (k !== 'span') stack.push(o[k]);
  }
  return texts;
}

const BEFORE = /[\s;|&{!`]/;
const AFTER = /[\s;)|&<>}`]/;

/**
 * `text` appears in the print where a command starts: after a blank or an operator, or right
 * after the `(` of `$(`, `<(`, `>(`; never inside `(( … ))`, which bash prints with blanks inside
 * as it prints a subshell `( … )`.
 */
function printedAsIs(print: string, text: string): boolean {
  for (let at = print.indexOf(text); at >= 0; at = print.indexOf(text, at + 1)) {
    const before = at === 0 ? ' ' : print[at - 1];
    const after = at + text.length >= print.length ? ' ' : print[at + text.length];
    const opens = before === '(' && at >= 2 && /[$<>]/.test(print[at - 2]);
    const arithmetic = /\(\(\s*$/.test(print.slice(Math.max(0, at - 4), at));
    if ((BEFORE.test(before) || opens) && !arithmetic && AFTER.test(after)) return true;
  }
  return false;
}

/** bash reprints substitutions in its own layout: words holding one may be printed otherwise. */
const REPRINTED = /\$\(|[<>]\(/;

/** What a structure must share with bash's print: `;` and newlines are both mere sequence there. */
function printedShape(s: Structure): string {
  return JSON.stringify({ commands: s.commands, operators: s.operators.filter((o) => o !== ';' && o !== '\n') });
}

/**
 * Which parse bash's print agrees with. Two kinds of evidence:
 * - words: a simple command's words, as written and space-separated, appear in the print (bash
 *   prints each command's words so) for one parse and not for the other;
 * - shape: both parsers read bash's print alike, and that reading has the structure of exactly
 *   one parse of the original (`same` when of both).
 */
export function judgeByPrint(
  print: string | null,
  ours: Script,
  theirs: Script,
  reparse: { ours(text: string): Script | null; theirs(text: string): Script | null },
): PrintJudgement {
  if (print === null) return { winner: null, evidence: ['bash --pretty-print rejected it'] };
  const forOurs: string[] = [];
  const forOther: string[] = [];
  const mine = new Set(commandTexts(ours));
  const their = new Set(commandTexts(theirs));
  const weigh = (texts: Set<string>, others: Set<string>, forMe: string[], against: string[], who: string) => {
    for (const t of texts) {
      if (others.has(t)) continue;
      if (printedAsIs(print, t)) forMe.push(`${who}: bash prints the command ${JSON.stringify(t)} as ${who} reads it`);
      else if (!REPRINTED.test(t)) against.push(`${who === 'ours' ? 'other' : 'ours'}: bash's print has no command ${JSON.stringify(t)} as ${who} reads it`);
    }
  };
  weigh(mine, their, forOurs, forOther, 'ours');
  weigh(their, mine, forOther, forOurs, 'other');
  if (forOurs.length > 0 !== forOther.length > 0) {
    return { winner: forOurs.length > 0 ? 'ours' : 'other', evidence: [...forOurs, ...forOther, `bash prints ${JSON.stringify(print)}`] };
  }

  const o = reparse.ours(print);
  const x = reparse.theirs(print);
  if (!o || !x) return { winner: null, evidence: [...forOurs, ...forOther, `a parser cannot read bash's print ${JSON.stringify(print)}`] };
  const canonical = printedShape(structureOf(o));
  if (canonical !== printedShape(structureOf(x)))
    return { winner: null, evidence: [...forOurs, ...forOther, `the parsers read bash's print ${JSON.stringify(print)} differently too`] };
  const oursOk = printedShape(structureOf(ours)) === canonical;
  const otherOk = printedShape(structureOf(theirs)) === canonical;
  const winner = oursOk && otherOk ? 'same' : oursOk ? 'ours' : otherOk ? 'other' : null;
  return {
    winner,
    evidence: [
      ...forOurs,
      ...forOther,
      `bash prints it as ${JSON.stringify(print)}; ours ${oursOk ? 'matches' : 'differs'}, the other ${otherOk ? 'matches' : 'differs'}`,
    ],
  };
}
