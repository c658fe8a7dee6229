/**
 * What `echo` and `printf` print when their words are constant, so the walker can follow that
 * text into the shell that runs it (`echo 'rm -rf ~' | sh`, `source <(printf '%s\n' …)`).
 * Anything this does not model exactly (echo options, printf conversions other than %s, escapes
 * other than the common ones) gives null: the text stays unknown and the reader asks.
 */
import { decodeAnsiC } from '../syntax/ansi-c.js';
import { staticValue, variableValue, type ExpandScope } from '../expand/word.js';
import type { PrintedNames } from '../programs/hook-types.js';
import { namesThroughStages } from '../programs/printed-names.js';
import type { Command, Script } from '../syntax/ast.js';
import type { Arg } from './types.js';

export function printedText(program: string | null, words: string[]): string | null {
  // A backslash is printed as is by bash's echo, but decoded by dash's (`sh`) and under xpg_echo:
  // `\0176` is `~` there. Neither reading is assumed.
  if (program === 'echo') return words.some((w) => /^-[neE]+$/.test(w) || w.includes('\\')) ? null : words.join(' ') + '\n';
  if (program !== 'printf' || words.length === 0) return null;
  const [format, ...args] = words;
  // No conversion at all: the format, escapes decoded (extra arguments are ignored).
  if (!format.includes('%')) return decodeAnsiC("$'" + format.replace(/'/g, "\\'") + "'");
  return printfStrings(format, args);
}

/** printedText of a walked command's arguments; null when any of them is not constant. */
export function printedByArgs(program: string | null, args: readonly Arg[]): string | null {
  if (args.some((a) => a.dynamic || a.glob)) return null;
  return printedText(
    program,
    args.map((a) => a.value),
  );
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', '"': '"', "'": "'" };

/**
 * printf with only `%s` and `%%`: the format is reused until the arguments run out, as bash
 * does. Escapes and conversions are read in one pass, so an escape never becomes a conversion.
 */
function printfStrings(format: string, args: string[]): string | null {
  let out = '';
  let next = 0;
  do {
    let consumed = false;
    for (let i = 0; i < format.length; i++) {
      const c = format[i];
      if (c === '\\') {
        const e = SIMPLE_ESCAPES[format[i + 1] ?? ''];
        if (e === undefined) return null;
        out += e;
        i++;
      } else if (c === '%') {
        const k = format[i + 1];
        if (k === '%') out += '%';
        else if (k === 's') {
          out += args[next++] ?? '';
          consumed = true;
        } else return null;
        i++;
      } else out += c;
    }
    if (!consumed) break;
  } while (next < args.length);
  return out;
}

/** What `<(…)` prints when it is one echo or printf of constant words, else null. */
export function processOutput(body: Script, es: ExpandScope): string | null {
  const items = body.body.items;
  const only = items.length === 1 ? items[0] : null;
  if (!only || only.type !== 'SimpleCommand' || only.redirects.length > 0 || only.assignments.length > 0 || only.words.length === 0) return null;
  const words: string[] = [];
  for (const w of only.words) {
    const v = staticValue(w, es);
    if (v === null) return null;
    words.push(v);
  }
  return printedText(words[0].slice(words[0].lastIndexOf('/') + 1), words.slice(1));
}

/**
 * The names `$(cmd)` or `<(cmd)` prints when cmd is a producer of file names with static words
 * (`$(git ls-files '*.ts')`, programs/hooks), possibly followed by filters that pass whole lines
 * (`$(tree -if | grep -e '\.php$')`): null for anything else. Only with the default IFS: another
 * IFS may cut a name anywhere, even before a `/`.
 */
export function substitutionNames(body: Script, es: ExpandScope): PrintedNames | null {
  const items = body.body.items;
  const only = items.length === 1 ? items[0] : null;
  let stages: Command[] = only ? [only] : [];
  if (only?.type === 'Pipeline') stages = only.negated ? [] : only.commands;
  if (stages.length === 0 || variableValue('IFS', es) !== ' \t\n') return null;
  return namesThroughStages(stages.length, (k) => {
    const argv = staticArgv(stages[k], es);
    return argv === null ? null : { program: argv[0].value, args: argv.slice(1) };
  });
}

/** A simple command's words when all are static and nothing else is on it (no redirect, no assignment). */
function staticArgv(c: Command, es: ExpandScope): Arg[] | null {
  if (c.type !== 'SimpleCommand' || c.redirects.length > 0 || c.assignments.length > 0 || c.words.length === 0) return null;
  const out: Arg[] = [];
  for (const w of c.words) {
    const value = staticValue(w, es);
    if (value === null) return null;
    out.push({ value, dynamic: false, glob: false, span: c.span });
  }
  return out;
}
