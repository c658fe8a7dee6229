/**
 * What make does to a recipe line before the shell sees it: `$$` becomes `$`, and every variable
 * or function reference is expanded. A reference's value is not knowable from the Makefile alone
 * (`make BUILD=/` overrides any value the file gives), so it becomes a dynamic word, a shell
 * variable reference the analyser has no value for; `$(shell cmd)` runs cmd at make time, so it
 * becomes the command substitution `$(cmd)` and the analyser judges cmd.
 */
import { MappedTextBuilder, type MappedText } from '../source-text.js';
import { ShellQuotes, unknownWord } from './unknown-word.js';

/** The GNU make functions: `$(name args)` calls one of these rather than naming a variable. */
const FUNCTIONS = new Set(
  (
    'subst patsubst strip findstring filter filter-out sort word words wordlist firstword lastword dir notdir suffix basename ' +
    'addsuffix addprefix join wildcard realpath abspath error warning info shell origin flavor foreach if or and intcmp call ' +
    'eval file value let guile'
  ).split(' '),
);

/** Functions whose value is always empty (`$(info …)` prints at make time, `$(error …)` stops make). */
const EMPTY_FUNCTIONS = new Set(['eval', 'info', 'warning', 'error']);

/** Readable names for the automatic variables (`$@`, `$(<D)`), which sanitizing would turn into `_`. */
const AUTOMATIC: Record<string, string> = {
  '@': 'target',
  '<': 'first_prereq',
  '^': 'prereqs',
  '+': 'prereqs_all',
  '?': 'newer_prereqs',
  '*': 'stem',
  '%': 'member',
  '|': 'order_only',
};

/** The prefix of every dynamic word: no recipe sets a shell variable named like this. */
export const MAKE_WORD_PREFIX = '__make_';

/** The recipe text `raw` as make hands it to the shell, each character mapped back to the file. */
export function expandMake(raw: MappedText): MappedText {
  const out = new MappedTextBuilder();
  new Expander(raw, out).run(0, raw.text.length, new ShellQuotes());
  return out.build();
}

/** The shell variable name standing for a make reference's value. */
export function dynamicName(ref: string): string {
  const auto = /^([@<^+?*%|])([DF]?)$/.exec(ref);
  const part: Record<string, string> = { D: '_dir', F: '_file', '': '' };
  const base = auto ? AUTOMATIC[auto[1]!]! + part[auto[2]!]! : ref;
  return MAKE_WORD_PREFIX + base.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 48);
}

class Expander {
  constructor(
    private readonly raw: MappedText,
    private readonly out: MappedTextBuilder,
  ) {}

  /** Expand raw[from, to) into `out`; `quotes` follows the shell quoting of what is written. */
  run(from: number, to: number, quotes: ShellQuotes): void {
    const { text } = this.raw;
    let run = from; // start of the pending verbatim run
    let i = from;
    while (i < to) {
      if (text[i] !== '$') {
        i++;
        continue;
      }
      this.copy(run, i, quotes);
      i = this.reference(i, to, quotes);
      run = i;
    }
    this.copy(run, to, quotes);
  }

  /** Expand the reference starting at the `$` at `i`; returns where the text after it starts. */
  private reference(i: number, to: number, quotes: ShellQuotes): number {
    const { text } = this.raw;
    const next = text[i + 1];
    if (i + 1 >= to || next === undefined) return to; // a lone `$` at the end expands to nothing
    if (next === '$') {
      this.out.synthetic('$', this.at(i), this.at(i + 2));
      quotes.feed('$');
      return i + 2;
    }
    if (next !== '(' && next !== '{') {
      this.dynamic(next, i, i + 2, quotes);
      return i + 2;
    }
    const close = matching(text, i + 1, to);
    // An unterminated reference is a make error; whatever it was meant to be is unknown.
    if (close < 0) {
      this.dynamic(text.slice(i + 2, to), i, to, quotes);
      return to;
    }
    const body = text.slice(i + 2, close);
    const fn = /^([a-z-]+)[ \t\n]/.exec(body);
    if (fn && FUNCTIONS.has(fn[1]!)) {
      if (fn[1] === 'shell') this.commandSubstitution(i, i + 2 + fn[0].length, close, quotes);
      else if (!EMPTY_FUNCTIONS.has(fn[1]!)) this.dynamic(fn[1]!, i, close + 1, quotes);
    } else {
      // `$(VAR)`, `$(VAR:.c=.o)`: a variable's value, whatever the substitution.
      this.dynamic(body.split(':')[0]!.trim(), i, close + 1, quotes);
    }
    return close + 1;
  }

  /** `$(shell cmd)` → `$(cmd)`: the command make runs is shell code too; its characters keep their offsets. */
  private commandSubstitution(i: number, cmdStart: number, close: number, quotes: ShellQuotes): void {
    const [open, shut] = quotes.state === 'single' ? ['\'"$(', ')"\''] : ['$(', ')'];
    this.out.synthetic(open, this.at(i), this.at(cmdStart));
    this.run(cmdStart, close, new ShellQuotes());
    this.out.synthetic(shut, this.at(close), this.at(close + 1));
  }

  /** A value the analyser cannot know: make pastes it before the shell reads the quotes. */
  private dynamic(ref: string, start: number, end: number, quotes: ShellQuotes): void {
    this.out.synthetic(unknownWord(dynamicName(ref), quotes), this.at(start), this.at(end));
  }

  private copy(from: number, to: number, quotes: ShellQuotes): void {
    if (to <= from) return;
    const text = this.raw.text.slice(from, to);
    this.out.mapped({ text, offsets: this.raw.offsets.subarray(from, to + 1) });
    quotes.feed(text);
  }

  private at(i: number): number {
    return this.raw.offsets[Math.min(i, this.raw.text.length)]!;
  }
}

/** The index of the `)` or `}` closing the `(` or `{` at `open` (make counts only that pair), or -1. */
function matching(text: string, open: number, to: number): number {
  const o = text[open]!;
  const c = o === '(' ? ')' : '}';
  let depth = 0;
  for (let i = open; i < to; i++) {
    if (text[i] === o) depth++;
    else if (text[i] === c && --depth === 0) return i;
  }
  return -1;
}
