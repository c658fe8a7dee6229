/**
 * zsh's word forms that bash's parser cannot read, said in bash: glob qualifiers (`*(.)`,
 * `*(om[1,5])`), history modifiers (`$x:t`, `${x:h:h}`) and parameter flags (`${(L)x}`,
 * `${(e)x}`, `${(P)x}`). Each is rewritten into bash text whose reading is what zsh does, or more:
 *
 *   - qualifiers that only choose among the names a pattern matches, or order them, are dropped
 *     (the bare pattern matches every name they could keep: zsh's globs, with any of its options,
 *     match entries of the directory, never `.` or `..`); code qualifiers (`e:'…':`, `+fn`) become
 *     the code, run by `$(eval …)`, and ask all the same (zsh runs it once per name);
 *   - a modifier or a flag that makes a string of a value becomes `${x@A}`: a value derived from
 *     x that the walker does not know (it still knows that x is read, for the secret check);
 *   - `${(e)x}` evaluates x's value as a double-quoted string does: `$(eval "printf '%s' \"${x}\"")`;
 *     `${(P)x}` is `${!x}`.
 *
 * zsh's short loop `for d (~) rm -rf $d` is said as bash's long one (shortLoops).
 *
 * These are candidates found on the raw text, strings and comments included (an over-
 * approximation); shell-readings.ts keeps only those that bash's parse of the rewritten text puts
 * where they were meant to be: a qualifier at the end of an unquoted word, a parameter where a
 * parameter is. A form not listed here is left as written, bash cannot parse it, and that asks.
 */
import type { Rewrite } from './dialect-scan.js';

/** Where bash's parse of the rewritten text must put a rewrite for it to be zsh's reading. */
export type RewriteSite = 'word-end' | 'parameter' | 'substitution' | 'loop' | 'with-group';

export interface WordRewrite extends Rewrite {
  site: RewriteSite;
  /** A construct to ask about even so (code zsh runs). */
  ask?: string;
  /** Rewrites made together or not at all (a loop's header and its `done`). */
  group?: number;
}

/** A history modifier in an unbraced parameter, as zsh's lexer reads one (`:h`, `:t2`, `:s/a/b/`). */
const MODIFIER = String.raw`:(?:[aAcelpPqQrux&]|[ht]\d*|g?s/[\w.+-]*/[\w.+-]*/?)`;
/** A parameter name: identifier, positional, or special. */
const NAME = String.raw`[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-]`;

const FORMS = new RegExp(
  [
    // ${(flags)name:mods}
    String.raw`\$\{\((?<flags>[^()]*)\)(?<fname>${NAME})(?<fmods>(?:${MODIFIER})*)\}`,
    // ${name:mods}
    String.raw`\$\{(?<bname>[A-Za-z_][A-Za-z0-9_]*|[0-9])(?<bmods>(?:${MODIFIER})+)\}`,
    // $name:mods
    String.raw`\$(?<uname>[A-Za-z_][A-Za-z0-9_]*|[0-9])(?<umods>(?:${MODIFIER})+)`,
    // pattern(qualifiers) at the end of a word; `(#q…)` anywhere is the same with EXTENDED_GLOB
    String.raw`(?<=[^\s;&|<>()$=\`'"])\((?<hq>#q)?(?<quals>[^()\s|~"\`$\\;&<>']*(?:e:'[^']*':)?[^()\s|~"\`$\\;&<>']*)\)(?=$|[\s;&|<>)])`,
  ].join('|'),
  'g',
);

/** Flags that make a string or words of a value and evaluate nothing (zsh manual, "Parameter Expansion Flags"). */
const STRING_FLAGS = new Set('@abcCDfFikLmnoOpqQtuUvVwWXz0SBEMNR');

/**
 * zsh's short loop `for NAME (WORDS) BODY`, first in a command: the body is the rest of the
 * sublist. Said in bash as `for NAME in WORDS; do BODY` with `done` at the end of the text, so
 * every command after the header is in the loop: walked, as in zsh, with NAME one of the words
 * (commands zsh runs once after the loop are walked too).
 */
const SHORT_FOR = /(?<=^|[;&|\n]\s*)for\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(([^()'"`\\;&|<>\n]*)\)[ \t]*(?=[^\s{;&|])/g;

function shortLoops(text: string): WordRewrite[] {
  const out: WordRewrite[] = [];
  let group = 0;
  for (const m of text.matchAll(SHORT_FOR)) {
    group++;
    // the words stay where they are (a form in them is rewritten on its own)
    const open = text.indexOf('(', m.index!);
    const close = open + 1 + m[2].length;
    out.push({ span: { start: m.index!, end: open + 1 }, by: `for ${m[1]} in `, site: 'loop', group });
    out.push({ span: { start: close, end: m.index! + m[0].length }, by: '; do ', site: 'with-group', group });
    out.push({ span: { start: text.length, end: text.length }, by: '\ndone', site: 'with-group', group });
  }
  return out;
}

/** Every rewrite candidate in `text`, left to right, none overlapping. */
export function zshWordRewrites(text: string): WordRewrite[] {
  const out: WordRewrite[] = shortLoops(text);
  for (const m of text.matchAll(FORMS)) {
    const g = m.groups!;
    const span = { start: m.index!, end: m.index! + m[0].length };
    if (g.fname !== undefined) {
      const flags = parseFlags(g.flags);
      if (flags === null) continue;
      if (flags.has('P')) {
        if (flags.size === 1 && g.fmods === '' && /^[A-Za-z_]/.test(g.fname)) out.push({ span, by: `\${!${g.fname}}`, site: 'parameter' });
        continue;
      }
      if (flags.has('e')) {
        // what zsh evaluates, with the other flags and modifiers as a value derived from it
        const extra = flags.size > 1 || g.fmods !== '';
        out.push({
          span,
          by: `$(eval "printf '%s' \\"\${${g.fname}}\\"")`,
          site: 'substitution',
          ask: extra ? `\`${m[0]}\` (flags on an evaluated value)` : undefined,
        });
        continue;
      }
      out.push({ span, by: `\${${g.fname}@A}`, site: 'parameter' });
    } else if (g.bname !== undefined || g.uname !== undefined) {
      out.push({ span, by: `\${${g.bname ?? g.uname}@A}`, site: 'parameter' });
    } else {
      const quals = readQualifiers(g.quals);
      if (quals === null) continue;
      if (quals.code.length === 0) out.push({ span, by: '', site: 'word-end' });
      else
        out.push({
          span,
          by: quals.code.map((c) => `$(${c})`).join(''),
          site: 'substitution',
          ask: 'a glob qualifier that runs code for every name it matches',
        });
    }
  }
  return out;
}

/** The flags of `${(…)x}` when each is known, or null (`j:sep:` and `s:sep:` take a plain separator). */
function parseFlags(flags: string): Set<string> | null {
  const out = new Set<string>();
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i];
    if (f === 'j' || f === 's') {
      const m = /^:((?:[^:$`'"(){}\\\n\t]|\\[nt0\\])*):/.exec(flags.slice(i + 1));
      if (m === null) return null;
      i += m[0].length;
    } else if (!STRING_FLAGS.has(f) && f !== 'e' && f !== 'P') return null;
    out.add(f);
  }
  return out.size > 0 ? out : null;
}

/** One qualifier that only filters or orders names, at the start of `q` (its length), or 0. */
const FILTER = new RegExp(
  [
    String.raw`[/.@=p*rwxAIERWXsStUGF^,-]`,
    String.raw`%[bc]?`,
    String.raw`\[-?\d+(?:,-?\d+)?\]`,
    String.raw`[oO][nLlamcdN]`,
    String.raw`L[kKmMpPgGtT]?[-+]?\d+`,
    String.raw`l[-+]?\d+`,
    String.raw`[amc][Mwhms]?[-+]?\d+`,
    String.raw`[ug](?:\d+|:[\w.-]+:)`,
    String.raw`f(?:[0-7]+|:[ugoa+=,0-7rwxst-]+:)`,
  ]
    .map((s) => `(?:${s})`)
    .join('|'),
  'y',
);
/** A qualifier that runs code: `e:'CODE':` (zsh evaluates CODE) or `+NAME` (calls the function). */
const CODE = /e:'([^']*)':|\+([A-Za-z_][\w-]*)/y;

/** The qualifier list `q` read as filters and code, or null when any qualifier is not one of those. */
function readQualifiers(q: string): { code: string[] } | null {
  if (q === '') return null;
  const code: string[] = [];
  let i = 0;
  while (i < q.length) {
    CODE.lastIndex = i;
    const c = CODE.exec(q);
    if (c !== null) {
      code.push(c[1] !== undefined ? `eval '${c[1]}'` : c[2]);
      i = CODE.lastIndex;
      continue;
    }
    FILTER.lastIndex = i;
    if (FILTER.exec(q) === null) return null;
    i = FILTER.lastIndex;
  }
  return { code };
}
