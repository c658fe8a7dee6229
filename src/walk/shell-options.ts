/**
 * Which `set` and `shopt` options shellgate may let pass: a whitelist, never a list of dangerous
 * ones. An option changes how bash reads or runs everything after it (`set -o posix` makes
 * assignments before special builtins persist, `set -k` turns later `NAME=value` words into
 * environment, `shopt -s lastpipe` runs a pipeline's last stage in this shell, `cdable_vars` lets
 * `cd NAME` go to $NAME…). Only options listed here as inert for the analysis pass; turning any
 * other one away from its default makes the state after it unknown, and the command asks.
 *
 * An option set to its default value (`set -B`, `shopt -s sourcepath`) changes nothing: the walk
 * starts from bash's defaults (`bash -c` reads no option from its caller that shellgate follows).
 */
import type { Arg } from './types.js';
import { GLOB_OPTIONS } from './scope.js';

/** `set` letters and the `-o` names they stand for (bash 5.2 `help set`). */
const SET_LETTERS: Readonly<Record<string, string>> = {
  a: 'allexport',
  b: 'notify',
  e: 'errexit',
  f: 'noglob',
  h: 'hashall',
  k: 'keyword',
  m: 'monitor',
  n: 'noexec',
  p: 'privileged',
  t: 'onecmd',
  u: 'nounset',
  v: 'verbose',
  x: 'xtrace',
  B: 'braceexpand',
  C: 'noclobber',
  E: 'errtrace',
  H: 'histexpand',
  P: 'physical',
  T: 'functrace',
};

/** `set -o` options on by default in `bash -c`. */
const SET_DEFAULT_ON: ReadonlySet<string> = new Set(['braceexpand', 'hashall', 'interactive-comments']);

/**
 * `set -o` options inert in either direction, each for a reason:
 * - errexit, nounset, pipefail, errtrace, functrace: only decide when a command fails or the shell
 *   stops, or which traps functions inherit (trap code is walked as code that may run anywhere);
 *   every command after them is walked anyway.
 * - xtrace, verbose: print what runs (PS4's own code is walked as a prompt variable).
 * - noclobber: `>` may only fail more often. noexec, onecmd: run less.
 * - notify, ignoreeof, emacs, vi, nolog, hashall: job messages, interactive input, the hash cache.
 * - allexport: followed by the walker (shell-state.ts).
 */
const SET_INERT: ReadonlySet<string> = new Set([
  'errexit',
  'nounset',
  'pipefail',
  'errtrace',
  'functrace',
  'xtrace',
  'verbose',
  'noclobber',
  'noexec',
  'onecmd',
  'notify',
  'ignoreeof',
  'emacs',
  'vi',
  'nolog',
  'hashall',
  'allexport',
]);

/** `shopt` options on by default in `bash -c` (bash 5.2). */
const SHOPT_DEFAULT_ON: ReadonlySet<string> = new Set([
  'checkwinsize',
  'cmdhist',
  'complete_fullquote',
  'extquote',
  'force_fignore',
  'globasciiranges',
  'globskipdots',
  'hostcomplete',
  'interactive_comments',
  'patsub_replacement',
  'progcomp',
  'promptvars',
  'sourcepath',
]);

/**
 * `shopt` options inert in either direction, each for a reason:
 * - the glob options (scope.ts GLOB_OPTIONS): followed by the walker and the path layer.
 * - history, completion, prompt, mail and terminal options (checkwinsize, cmdhist, lithist,
 *   histappend, histreedit, histverify, progcomp, progcomp_alias, promptvars, mailwarn,
 *   no_empty_cmd_completion, force_fignore, hostcomplete, complete_fullquote, direxpand, dirspell,
 *   cdspell, autocd, checkjobs, huponexit): interactive use only, or only what is shown.
 * - checkhash, execfail, inherit_errexit, gnu_errfmt, shift_verbose, varredir_close,
 *   assoc_expand_once, noexpand_translation: errors, messages, or fewer evaluations.
 * - nocasematch: which `case` / `[[ ]]` branch runs; every branch is walked anyway.
 * - expand_aliases: aliases defined on the line are walked as the alias and as the program.
 * - xpg_echo: echo's escapes; printed text with a backslash is never followed (printed-text.ts).
 */
const SHOPT_INERT: ReadonlySet<string> = new Set([
  ...GLOB_OPTIONS,
  'checkwinsize',
  'cmdhist',
  'lithist',
  'histappend',
  'histreedit',
  'histverify',
  'progcomp',
  'progcomp_alias',
  'promptvars',
  'mailwarn',
  'no_empty_cmd_completion',
  'force_fignore',
  'hostcomplete',
  'complete_fullquote',
  'direxpand',
  'dirspell',
  'cdspell',
  'autocd',
  'checkjobs',
  'huponexit',
  'checkhash',
  'execfail',
  'inherit_errexit',
  'gnu_errfmt',
  'shift_verbose',
  'varredir_close',
  'assoc_expand_once',
  'noexpand_translation',
  'nocasematch',
  'expand_aliases',
  'xpg_echo',
]);

function setOptionInert(name: string, on: boolean): boolean {
  return SET_INERT.has(name) || SET_DEFAULT_ON.has(name) === on;
}

function shoptOptionInert(name: string, on: boolean): boolean {
  return SHOPT_INERT.has(name) || SHOPT_DEFAULT_ON.has(name) === on;
}

/**
 * The options `set ARGS…` turns away from their default that are not inert, as written
 * (`set -o posix`, `set -k`); a word known only at run time is one of them. Option processing
 * ends at `--`, `-`, or the first word that is not an option (positional parameters follow).
 */
export function unknownSetOptions(args: readonly Arg[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic || a.glob) {
      out.push(`set ${a.raw ?? a.value}`);
      continue;
    }
    const v = a.value;
    if (v === '--' || v === '-' || !/^[-+][A-Za-z]+$/.test(v)) break;
    const on = v.startsWith('-');
    for (const letter of v.slice(1)) {
      if (letter === 'o') {
        const next = args[i + 1];
        if (next === undefined) continue; // `set -o` alone lists the options
        i++;
        if (next.dynamic || next.glob) out.push(`set ${v[0]}o ${next.raw ?? next.value}`);
        else if (!setOptionInert(next.value, on)) out.push(`set ${v[0]}o ${next.value}`);
        continue;
      }
      const name = SET_LETTERS[letter];
      if (name === undefined || !setOptionInert(name, on)) out.push(`set ${v[0]}${letter}`);
    }
  }
  return out;
}

/** The options `shopt ARGS…` changes that are not inert (`shopt -o` names `set -o` options). */
export function unknownShoptOptions(args: readonly Arg[]): string[] {
  let mode: 's' | 'u' | null = null;
  let setNames = false;
  const names: Arg[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic || a.glob) return [`shopt ${args.map((x) => x.raw ?? x.value).join(' ')}`];
    if (a.value === '--') {
      i++;
      break;
    }
    if (!/^-[a-z]+$/.test(a.value)) break;
    if (a.value.includes('s')) mode = 's';
    if (a.value.includes('u')) mode = 'u';
    if (a.value.includes('o')) setNames = true;
  }
  for (; i < args.length; i++) names.push(args[i]);
  // Without -s or -u, shopt only reports.
  if (mode === null) return [];
  const on = mode === 's';
  const out: string[] = [];
  for (const n of names) {
    if (n.dynamic || n.glob) out.push(`shopt -${mode} ${n.raw ?? n.value}`);
    else if (!(setNames ? setOptionInert(n.value, on) : shoptOptionInert(n.value, on))) out.push(`shopt -${mode}${setNames ? 'o' : ''} ${n.value}`);
  }
  return out;
}
