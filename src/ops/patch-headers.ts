/**
 * The file names a patch text names, read as every program that applies it reads its headers —
 * never as one tidy grammar, because the text is the attacker's and a header only the applier
 * sees is a write nobody checked. Two grammars:
 *
 * - **Agents' `apply_patch`** (Codex, GitHub Copilot CLI): `*** Add File: P`, `*** Update File:
 *   P` (with `*** Move to: Q`), `*** Delete File: P`. Codex (openai/codex
 *   `codex-rs/apply-patch/src/parser.rs`) trims the whole text, splits it at `\n` and `\r\n`,
 *   trims each hunk header with Rust's `str::trim` (Unicode White_Space: an indented `*** Add
 *   File: .envrc` is a header) and takes the rest after the marker as the path; its `*** Move to:`
 *   line is matched untrimmed. Copilot's patch tool is closed source; the open parser of the same
 *   family (microsoft/vscode-copilot-chat `applyPatch/parser.ts`) matches headers untrimmed and
 *   keeps the rest as is. Both readings are taken. An agent may also be sent a unified diff
 *   (`--- a/x`, `+++ b/x`): its names are read too.
 * - **GNU and BSD `patch`** (`pch.c` `intuit_diff_type`): a header line may be indented by spaces,
 *   tabs and `X` (mail-quoted diffs); `--- `, `+++ `, `*** ` (context diffs), `Index:`, git's
 *   `diff --git`, `rename to`/`copy to`; a CR before the line end is dropped; a name runs to a
 *   tab, or to the first blank without one, or is a C-quoted string.
 *
 * The reading is an over-approximation of the raw text: every line that any of these parsers
 * could read as a header gives its name, in every spelling they could give it (as is, trimmed,
 * up to a tab or a blank, unquoted). Extra names only add checks. A line that looks like an
 * apply_patch header but is not one in the exact form a known parser reads (`***Add File:`,
 * `*** add file: x`, a header behind a line separator only some parsers split at) is returned as
 * `unsure`: the caller asks, because some applier may read it in a way shellgate cannot know.
 */

/** A name a patch text gives, and whether its header deletes the file. */
export interface PatchName {
  name: string;
  deletes: boolean;
}

export interface PatchReading {
  names: PatchName[];
  /** Header-like lines no known parser reads in exactly that form (see the module comment). */
  unsure: string[];
}

/** Rust's `char::is_whitespace` (Unicode White_Space), what Codex's `trim` removes. */
const RUST_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/**
 * Every character some applier's trim may remove: Rust's set, JavaScript's `trim` (adds U+FEFF),
 * Python's `strip` (adds U+001C–U+001F), and the format characters a model may emit as blanks.
 */
const ANY_SPACE = `${RUST_SPACE}\\u001c-\\u001f\\u180e\\u200b\\ufeff`;

const TRIM_RUST = new RegExp(`^[${RUST_SPACE}]+|[${RUST_SPACE}]+$`, 'g');
const TRIM_ANY = new RegExp(`^[${ANY_SPACE}]+|[${ANY_SPACE}]+$`, 'g');
/** Line separators some reader splits at: `\n` (all), `\r` (Python, JavaScript's `^`/`$`), and the rest of Python's `splitlines`. */
const ANY_BREAK = /\r\n|[\n\r\v\f\u001c-\u001e\u0085\u2028\u2029]/;

const trimRust = (s: string): string => s.replace(TRIM_RUST, '');
const trimAny = (s: string): string => s.replace(TRIM_ANY, '');

/** The exact markers of the apply_patch grammar, with the single space the parsers require. */
const MARKERS: readonly { marker: string; deletes: boolean }[] = [
  { marker: '*** Add File: ', deletes: false },
  { marker: '*** Update File: ', deletes: false },
  { marker: '*** Delete File: ', deletes: true },
  { marker: '*** Move to: ', deletes: false },
];

/**
 * An apply_patch header in any spelling a lenient parser might accept: any case, any blanks
 * around the words and the colon, none after it. Group 1 is the verb, group 2 the rest.
 */
const LOOSE_HEADER = new RegExp(`^\\*{3}[${ANY_SPACE}]*(add|update|delete|move)[${ANY_SPACE}_-]*(?:file|to)[${ANY_SPACE}]*:(.*)$`, 'is');
/** The envelope and hunk markers of the apply_patch grammar: not context-diff `*** name` headers. */
const LOOSE_MARKER = new RegExp(`^\\*{3}[${ANY_SPACE}]*(?:begin|end)[${ANY_SPACE}_-]*(?:patch|of[${ANY_SPACE}_-]*file)`, 'i');

/** The lines of a text as each reader splits it: Codex's (`\n`, `\r\n`) and every finer split. */
function linesOf(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    out.add(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (ANY_BREAK.test(line)) for (const piece of line.split(ANY_BREAK)) out.add(piece);
  }
  return [...out];
}

/** A name in each spelling a reader may keep: as written, trimmed by Rust's set, by every set. */
function spellings(rest: string): string[] {
  return [...new Set([rest, trimRust(rest), trimAny(rest)])];
}

/** The names an agent's apply_patch text gives: its own headers and any unified-diff headers in it. */
export function applyPatchNames(text: string): PatchReading {
  const names: PatchName[] = [];
  const unsure: string[] = [];
  // The names of the last `Update File` header: a `Move to` after it takes that file away.
  let updated: PatchName[] = [];
  for (const line of linesOf(text)) {
    const loose = LOOSE_HEADER.exec(trimAny(line));
    if (loose === null) continue;
    const verb = loose[1].toLowerCase();
    const deletes = verb === 'delete';
    const here: PatchName[] = [];
    for (const { marker } of MARKERS) {
      // Codex trims the line; Copilot's family and Codex's `Move to` take it as is.
      for (const form of [trimRust(line), line]) {
        if (form.startsWith(marker)) for (const name of spellings(form.slice(marker.length))) here.push({ name, deletes });
      }
    }
    if (here.length === 0) {
      unsure.push(line);
      for (const name of spellings(loose[2])) here.push({ name, deletes });
    }
    if (verb === 'move') for (const u of updated) u.deletes = true;
    updated = verb === 'update' ? here : [];
    names.push(...here);
  }
  // Which `-p` strip the applier uses is its own choice: every one.
  for (const name of diffHeaderNames(text, true)) for (const n of [name, ...stripLevels(name)]) names.push({ name: n, deletes: false });
  return { names: dedupe(names), unsure };
}

function dedupe(names: PatchName[]): PatchName[] {
  const seen = new Map<string, PatchName>();
  for (const n of names) {
    const old = seen.get(n.name);
    // A name both written and deleted is a delete (the stricter finding) and a write.
    if (!old) seen.set(n.name, n);
    else if (n.deletes && !old.deletes) seen.set(n.name, n);
  }
  return [...seen.values()].filter((n) => n.name !== '' && n.name !== '/dev/null');
}

/**
 * A diff header as GNU and BSD patch find it: after any run of spaces, tabs and `X` (and, for
 * other appliers, Unicode blanks), `--- `, `+++ `, `*** `, `Index:`, `diff --git `, `rename to `,
 * `copy to `. Group 1 is the header, group 2 the rest of the line.
 */
const DIFF_HEADER = new RegExp(`^[ \\tX${ANY_SPACE}]*(--- |\\+\\+\\+ |\\*\\*\\* |Index:|diff --git |rename to |copy to )(.*)$`, 's');

/**
 * The file names a unified, context or git diff's headers give, raw (before any `-p` strip), in
 * every spelling `fetchname` could produce. `skipMarkers`: an apply_patch text, whose `*** Begin
 * Patch` and `*** Add File:` lines are its own grammar, not context-diff headers.
 */
export function diffHeaderNames(text: string, skipMarkers = false): string[] {
  const out = new Set<string>();
  for (const line of linesOf(text)) {
    const m = DIFF_HEADER.exec(line);
    if (m === null) continue;
    const rest = m[2];
    if (m[1] === '*** ' && skipMarkers && (LOOSE_HEADER.test(`***${rest}`) || LOOSE_MARKER.test(`***${rest}`))) continue;
    if (m[1] === 'diff --git ') {
      // `diff --git a/x b/y`: both names; a name with a blank is ambiguous, so every split is taken.
      const words = rest.trim().split(/\s+/);
      for (let i = 1; i < words.length; i++)
        for (const n of nameSpellings(words.slice(0, i).join(' ')).concat(nameSpellings(words.slice(i).join(' ')))) out.add(n);
      for (const n of nameSpellings(rest)) out.add(n);
      continue;
    }
    for (const n of nameSpellings(rest)) out.add(n);
  }
  out.delete('');
  out.delete('/dev/null');
  return [...out];
}

/** `fetchname`'s readings of a header's rest: the whole (trimmed), up to a tab, up to a blank, a C-quoted name. */
function nameSpellings(rest: string): string[] {
  const s = rest.replace(/^[ \t]+/, '');
  const out = [trimAny(s), trimAny(s.split('\t')[0]), s.split(/[\s]/)[0]];
  if (s.startsWith('"')) {
    const q = /^"((?:[^"\\]|\\.)*)"/s.exec(s);
    if (q) out.push(unquoteC(q[1]));
  }
  return [...new Set(out)];
}

/** A git / GNU diff C-quoted name's escapes: `\t`, `\n`, `\"`, `\\`, octal bytes (read as UTF-8). */
function unquoteC(s: string): string {
  const bytes: number[] = [];
  const named: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11 };
  const chars = [...s];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c !== '\\' || i + 1 >= chars.length) {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const oct = /^[0-7]{1,3}/.exec(chars.slice(i + 1, i + 4).join(''));
    if (oct) {
      bytes.push(parseInt(oct[0], 8) & 0xff);
      i += oct[0].length;
      continue;
    }
    const d = chars[++i];
    if (named[d] !== undefined) bytes.push(named[d]);
    else bytes.push(...Buffer.from(d, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Every `-p` strip of a name: `a/b/c`, `b/c`, `c` (which level applies depends on flags and on what exists). */
export function stripLevels(name: string): string[] {
  const parts = name.split('/').filter((x) => x !== '' && x !== '.');
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) out.push(parts.slice(i).join('/'));
  return out;
}
