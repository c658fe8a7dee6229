/**
 * Makefiles: the recipes of their rules, as make hands them to the shell (GNU make manual, "Writing
 * Recipes in Rules"). Each logical recipe line runs in its own shell, or the whole recipe in one
 * under `.ONESHELL:`; make drops the recipe prefix (a tab), the `@`/`-`/`+` flags in front of a
 * line and the prefix after a backslash-newline, and expands `$…` references before the shell runs
 * (make-expand.ts). Everything else in the file (variables, conditionals, `define`, `include`) is
 * make's own language and not shell code.
 */
import { MappedTextBuilder, type MappedText } from '../source-text.js';
import { expandMake } from './make-expand.js';
import type { Extracted, Snippet, SourceKind } from './types.js';

/** Shells make treats as Bourne-compatible (GNU make's is_bourne_compatible_shell). */
const BOURNE = new Set(['sh', 'bash', 'dash', 'ksh', 'rksh', 'zsh', 'ash']);

export const makefile: SourceKind = {
  name: 'makefile',
  matches(path) {
    const base = path.slice(path.lastIndexOf('/') + 1);
    return base === 'Makefile' || base === 'makefile' || base === 'GNUmakefile' || /\.(mk|make)$/.test(base);
  },
  extract(text) {
    return snippetsOf(readMakefile(text));
  },
};

/** A physical line: [start, end) without its line break; `nl` is the offset of its `\n` (or the file's end). */
interface Line {
  start: number;
  end: number;
  nl: number;
}

/** One logical recipe line as make stores it (prefix removed, backslash-newlines kept). */
interface RecipeLine extends MappedText {
  /** Offset of the line break that ends it, for the newline .ONESHELL puts between lines. */
  nl: number;
}

interface Recipe {
  target: string;
  lines: RecipeLine[];
}

export interface MakefileRead {
  recipes: Recipe[];
  oneShell: boolean;
  /** The program SHELL names for all recipes, and for targets that set their own. */
  shell: string;
  targetShell: Map<string, string>;
}

/** Walk the file's logical lines, tracking the rule context recipe lines belong to. */
export function readMakefile(file: string): MakefileRead {
  const lines = physicalLines(file);
  const read: MakefileRead = { recipes: [], oneShell: false, shell: 'sh', targetShell: new Map() };
  let prefix = '\t';
  // The rule recipe lines attach to: null outside a rule context, target '' for a rule without targets.
  let rule: Recipe | null = null;
  let defineDepth = 0;
  for (let i = 0; i < lines.length;) {
    let j = i;
    while (j + 1 < lines.length && endsWithContinuation(file, lines[j]!)) j++;
    const logical = lines.slice(i, j + 1);
    i = j + 1;
    const first = logical[0]!;
    const startsWithPrefix = file[first.start] === prefix;

    if (defineDepth > 0) {
      // Inside `define … endef` only lines not starting with the prefix can open or close a block.
      if (!startsWithPrefix) {
        const word = directiveWord(joined(file, logical));
        if (word === 'define') defineDepth++;
        else if (word === 'endef') defineDepth--;
      }
      continue;
    }
    if (startsWithPrefix && rule) {
      if (rule.target !== '') rule.lines.push(recipeLine(file, logical, first.start + 1, prefix));
      continue;
    }

    const line = stripComment(joined(file, logical)).trim();
    if (line === '') continue;
    const word = directiveWord(line);
    if (/^(ifeq|ifneq|ifdef|ifndef|else|endif)$/.test(word)) continue;
    if (word === 'define') {
      defineDepth = 1;
      rule = null;
      continue;
    }
    if (/^(-?include|sinclude|undefine)$/.test(word)) {
      rule = null;
      continue;
    }
    const assignment = parseAssignment(line);
    if (assignment) {
      rule = null;
      if (assignment.name === 'SHELL') read.shell = shellAssigned(assignment, read.shell);
      else if (assignment.name === '.RECIPEPREFIX' && /^:*=$/.test(assignment.op) && assignment.value[0] !== '$') prefix = assignment.value[0] ?? '\t';
      continue;
    }
    const colon = ruleColon(line);
    if (colon < 0) continue; // `export X`, `vpath …`, a bare `$(eval …)`: not a rule, context unchanged
    const targets = line.slice(0, colon).replace(/&$/, '').trim().split(/\s+/).filter(Boolean);
    const after = line.slice(colon + 1).replace(/^:/, '');
    // A target-specific variable (`test: SHELL := /bin/bash`) does not start a rule context.
    const targetVar = parseAssignment(after.split(';')[0]!.trim());
    if (targetVar) {
      rule = null;
      if (targetVar.name === 'SHELL') for (const t of targets) read.targetShell.set(t, shellAssigned(targetVar, read.shell));
      continue;
    }
    if (targets.includes('.ONESHELL')) read.oneShell = true;
    rule = { target: targets[0] ?? '', lines: [] };
    read.recipes.push(rule);
    // `targets: prereqs ; recipe`: the text after the `;` is the first recipe line.
    const semi = sameLineRecipe(file, first.start, logical[logical.length - 1]!.end);
    if (semi >= 0 && rule.target !== '') rule.lines.push(recipeLine(file, logical, semi + 1, prefix));
  }
  return read;
}

function snippetsOf(read: MakefileRead): Extracted {
  const snippets: Snippet[] = [];
  for (const recipe of read.recipes) {
    const shell = read.targetShell.get(recipe.target) ?? read.shell;
    const base = { origin: `recipe of ${recipe.target}`, shell, where: 'host' as const, cwd: '.' };
    if (read.oneShell && recipe.lines.length > 0) {
      // One shell for the whole recipe: lines joined by newlines. make drops the flags of the first
      // line, and those of the other lines only when the shell is Bourne-compatible.
      const b = new MappedTextBuilder();
      recipe.lines.forEach((line, k) => {
        if (k > 0) b.synthetic('\n', recipe.lines[k - 1]!.nl, recipe.lines[k - 1]!.nl + 1);
        b.mapped(k === 0 || BOURNE.has(shell) ? stripFlags(line) : line);
      });
      push(snippets, base, expandMake(b.build()));
    } else for (const line of recipe.lines) push(snippets, base, expandMake(stripFlags(line)));
  }
  return { snippets, findings: [] };
}

function push(snippets: Snippet[], base: Omit<Snippet, 'text' | 'offsets'>, code: MappedText): void {
  if (code.text.trim() !== '') snippets.push({ ...base, text: code.text, offsets: code.offsets });
}

/** The file's physical lines; a `\r` before `\n` is not part of the line (make drops it). */
function physicalLines(file: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= file.length) {
    let nl = file.indexOf('\n', start);
    if (nl < 0) nl = file.length;
    const end = nl > start && file[nl - 1] === '\r' ? nl - 1 : nl;
    lines.push({ start, end, nl });
    start = nl + 1;
  }
  return lines;
}

/** Whether a line ends with an odd number of backslashes: the next line continues it. */
function endsWithContinuation(file: string, line: Line): boolean {
  let n = 0;
  for (let k = line.end - 1; k >= line.start && file[k] === '\\'; k--) n++;
  return n % 2 === 1;
}

/** A logical line outside recipes, continuations read as spaces (make collapses them so). */
function joined(file: string, lines: Line[]): string {
  return lines.map((l, k) => file.slice(l.start, k < lines.length - 1 ? l.end - 1 : l.end)).join(' ');
}

/**
 * A recipe line from file offset `from` (after its prefix or `;`) to the end of the logical
 * line: backslash-newlines are kept for the shell, and a prefix character right after one is
 * dropped.
 */
function recipeLine(file: string, lines: Line[], from: number, prefix: string): RecipeLine {
  const b = new MappedTextBuilder();
  lines.forEach((l, k) => {
    if (k === 0) b.verbatim(file.slice(from, l.end), from);
    else {
      b.verbatim('\n', lines[k - 1]!.nl);
      const s = file[l.start] === prefix ? l.start + 1 : l.start;
      b.verbatim(file.slice(s, l.end), s);
    }
  });
  const built = b.build();
  return { ...built, nl: lines[lines.length - 1]!.nl };
}

/** Drop the blanks and `@` `-` `+` flags make reads at the start of a recipe line. */
function stripFlags(line: MappedText): MappedText {
  const skip = /^[ \t@+-]*/.exec(line.text)![0].length;
  return { text: line.text.slice(skip), offsets: line.offsets.subarray(skip) };
}

/** The first word of a line (`ifeq(` included); `override define` and the like read as `define`. */
function directiveWord(line: string): string {
  const words = line.trim().split(/[\s(]+/);
  if (/^(override|export|private)$/.test(words[0]!) && words[1] === 'define') return 'define';
  return words[0]!;
}

/** A make line without its comment (`#` not escaped by a backslash). */
function stripComment(line: string): string {
  for (let k = 0; k < line.length; k++) {
    if (line[k] === '\\') k++;
    else if (line[k] === '#') return line.slice(0, k);
  }
  return line;
}

interface Assignment {
  name: string;
  op: string;
  value: string;
}

/** `NAME op value` with op `=` `:=` `::=` `:::=` `?=` `+=` `!=`, when the line is one (make tests this first). */
function parseAssignment(line: string): Assignment | null {
  const k = scanOutsideRefs(line, (c) => c === '=' || c === ':');
  if (k < 0) return null;
  let opStart = k;
  let opEnd = k + 1;
  if (line[k] === ':') {
    const m = /^:{1,3}=/.exec(line.slice(k));
    if (!m) return null; // a rule's colon
    opEnd = k + m[0].length;
  } else if (k > 0 && /[+?!]/.test(line[k - 1]!)) opStart = k - 1;
  const words = line.slice(0, opStart).trim().split(/\s+/);
  while (words.length > 1 && /^(export|override|private|unexport)$/.test(words[0]!)) words.shift();
  return { name: words.join(' '), op: line.slice(opStart, opEnd), value: line.slice(opEnd).trim() };
}

/** The colon of a rule line, or -1 (the line was already found not to be an assignment). */
function ruleColon(line: string): number {
  return scanOutsideRefs(line, (c) => c === ':');
}

/** The first index whose character passes `test`, skipping `$(…)`/`${…}` references; -1 if none. */
function scanOutsideRefs(line: string, test: (c: string) => boolean): number {
  let depth = 0;
  for (let k = 0; k < line.length; k++) {
    const c = line[k]!;
    if (c === '$' && (line[k + 1] === '(' || line[k + 1] === '{')) {
      depth++;
      k++;
    } else if (depth > 0 && (c === ')' || c === '}')) depth--;
    else if (depth > 0 && (c === '(' || c === '{')) depth++;
    else if (depth === 0 && c === '$') k++;
    else if (depth === 0 && test(c)) return k;
  }
  return -1;
}

/** File offset of the `;` that starts a recipe on the rule line itself (not after a `#`), or -1. */
function sameLineRecipe(file: string, start: number, end: number): number {
  const line = file.slice(start, end);
  const colon = ruleColon(line);
  if (colon < 0) return -1;
  const k = scanOutsideRefs(line.slice(colon), (c) => c === ';' || c === '#');
  return k >= 0 && line[colon + k] === ';' ? start + colon + k : -1;
}

/** The shell a `SHELL` assignment leaves: `?=` never applies (SHELL always has a value), `+=` is not followed. */
function shellAssigned(a: Assignment, current: string): string {
  if (a.op === '?=' || a.op === '+=') return current;
  return shellName(a.value);
}

/**
 * The program a SHELL value names: the basename of its first word (`/usr/bin/env bash` names
 * bash). A value made by make (`$(shell which bash)`) is read for a shell's name; when none is
 * there the value itself is returned, which the linter reports as a shell it does not read.
 */
export function shellName(value: string): string {
  const words = value.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return 'sh';
  const base = (w: string) =>
    w
      .slice(Math.max(w.lastIndexOf('/'), w.lastIndexOf('\\')) + 1)
      .replace(/\.exe$/i, '')
      .toLowerCase();
  if (value.includes('$')) {
    const names = value.split(/[\s/\\()${}]+/).map(base);
    if (names.includes('bash')) return 'bash';
    if (names.some((n) => n === 'sh' || n === 'dash' || n === 'ash')) return 'sh';
    return value.trim();
  }
  let prog = base(words[0]!);
  if (prog === 'env') prog = base(words.slice(1).find((w) => !w.startsWith('-') && !w.includes('=')) ?? 'env');
  return prog === 'dash' || prog === 'ash' ? 'sh' : prog;
}
