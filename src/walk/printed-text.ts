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

/**
 * What a filter prints when it reads `input` on stdin, for the filters whose output is known
 * exactly: `cat` (no option but -u), `tee` (its files get a copy; stdout is the input), `head`
 * and `tail` when the text is no longer than the lines they keep, `tr` with two plain sets. Null
 * for anything else: the text is then unknown (a shell reading it asks). Never a part of the text
 * read as if it were the whole: `tail -n 1` of a heredoc's body may be code the whole is not.
 */
export function filteredText(program: string | null, args: readonly Arg[], input: string): string | null {
  if (args.some((a) => a.dynamic || a.glob)) return null;
  const words = args.map((a) => a.value);
  switch (program) {
    case 'cat':
      return words.every((w) => w === '-u' || w === '-') ? input : null;
    case 'tee':
      return words.every((w) => !w.startsWith('-') || /^-[aip]+$/.test(w) || w === '--append' || w === '--ignore-interrupts') ? input : null;
    case 'head':
    case 'tail':
      return lineCount(input) <= keptLines(words) ? input : null;
    case 'tr':
      return translate(words, input);
    default:
      return null;
  }
}

/** The lines `head`/`tail` keep: 10, `-n N`, `-nN`, `--lines=N`, `-N`; 0 (nothing known) for any other option. */
function keptLines(words: string[]): number {
  if (words.length === 0) return 10;
  let spelled: string | undefined;
  if (words.length === 2 && words[0] === '-n') spelled = words[1];
  else if (words.length === 1) spelled = /^(?:-n|--lines=|-)(\d+)$/.exec(words[0])?.[1];
  return spelled !== undefined && /^\d+$/.test(spelled) ? Number(spelled) : 0;
}

function lineCount(text: string): number {
  const lines = text.split('\n');
  return text.endsWith('\n') ? lines.length - 1 : lines.length;
}

/** `tr SET1 SET2` with plain characters only (no option, range, class or escape), applied exactly. */
function translate(words: string[], input: string): string | null {
  if (words.length !== 2) return null;
  const [from, to] = words;
  const plain = (set: string) => set !== '' && !/[\\[\]-]/.test(set);
  if (!plain(from) || !plain(to) || new Set(from).size !== from.length) return null;
  const map = new Map<string, string>();
  // SET2 shorter than SET1 is padded with its last character, as GNU tr does.
  [...from].forEach((c, i) => map.set(c, to[Math.min(i, to.length - 1)]));
  return [...input].map((c) => map.get(c) ?? c).join('');
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
