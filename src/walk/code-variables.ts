/**
 * Code that runs later, written as data: a trap's action, `complete -C` and `bind -x` commands,
 * and variables whose value something executes — `PROMPT_COMMAND`, the prompt strings (`PS4` under
 * `set -x`, `PS1`… in an interactive shell: their `$(…)` run), and the command lines programs run
 * through `sh -c` (`GIT_PAGER`, `EDITOR`, `GIT_SSH_COMMAND`…). Whether and when it runs depends on
 * state shellgate does not know (a signal, xtrace, an interactive shell, a program that pages), so
 * it is always analysed, as a command that may run.
 */
import type { Arg, CommandContext, WalkedCommand } from './types.js';
import type { SourceFrame } from './source-frame.js';
import type { Walker } from './walker-api.js';
import { forgetState, forkScope, stateChanged, type Scope } from './scope.js';
import { nestedScript, nestedText } from './nested-scripts.js';

/** Variables whose value a shell or a program runs as a command line. */
export const SCRIPT_VARIABLES: ReadonlySet<string> = new Set([
  'PROMPT_COMMAND', // bash, before each prompt (eval)
  'PAGER',
  'MANPAGER',
  'GIT_PAGER',
  'SYSTEMD_PAGER',
  'PSQL_PAGER',
  'BAT_PAGER',
  'DELTA_PAGER', // pagers run through sh -c
  'EDITOR',
  'VISUAL',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'SUDO_EDITOR',
  'FCEDIT',
  'SELECTED_EDITOR', // editors, likewise
  'GIT_SSH_COMMAND',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'BROWSER',
  'LESSOPEN',
  'LESSCLOSE', // less runs them as input preprocessors (`|cmd %s`)
]);

/** Prompt strings: bash expands them (running `$(…)` and backquotes) each time it shows one. */
export const PROMPT_VARIABLES: ReadonlySet<string> = new Set(['PS0', 'PS1', 'PS2', 'PS3', 'PS4']);

/** Is `name`'s value code that something runs? */
export function holdsCode(name: string): boolean {
  return SCRIPT_VARIABLES.has(name) || PROMPT_VARIABLES.has(name);
}

/**
 * Walk the code in assignments (`NAME=VALUE` as a prefix, alone, after `env`/`sudo`, or as an
 * argument of `export`/`declare`). A value known only at run time asks (dynamic-script).
 */
export function codeInAssignments(
  w: Walker,
  owner: WalkedCommand,
  assignments: readonly { name: string; value: string | null }[],
  frame: SourceFrame,
  ctx: CommandContext,
  scope: Scope,
): void {
  for (const a of assignments) {
    if (!holdsCode(a.name)) continue;
    const innerCtx: CommandContext = { ...ctx, depth: ctx.depth + 1, conditional: true, via: [...ctx.via, `variable:${a.name}`] };
    if (a.value === null) {
      w.finding('dynamic-script', `\`${a.name}=…\``, owner.span, owner.id);
      continue;
    }
    const text = codeOf(a.name, a.value);
    if (text.trim() === '') continue;
    // Pagers and editors run through `sh -c` in a new process; prompt code runs in this shell.
    nestedText(w, owner, text, owner.span, frame, innerCtx, scope, { coarse: true, fresh: SCRIPT_VARIABLES.has(a.name) && a.name !== 'PROMPT_COMMAND' });
  }
}

/** The command line a variable's value stands for. */
function codeOf(name: string, value: string): string {
  if (PROMPT_VARIABLES.has(name)) return promptAsWord(value);
  // `LESSOPEN='|cmd %s'`: less runs cmd on the file it opens.
  if (name.startsWith('LESS')) return value.replace(/^\|+/, '').replace(/%s/g, 'FILE');
  return value;
}

/** A prompt string as a command whose one word expands like the prompt: `: "…"`. */
function promptAsWord(value: string): string {
  return `: "${value.replace(/(["\\])/g, (m) => (m === '"' ? '\\"' : '\\\\'))}"`;
}

/**
 * Builtins that store code to run later: `trap ACTION SIG…`, `complete`/`compgen -C CMD`,
 * `bind -x 'KEYSEQ: CMD'`, `mapfile -C CALLBACK`. The code is walked as a command that may run, in a copy of the state.
 */
export function storedCode(w: Walker, owner: WalkedCommand, frame: SourceFrame, ctx: CommandContext, scope: Scope): void {
  const program = owner.program;
  const args = owner.args;
  const later = (via: string): CommandContext => ({ ...ctx, depth: ctx.depth + 1, conditional: true, via: [...ctx.via, via] });
  if (program === 'trap') {
    let i = 0;
    while (i < args.length && !args[i].dynamic && /^-[lp]+$/.test(args[i].value)) i++;
    if (args[i]?.value === '--' && !args[i].dynamic) i++;
    const operands = args.slice(i);
    // With one operand bash resets that signal; with more, the first is the action.
    if (operands.length < 2) return;
    const action = operands[0];
    if (!action.dynamic && (action.value === '-' || action.value === '')) return;
    // The action runs in this shell: on EXIT after everything else, but on DEBUG, RETURN, ERR or
    // a signal before or between later commands (`trap 'cd /' DEBUG` moves each of them). What it
    // changes then may or may not have happened at any later point.
    const signals = operands.slice(1);
    const between = signals.some((a) => a.dynamic || !/^(EXIT|SIGEXIT|0)$/i.test(a.value));
    const via = later(`trap:${signals.map((a) => a.value).join(',')}`);
    if (!between) return nestedScript(w, owner, [action], frame, via, scope);
    // Later commands cannot be told apart into before and after the trap ran (it may run between
    // any two): a trap that changes the state makes every later command's state unknown.
    const after = forkScope(scope);
    nestedScript(w, owner, [action], frame, via, after, { sameShell: true, certain: true });
    if (stateChanged(scope, after)) {
      w.finding('trap-state', `\`trap ${action.raw ?? action.value}\``, owner.span, owner.id);
      forgetState(scope);
    }
    return;
  }
  if (program === 'mapfile' || program === 'readarray') {
    // `mapfile -C CALLBACK`: bash evaluates `CALLBACK INDEX LINE` every -c lines read.
    for (const code of optionValues(args, 'C')) nestedScript(w, owner, [code], frame, later(`${program}:-C`), scope);
    return;
  }
  if (program === 'complete' || program === 'compgen') {
    for (const code of optionValues(args, 'C')) nestedScript(w, owner, [code], frame, later(`${program}:-C`), scope);
    return;
  }
  if (program === 'bind') {
    for (const binding of optionValues(args, 'x')) {
      if (binding.dynamic) {
        nestedScript(w, owner, [binding], frame, later('bind:-x'), scope);
        continue;
      }
      // `"\C-x": command` or `KEYSEQ: command`: the command follows the first colon after the key.
      const m = /^\s*(?:"(?:[^"\\]|\\.)*"|[^:\s]*)\s*:\s*(.*)$/s.exec(binding.value);
      if (m) nestedScript(w, owner, [{ ...binding, value: m[1] }], frame, later('bind:-x'), scope);
    }
  }
}

/** Values of a short option that takes one (`-C cmd`, `-Ccmd`, bundled `-oC cmd`). */
function optionValues(args: Arg[], letter: string): Arg[] {
  const out: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic || !a.value.startsWith('-') || a.value === '--') {
      if (a.value === '--') break;
      continue;
    }
    const at = a.value.indexOf(letter, 1);
    if (at < 0) continue;
    const attached = a.value.slice(at + 1);
    if (attached !== '') out.push({ ...a, value: attached });
    else if (args[i + 1]) out.push(args[++i]);
  }
  return out;
}
