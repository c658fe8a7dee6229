/**
 * Static word expansion: what bash would make of a word, where that is certain. Quote removal,
 * backslashes, `$'…'`, tilde, known variables, brace expansion and field splitting of unquoted
 * known values. Anything else (unknown variables, substitutions, arithmetic) makes the word
 * dynamic: its text is kept as written and never guessed.
 */
import type { Word, WordPart } from '../syntax/ast.js';
import { decodeAnsiC } from '../syntax/ansi-c.js';
import { expandBrace, MAX_BRACE_RESULTS } from './braces.js';
import { userHome } from './tilde.js';

export interface ExpandScope {
  /** Null on a remote host: `~` and `$HOME` there are not ours. */
  home: string | null;
  env: Readonly<Record<string, string | undefined>>;
  /** Variables assigned earlier on the line: their value, or null when it is unknown. */
  vars: ReadonlyMap<string, string | null>;
  /**
   * The analysed working directory ($PWD) and the one before the last `cd` on the line ($OLDPWD);
   * null when unknown. Never the analyser's own process's: the context's `env` may carry the
   * caller's PWD, which is not where the command runs. Undefined: no cwd tracking (tests, tools).
   */
  cwd?: string | null;
  oldpwd?: string | null;
  /** Something on the line may have assigned any variable (`declare -n`, `export $x`). */
  varsUnknown?: boolean;
}

export type DynamicReason = 'parameter' | 'substitution' | 'arithmetic' | 'tilde' | 'special';

export interface ExpandedWord {
  /** Resulting fields (argv words). Dynamic pieces appear as written. */
  fields: string[];
  /** Some piece's value is not known statically. */
  dynamic: boolean;
  reasons: DynamicReason[];
  /** Unquoted glob characters remain: the fields are patterns for the filesystem. */
  glob: boolean;
  /** Brace expansion was cut at its bound. */
  truncated: boolean;
  /** Any part was quoted (so an empty result is still one empty field). */
  quoted: boolean;
  /** A loop variable standing for a glob's match (`for f in *; do cat "$f"`) may start with a dash. */
  dashFirst?: boolean;
  /** …or for a name a program printed (MatchValue). */
  produced?: boolean;
  splitAt?: MatchValue['splitAt'];
}

const IFS_DEFAULT = ' \t\n';
/** How a process substitution shows in an expanded word; it stands for a /dev/fd/N pipe. */
export const PROC_SUBST_WORD = /^[<>]\(…\)$/;
const SPECIAL = new Set(['@', '*', '#', '?', '-', '$', '!', '0', '_']);

/** Value of a variable if it is known for certain, undefined otherwise. */
/**
 * A loop variable over a glob (`for f in src/*.ts`) holds one path the pattern matches, which is
 * only known at run time: its value is the pattern behind a NUL byte, which no bash value can
 * hold, so any assignment replaces it. Read as a value it is unknown; in double quotes it expands
 * to the pattern (programs/… then classify every path it may match).
 */
const MATCH = '\0match:';

/** What a variable holding one match stands for: the pattern, and what is known of the match. */
export interface MatchValue {
  pattern: string;
  /** It may start with a dash (a match of `*`, a name `git ls-files` prints). */
  dashFirst?: boolean;
  /** A name a program printed (find's, git's): its wildcards match dot names (Arg.produced). */
  produced?: boolean;
  /** The printed names were split into words here (Arg.splitAt): whole only if none holds a separator. */
  splitAt?: 'blank' | 'newline' | 'blank-glob';
}

const SPLITS = { b: 'blank', n: 'newline', g: 'blank-glob' } as const;

export function globMatchValue(m: MatchValue): string {
  const split = m.splitAt === undefined ? '' : (Object.keys(SPLITS) as (keyof typeof SPLITS)[]).find((k) => SPLITS[k] === m.splitAt)!;
  return `${MATCH}${m.dashFirst ? 'd' : ''}${m.produced ? 'p' : ''}${split}:${m.pattern}`;
}

function globMatch(name: string, scope: ExpandScope): MatchValue | null {
  if (scope.varsUnknown) return null;
  const v = scope.vars.get(name);
  if (typeof v !== 'string' || !v.startsWith(MATCH)) return null;
  const colon = v.indexOf(':', MATCH.length);
  const flags = v.slice(MATCH.length, colon);
  const split = [...flags].find((c): c is keyof typeof SPLITS => c in SPLITS);
  return { pattern: v.slice(colon + 1), dashFirst: flags.includes('d'), produced: flags.includes('p'), ...(split ? { splitAt: SPLITS[split] } : {}) };
}

/** Is this stored value a glob's match (unknown as a value)? */
export function isGlobMatch(value: string | null | undefined): boolean {
  return typeof value === 'string' && value.startsWith(MATCH);
}

export function variableValue(name: string, scope: ExpandScope): string | undefined {
  if (scope.varsUnknown) return undefined;
  if (scope.vars.has(name)) {
    const v = scope.vars.get(name);
    return v === null || v === undefined || isGlobMatch(v) ? undefined : v;
  }
  // $PWD and $OLDPWD follow the analysed cwd (and the `cd`s on the line), never the env given.
  if (name === 'PWD') return scope.cwd ?? undefined;
  if (name === 'OLDPWD') return scope.oldpwd ?? undefined;
  if (name === 'HOME') return scope.home ?? undefined;
  if (name === 'IFS') return scope.env.IFS ?? IFS_DEFAULT;
  return scope.env[name];
}

interface Builder {
  alternatives: string[][]; // each alternative: the fields built so far
  dynamic: boolean;
  /** Each reason once, in the order met. */
  reasons: DynamicReason[];
  glob: boolean;
  truncated: boolean;
  quoted: boolean;
  dashFirst?: boolean;
  produced?: boolean;
  splitAt?: MatchValue['splitAt'];
  /** The pattern a variable holding a match expanded to (the word must be only that). */
  match?: string;
  /** Only unquoted literal text so far: a brace result here may start with a tilde bash expands. */
  pristine: boolean;
  /** Tildes after separators: `colon` (assignment values), `equals` (after the first `=`, then `:`). */
  tildes: 'colon' | 'equals' | null;
}

/** `NAME=`, `NAME[i]=`, `NAME+=`, `--opt=`, `-o=` at the start of an argument. */
const ASSIGNMENT_LIKE = /^(?:[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?|--?[A-Za-z0-9][A-Za-z0-9_.-]*)=/;

function firstLiteral(word: Word): string {
  const p = word.parts[0];
  return p?.type === 'Literal' ? p.raw : '';
}

/**
 * Where a word stands decides where bash expands a tilde besides its start: an assignment's value
 * after each `:` (`PATH=~/bin:~/x`); an argument that looks like an assignment (`dd if=~/x`,
 * `make DIR=a:~/b`) after its `=` and each `:`. For `--opt=~/x` bash leaves the tilde alone, but
 * zsh with magic_equal_subst and programs that expand it themselves do not: the home reading is
 * kept as the stricter one.
 */
export type WordPosition = 'argument' | 'assignment' | 'other';

/** After which separators a tilde expands, besides the word's start (see WordPosition). */
function tildesAt(position: WordPosition, word: Word): Builder['tildes'] {
  if (position === 'assignment') return 'colon';
  if (position === 'argument' && ASSIGNMENT_LIKE.test(firstLiteral(word))) return 'equals';
  return null;
}

export function expandWord(word: Word, scope: ExpandScope, position: WordPosition = 'other'): ExpandedWord {
  const b: Builder = {
    alternatives: [['']],
    dynamic: false,
    reasons: [],
    glob: false,
    truncated: false,
    quoted: false,
    pristine: true,
    tildes: tildesAt(position, word),
  };
  for (let i = 0; i < word.parts.length; i++) addPart(b, word.parts[i], scope, false, word.parts[i + 1]);
  const fields: string[] = [];
  for (const alt of b.alternatives) {
    for (const f of alt) if (f !== '' || b.quoted) fields.push(f);
  }
  // A match joined to other text (`"cat $f"`, `"$f.bak"`) puts a name's text where it may be code or another path.
  if (b.match !== undefined && !(fields.length === 1 && fields[0] === b.match)) {
    b.dynamic = true;
    b.glob = false;
    if (!b.reasons.includes('parameter')) b.reasons.push('parameter');
  }
  return {
    fields: fields.length > 0 || !b.quoted ? fields : [''],
    dynamic: b.dynamic,
    reasons: b.reasons,
    glob: b.glob,
    truncated: b.truncated,
    quoted: b.quoted,
    ...(b.dashFirst ? { dashFirst: true } : {}),
    ...(b.produced ? { produced: true } : {}),
    ...(b.splitAt ? { splitAt: b.splitAt } : {}),
  };
}

/** The single string a word stands for, when it is static and one field (else null). */
export function staticValue(word: Word, scope: ExpandScope, position: WordPosition = 'other'): string | null {
  const e = expandWord(word, scope, position);
  return !e.dynamic && !e.glob && e.fields.length === 1 ? e.fields[0] : null;
}

function append(b: Builder, text: string): void {
  for (const alt of b.alternatives) alt[alt.length - 1] += text;
}

function markDynamic(b: Builder, reason: DynamicReason, raw: string): void {
  b.dynamic = true;
  if (!b.reasons.includes(reason)) b.reasons.push(reason);
  append(b, raw);
}

function addPart(b: Builder, part: WordPart, scope: ExpandScope, inQuotes: boolean, next?: WordPart): void {
  if (part.type !== 'Literal' && part.type !== 'Brace' && part.type !== 'Glob' && part.type !== 'Tilde') b.pristine = false;
  switch (part.type) {
    case 'Literal': {
      let raw = part.raw;
      if (!inQuotes && b.tildes !== null && raw.includes('~')) raw = tildesAfterSeparators(b, raw, scope, next === undefined || startsPath(next));
      append(b, inQuotes ? unescapeQuoted(raw) : unescapeUnquoted(raw));
      return;
    }
    case 'SingleQuoted':
      b.quoted = true;
      append(b, part.value);
      return;
    case 'AnsiC':
      b.quoted = true;
      append(b, decodeAnsiC(part.raw));
      return;
    case 'DoubleQuoted':
      b.quoted = true;
      for (const p of part.parts) addPart(b, p, scope, true);
      return;
    case 'Tilde': {
      const home = tildeHome(part.user, scope);
      if (home === null) markDynamic(b, 'tilde', '~' + part.user);
      else append(b, home);
      return;
    }
    case 'ParamExp':
      return addParam(b, part, scope, inQuotes);
    case 'CmdSubst':
      return markDynamic(b, 'substitution', sourceOf(part));
    case 'ProcSubst':
      // bash replaces `<(…)` with a pipe's path (/dev/fd/N); what runs inside is walked on its own.
      append(b, sourceOf(part));
      return;
    case 'ArithExp':
      return markDynamic(b, 'arithmetic', part.raw);
    case 'Glob':
      if (inQuotes) append(b, part.raw);
      else {
        b.glob = true;
        append(b, part.raw);
      }
      return;
    case 'Brace': {
      if (inQuotes) return append(b, part.raw);
      const r = expandBrace(part.raw);
      if (r.truncated) b.truncated = true;
      const out: string[][] = [];
      const ends = next === undefined || startsPath(next);
      for (const alt of b.alternatives) {
        for (const v of r.values) {
          if (out.length >= MAX_BRACE_RESULTS) {
            b.truncated = true;
            break;
          }
          const copy = alt.slice();
          const field = copy[copy.length - 1] + v;
          // Brace expansion comes first: each result that now starts with `~` is tilde-expanded.
          const tilde = b.pristine && copy.length === 1 ? leadingTilde(field, scope, ends) : null;
          copy[copy.length - 1] = tilde ?? copy[copy.length - 1] + unescapeUnquoted(v);
          out.push(copy);
        }
      }
      b.alternatives = out;
      return;
    }
  }
}

/** The folder `~` or `~user` names; null when the scope does not know the home folder. */
function tildeHome(user: string, scope: ExpandScope): string | null {
  if (scope.home === null) return null;
  return user === '' ? scope.home : userHome(user);
}

function addParam(b: Builder, part: Extract<WordPart, { type: 'ParamExp' }>, scope: ExpandScope, inQuotes: boolean): void {
  const name = part.name;
  if (!name || SPECIAL.has(name) || /^[0-9]+$/.test(name)) return markDynamic(b, 'special', part.raw);
  const value = variableValue(name, scope);
  if (!part.plain) {
    // `${x:-d}` / `${x-d}` with a known non-empty x is x; every other operator stays dynamic.
    const op = /^\$\{[A-Za-z_][A-Za-z0-9_]*(:?[-=?+])/.exec(part.raw)?.[1];
    if (!(value !== undefined && value !== '' && op && (op.includes('-') || op.includes('=')))) {
      return markDynamic(b, 'parameter', part.raw);
    }
  }
  if (value === undefined) {
    const match = part.plain && inQuotes ? globMatch(name, scope) : null;
    if (match === null) return markDynamic(b, 'parameter', part.raw);
    // `"$f"` in `for f in src/*.ts`: one path the pattern matches (split unquoted, it could be any).
    append(b, match.pattern);
    b.glob = true;
    b.match = match.pattern;
    if (match.dashFirst) b.dashFirst = true;
    if (match.produced) b.produced = true;
    if (match.splitAt) b.splitAt = match.splitAt;
    return;
  }
  if (inQuotes) return append(b, value);
  // Unquoted: field splitting on IFS whitespace, as bash does for a known value.
  // An IFS not known to be the default (set to other blanks, or unknown: `((IFS=0))`, `read IFS`)
  // may cut the value anywhere.
  if (variableValue('IFS', scope) !== IFS_DEFAULT) return markDynamic(b, 'parameter', part.raw);
  const pieces = value.split(/[ \t\n]+/);
  for (const alt of b.alternatives) {
    alt[alt.length - 1] += pieces[0];
    for (let i = 1; i < pieces.length; i++) alt.push(pieces[i]);
  }
}

/** Does a part start with `/` (so a tilde prefix just before it ends there)? */
function startsPath(p: WordPart): boolean {
  return (p.type === 'Literal' && p.raw.startsWith('/')) || (p.type === 'Glob' && p.raw.startsWith('/'));
}

const TILDE_PREFIX = /^~([A-Za-z0-9._-]*)/;

/** The home a `~` or `~user` prefix of `text` names, followed by the rest (unescaped); else null. */
function leadingTilde(text: string, scope: ExpandScope, endsWord: boolean): string | null {
  const m = TILDE_PREFIX.exec(text);
  if (!m) return null;
  const after = text.slice(m[0].length);
  if (!(after.startsWith('/') || (after === '' && endsWord))) return null;
  const home = homeOf(m[1], scope);
  return home === null ? null : home + unescapeUnquoted(after);
}

function homeOf(user: string, scope: ExpandScope): string | null {
  if (scope.home === null) return null;
  return user === '' ? scope.home : userHome(user);
}

/**
 * Expand `~` and `~user` right after the first unescaped `=` (arguments) and after each unescaped
 * `:`, in an unquoted literal. A tilde whose home is unknown stays as written (and is then a
 * literal path, which asks where it matters). Returns the raw text with homes inserted escaped.
 */
function tildesAfterSeparators(b: Builder, raw: string, scope: ExpandScope, endsWord: boolean): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '\\') {
      out += raw.slice(i, i + 2);
      i++;
      continue;
    }
    out += ch;
    const separator = ch === ':' || (ch === '=' && b.tildes === 'equals');
    if (!separator) continue;
    if (ch === '=') b.tildes = 'colon'; // only the first `=` counts
    const m = TILDE_PREFIX.exec(raw.slice(i + 1));
    if (!m) continue;
    const afterAt = i + 1 + m[0].length;
    const terminated = afterAt === raw.length ? endsWord : raw[afterAt] === '/' || raw[afterAt] === ':';
    const home = terminated ? homeOf(m[1], scope) : null;
    if (home === null) continue;
    out += home.replace(/[\\]/g, '\\$&');
    i = afterAt - 1;
  }
  return out;
}

/** Quote removal for unquoted text: `\x` → `x`, backslash-newline disappears. */
export function unescapeUnquoted(raw: string): string {
  if (!raw.includes('\\')) return raw;
  return raw.replace(/\\(\n|[\s\S])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/** Inside double quotes a backslash only escapes `$`, backquote, `"`, `\` and newline. */
function unescapeQuoted(raw: string): string {
  if (!raw.includes('\\')) return raw;
  return raw.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

function sourceOf(part: WordPart): string {
  switch (part.type) {
    case 'CmdSubst':
      return part.backtick ? '`…`' : '$(…)';
    case 'ProcSubst':
      return part.direction + '(…)';
    default:
      return '';
  }
}
