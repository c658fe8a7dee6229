/**
 * What a parse says bash will run, in the terms bash's xtrace shows (bash-trace.ts): for every
 * simple command, its assignments and its words after expansion, as patterns where a word is not
 * statically known, and whether it runs in the main shell or a forked one; and the files its
 * redirects create in the sandbox's /work and /tmp.
 *
 * A prediction is what *may* run; some of it is marked `certain`: what bash reaches whatever the
 * commands return, as far as the parse says (not after `&&`/`||`, not in a branch or loop body or
 * function, not in a `&` job the trace does not wait for, not after a
 * command that can end or divert the shell such as `exit`, `exec` or `set`). A `${x:-…}`
 * default counts as reached when nothing on the line can set x and the sandbox does not either.
 * The judge (judge.ts) uses what bash ran as evidence for the parse that explains it, and a
 * certain command bash never ran as evidence against the parse that predicts it.
 */
import type { Command, List, Redirect, Script, Word, WordPart } from '../../src/syntax/ast.js';
import { expandWord, type ExpandScope } from '../../src/expand/word.js';

/** The sandbox's environment: HOME is /root; every other variable counts as unknown. */
const SCOPE: ExpandScope = { home: '/root', env: {}, vars: new Map() };
const CWD = '/work';

export type Token =
  /** One field, exactly this text. */
  | { kind: 'exact'; text: string }
  /** One field starting with this text, then any number of fields (a partly dynamic word). */
  | { kind: 'prefix'; text: string }
  /**
   * A glob pattern: this text (the word after quote removal, what bash leaves when nothing
   * matches, as in the sandbox's empty /work) or any number of file names.
   */
  | { kind: 'glob'; text: string }
  /** Any number of fields, none included (a dynamic word). */
  | { kind: 'any' };

export interface Expected {
  /**
   * A simple command (or `[`); the operands of a `[[ … ]]`; or an array assignment, `name` (with
   * `+` for `+=`) then its elements (both traced in forms of their own, see bash-trace.ts).
   */
  kind: 'command' | 'cond' | 'array';
  /** A plain `name=(…)` assignment is traced as written: its text, words single-spaced. */
  raw?: string;
  /** Null inside a function body: it runs wherever the function is called. */
  forked: boolean | null;
  tokens: Token[];
  /** Bash runs it whatever the commands before it return (see above). */
  certain: boolean;
}

export interface Prediction {
  entries: Expected[];
  /** Absolute paths of files a redirect would create. */
  files: Set<string>;
}

/** Builtins after which nothing is certain: they can end the shell, jump, or change how it runs. */
const DIVERTING = new Set([
  'exit',
  'exec',
  'return',
  'logout',
  'break',
  'continue',
  'set',
  'shopt',
  'trap',
  'eval',
  'source',
  '.',
  'kill',
  'enable',
  'alias',
  'unset',
  'builtin',
  'command',
  'suspend',
]);

interface Walk {
  out: Prediction;
  /** A diverting command was seen: nothing after it (in source order) is certain. */
  diverted: boolean;
  /** A variable the sandbox or the command may set (else it is unset there). */
  maybeSet(name: string): boolean;
  /** Functions the command defines: calling one can run anything, `exit` included. */
  functions: Set<string>;
}

function functionNames(script: Script): Set<string> {
  const names = new Set<string>();
  const stack: unknown[] = [script];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object') continue;
    if (Array.isArray(x)) stack.push(...x);
    else {
      const o = x as Record<string, unknown>;
      if (o.type === 'FunctionDef' && typeof o.name === 'string') names.add(o.name);
      for (const k in o) if (k !== 'span') stack.push(o[k]);
    }
  }
  return names;
}

export function predict(script: Script, source: string): Prediction {
  const out: Prediction = { entries: [], files: new Set() };
  const named = source.replace(/\$\{?[A-Za-z_][A-Za-z0-9_]*/g, '');
  const w: Walk = {
    out,
    diverted: false,
    // every upper-case name may be the environment's or bash's own; a lower-case one only if the
    // command names it other than by expanding it (`x=`, `read x`, `for x`, `declare x`…)
    maybeSet: (name) => !/[a-z]/.test(name) || new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).test(named),
    functions: functionNames(script),
  };
  walkList(script.body, false, true, w);
  return out;
}

/** Items of a list that a `&` sends to the background: every item up to it since the last `;`, `\n` or `&`. */
function backgrounded(list: List): boolean[] {
  const bg = new Array<boolean>(list.items.length).fill(false);
  let start = 0;
  list.items.forEach((_, i) => {
    const op = list.operators[i];
    if (op === '&&' || op === '||') return;
    if (op === '&') for (let k = start; k <= i; k++) bg[k] = true;
    start = i + 1;
  });
  return bg;
}

function walkList(list: List, forked: boolean | null, certain: boolean, w: Walk): void {
  const bg = backgrounded(list);
  list.items.forEach((item, i) => {
    const after = i > 0 ? list.operators[i - 1] : null;
    // a `&` job may still be running when the trace is collected
    const reached = certain && after !== '&&' && after !== '||' && !bg[i];
    walkCommand(item, bg[i] ? forkedOr(forked) : forked, reached, w);
  });
}

/** A fork inside a function body is still a fork. */
function forkedOr(f: boolean | null): boolean | null {
  return f === null ? null : true;
}

function push(w: Walk, forked: boolean | null, tokens: Token[], certain: boolean): void {
  const first = tokens[0];
  // a parse that takes `[[` for a command still means the keyword
  if (first?.kind === 'exact' && first.text === '[[') {
    const last = tokens[tokens.length - 1];
    const inner = last?.kind === 'exact' && last.text === ']]' ? tokens.slice(1, -1) : tokens.slice(1);
    w.out.entries.push({ kind: 'cond', forked, tokens: inner, certain: false });
    return;
  }
  w.out.entries.push({ kind: 'command', forked, tokens, certain: certain && !w.diverted });
}

function walkCommand(cmd: Command, forked: boolean | null, certain: boolean, w: Walk): void {
  switch (cmd.type) {
    case 'SimpleCommand': {
      for (const a of cmd.assignments) {
        walkParts(a.subscript, certain, forked, w);
        if (a.value) walkParts(a.value.parts, certain, forked, w);
        for (const x of a.array ?? []) walkParts(x.parts, certain, forked, w);
        if (a.array) {
          const raw = `${a.name}${a.append ? '+=' : '='}(${a.array.map((x) => x.raw).join(' ')})`;
          w.out.entries.push({ kind: 'array', forked, tokens: [], raw, certain: false });
          continue;
        }
        const name = a.name + (a.append ? '+=' : '=');
        const value = a.value ? assignmentValue(a.value) : { kind: 'exact' as const, text: '' };
        push(w, forked, [value.kind === 'exact' ? { kind: 'exact', text: name + value.text } : { kind: 'prefix', text: name + value.text }], certain);
      }
      for (const x of cmd.words) walkParts(x.parts, certain, forked, w);
      walkRedirects(cmd.redirects, certain, forked, w);
      // an arithmetic or `${x?…}` error stops bash -c before the command runs, and for good
      if (cmd.words.some((x) => mayFailExpanding(x.parts))) w.diverted = true;
      // `${(e)x}`, `${~x}` (zsh's forms): bash says "bad substitution" and the command never runs
      const refused = cmd.words.some((x) => badSubstitution(x.parts));
      if (refused) w.diverted = true;
      if (cmd.words.length > 0) {
        const tokens = commandTokens(cmd.words, forked, w);
        push(w, forked, tokens, certain && !refused);
        const first = tokens[0];
        if (first?.kind !== 'exact' || DIVERTING.has(first.text) || w.functions.has(first.text)) w.diverted = true;
      }
      return;
    }
    case 'List':
      walkRedirects(cmd.redirects, certain, forked, w);
      walkList(cmd, forked, certain, w);
      return;
    case 'Pipeline':
      walkRedirects(cmd.redirects, certain, forked, w);
      for (const c of cmd.commands) walkCommand(c, cmd.commands.length > 1 ? forkedOr(forked) : forked, certain, w);
      return;
    case 'Subshell':
      walkRedirects(cmd.redirects, certain, forked, w);
      walkList(cmd.body, forkedOr(forked), certain, w);
      return;
    case 'Group':
      walkRedirects(cmd.redirects, certain, forked, w);
      walkList(cmd.body, forked, certain, w);
      return;
    case 'FunctionDef':
      walkRedirects(cmd.redirects, certain, forked, w);
      walkCommand(cmd.body, null, false, w);
      return;
    case 'If':
      walkRedirects(cmd.redirects, certain, forked, w);
      cmd.clauses.forEach((c, i) => {
        walkList(c.condition, forked, certain && i === 0, w);
        walkList(c.body, forked, false, w);
      });
      if (cmd.elseBody) walkList(cmd.elseBody, forked, false, w);
      return;
    case 'For':
      walkRedirects(cmd.redirects, certain, forked, w);
      for (const x of cmd.items ?? []) walkParts(x.parts, certain, forked, w);
      walkList(cmd.body, forked, false, w);
      return;
    case 'ArithFor':
      walkRedirects(cmd.redirects, certain, forked, w);
      walkParts(cmd.inner, false, forked, w);
      walkList(cmd.body, forked, false, w);
      return;
    case 'While':
      walkRedirects(cmd.redirects, certain, forked, w);
      walkList(cmd.condition, forked, certain, w);
      walkList(cmd.body, forked, false, w);
      return;
    case 'Case':
      walkRedirects(cmd.redirects, certain, forked, w);
      walkParts(cmd.word.parts, certain, forked, w);
      for (const it of cmd.items) {
        for (const p of it.patterns) walkParts(p.parts, false, forked, w);
        walkList(it.body, forked, false, w);
      }
      return;
    case 'TestCommand':
      // `[` is the test builtin, traced as a simple command; `[[` is traced in a form of its own
      // and evaluates its operands lazily
      for (const x of cmd.words) walkParts(x.parts, certain && cmd.bracket === '[', forked, w);
      walkRedirects(cmd.redirects, certain, forked, w);
      push(
        w,
        forked,
        [{ kind: 'exact', text: cmd.bracket }, ...cmd.words.flatMap(wordTokens), { kind: 'exact', text: cmd.bracket === '[' ? ']' : ']]' }],
        certain,
      );
      return;
    case 'ArithCommand':
      walkParts(cmd.inner, certain, forked, w);
      walkRedirects(cmd.redirects, certain, forked, w);
      return;
    case 'Unparsed':
      walkParts(cmd.inner, false, forked, w);
      walkRedirects(cmd.redirects, false, forked, w);
      w.diverted = true;
      return;
  }
}

const CREATES = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

const DECLARATION = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);

/**
 * A command's words as tokens. A declaration builtin's `name=(…)` argument is an array
 * assignment: bash traces it apart, as `name=(…)` with its elements expanded, and the command
 * with `name` alone.
 */
function commandTokens(words: Word[], forked: boolean | null, w: Walk): Token[] {
  const first = words[0]?.raw;
  if (first === undefined || !DECLARATION.has(first)) return words.flatMap(wordTokens);
  return words.flatMap((word, i): Token[] => {
    const array = i > 0 ? arrayArgument(word) : null;
    if (!array) return wordTokens(word);
    w.out.entries.push({ kind: 'array', forked, tokens: [{ kind: 'exact', text: array.name }, ...array.elements], certain: false });
    return [{ kind: 'exact', text: array.name.replace(/\+$/, '') }];
  });
}

/**
 * `name=(a "b c" $d)` read from the parse's own parts: the elements split at unquoted blanks,
 * quotes removed, a dynamic element a pattern. Null when the word is not of that form.
 */
function arrayArgument(word: Word): { name: string; elements: Token[] } | null {
  const elements: { text: string; dynamic: boolean }[] = [];
  let text = '';
  let dynamic = false;
  let started = false;
  const end = () => {
    if (started) elements.push({ text, dynamic });
    text = '';
    dynamic = false;
    started = false;
  };
  for (const p of word.parts) {
    if (p.type === 'Literal' || p.type === 'Glob') {
      // `[key]=value` is a subscript here, not a pattern
      for (let i = 0; i < p.raw.length; i++) {
        const c = p.raw[i];
        if (/\s/.test(c)) {
          end();
          continue;
        }
        text += c === '\\' && i + 1 < p.raw.length ? p.raw[++i] : c;
        started = true;
      }
      continue;
    }
    started = true;
    if (isStatic(p)) text += expandWord({ type: 'Word', parts: [p], raw: '', span: p.span }, SCOPE).fields.join('');
    else dynamic = true;
  }
  end();
  const head = /^([A-Za-z_][A-Za-z0-9_]*\+?)=\(/.exec(elements[0]?.text ?? '');
  const last = elements[elements.length - 1];
  if (!head || !last.text.endsWith(')')) return null;
  last.text = last.text.slice(0, -1);
  elements[0].text = elements[0].text.slice(head[0].length);
  const kept = elements.filter((e, i) => !(e.text === '' && !e.dynamic && (i === 0 || i === elements.length - 1)));
  return { name: head[1], elements: kept.map((e): Token => (e.dynamic ? { kind: 'any' } : { kind: 'exact', text: e.text })) };
}

function walkRedirects(redirects: Redirect[], certain: boolean, forked: boolean | null, w: Walk): void {
  const out = w.out;
  for (const r of redirects) {
    // `cmd < <(producer)`: the stub that stands for cmd never reads its stdin, so the shell can end
    // (and its EXIT trap take the trace) before the substitution's subshell has run the producer
    // (seen: `sort < <(find -printf …)`, one run in four). What it runs may run, not surely.
    const procSubst = r.target.parts.length === 1 && r.target.parts[0].type === 'ProcSubst';
    walkParts(r.target.parts, certain && !procSubst, forked, w);
    if (r.heredoc && !r.heredoc.quoted) walkParts(r.heredoc.body.parts, certain, forked, w);
    if (!CREATES.has(r.op)) continue;
    const e = expandWord(r.target, SCOPE);
    if (e.dynamic || e.glob || e.fields.length !== 1) continue;
    const f = e.fields[0];
    const path = f.startsWith('/') ? f : `${CWD}/${f}`;
    // only what the sandbox reports: top-level names in /work and /tmp
    if (/^\/(?:work|tmp)\/[^/]+$/.test(path)) out.files.add(path);
  }
}

/** Commands in substitutions run in a forked shell. */
function walkParts(parts: WordPart[], certain: boolean, forked: boolean | null, w: Walk): void {
  for (const p of parts) {
    switch (p.type) {
      case 'CmdSubst':
        walkList(p.body.body, true, certain, w);
        break;
      case 'ProcSubst':
        // the trace waits for the main shell's process substitutions, not a subshell's
        walkList(p.body.body, true, certain && forked === false, w);
        break;
      case 'DoubleQuoted':
        walkParts(p.parts, certain, forked, w);
        break;
      case 'ParamExp':
        walkParts(p.inner, certain && defaultReached(p.raw, w), forked, w);
        break;
      case 'ArithExp':
        walkParts(p.inner, certain, forked, w);
        break;
      default:
        break;
    }
  }
}

function mayFailExpanding(parts: WordPart[]): boolean {
  return parts.some(
    (p) => p.type === 'ArithExp' || (p.type === 'ParamExp' && /^\$\{[^}]*\?/.test(p.raw)) || (p.type === 'DoubleQuoted' && mayFailExpanding(p.parts)),
  );
}

/** A `${…}` bash refuses whole: what follows `${` cannot start a parameter, `#` or `!`. */
function badSubstitution(parts: WordPart[]): boolean {
  return parts.some((p) => (p.type === 'ParamExp' && /^\$\{[^A-Za-z0-9_#!@*?$}-]/.test(p.raw)) || (p.type === 'DoubleQuoted' && badSubstitution(p.parts)));
}

/** `${x:-word}`, `${x-word}`, `${x:=word}`, `${x:?word}`…: bash expands the word when x is unset. */
function defaultReached(raw: string, w: Walk): boolean {
  const m = /^\$\{([A-Za-z_][A-Za-z0-9_]*):?[-=?]/.exec(raw);
  return m !== null && !w.maybeSet(m[1]);
}

function isStatic(p: WordPart): boolean {
  switch (p.type) {
    case 'Literal':
    case 'SingleQuoted':
    case 'AnsiC':
      return true;
    case 'DoubleQuoted':
      return p.parts.every(isStatic);
    default:
      return false;
  }
}

/** The leading static parts of `parts` (into double quotes too), up to the first part that is not. */
function leadingStatic(parts: WordPart[]): { parts: WordPart[]; whole: boolean } {
  const out: WordPart[] = [];
  for (const p of parts) {
    if (p.type === 'DoubleQuoted' && !isStatic(p)) {
      const inner = leadingStatic(p.parts);
      if (inner.parts.length > 0) out.push({ ...p, parts: inner.parts });
      return { parts: out, whole: false };
    }
    if (!isStatic(p) || (p.type === 'Literal' && /[*?[]/.test(p.raw))) return { parts: out, whole: false };
    out.push(p);
  }
  return { parts: out, whole: true };
}

/** The text of the word's leading static parts (quote-removed), up to the first part that is not. */
function staticPrefix(w: Word): string {
  const { parts } = leadingStatic(w.parts);
  if (parts.length === 0) return '';
  return expandWord({ ...w, parts }, SCOPE).fields.join(' ');
}

/** A process substitution becomes a pipe's path (/dev/fd/63): not the `<(…)` expandWord shows. */
function hasProcSubst(parts: WordPart[]): boolean {
  return parts.some((p) => p.type === 'ProcSubst' || (p.type === 'DoubleQuoted' && hasProcSubst(p.parts)));
}

function wordTokens(w: Word): Token[] {
  const e = expandWord(w, SCOPE, 'argument');
  if (hasProcSubst(w.parts)) {
    const prefix = staticPrefix(w);
    return [prefix === '' ? { kind: 'any' } : { kind: 'prefix', text: prefix }];
  }
  if (!e.dynamic && !e.glob) return e.fields.map((text) => ({ kind: 'exact', text }));
  if (!e.dynamic) {
    // quote removal applies to the pattern's own text too (`[\>\<]` is left as `[><]`)
    const parts = w.parts.map((p): WordPart => (p.type === 'Glob' ? { type: 'Literal', raw: p.raw, span: p.span } : p));
    const unmatched = expandWord({ ...w, parts }, SCOPE, 'argument');
    if (!unmatched.dynamic && !unmatched.glob) return unmatched.fields.map((text) => ({ kind: 'glob', text }));
  }
  const prefix = staticPrefix(w);
  return [prefix === '' ? { kind: 'any' } : { kind: 'prefix', text: prefix }];
}

function assignmentValue(w: Word): { kind: 'exact' | 'prefix'; text: string } {
  const e = expandWord(w, SCOPE, 'assignment');
  // an assignment's value is not split or globbed: one string
  if (!e.dynamic) return { kind: 'exact', text: e.fields.join(' ') };
  return { kind: 'prefix', text: staticPrefix(w) };
}
