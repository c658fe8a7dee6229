/**
 * Facts → findings. Every operation that is not a plain read inside the workspace becomes
 * a finding with a level; the verdict's level is the strictest finding. Nothing is `allow` unless
 * every part was analysed and found read-only.
 */
import type { Span } from '../syntax/ast.js';
import type { CommandFacts } from '../ops/operations.js';
import type { Operation } from '../ops/types.js';
import type { WalkedCommand } from '../walk/types.js';
import { CORE_FINDINGS, STRUCTURE_FINDINGS, fillDetail, type CoreFindingId } from '../findings/catalog.js';
import type { Finding, Level } from '../findings/types.js';
import { READABLE_VARIABLES } from '../programs/inline-code/proof.js';
import { ENVIRONMENT_BLIND_BUILTINS, isInertVariable, mayBeEnvironmentName } from '../ops/environment-variables.js';
import { SCRIPT_VARIABLES, PROMPT_VARIABLES } from '../walk/code-variables.js';
import { DECLARATION_BUILTINS } from '../walk/shell-state.js';

/**
 * Does this Env operation change what a program runs or loads?
 * - The variable reaches a program's environment (a prefix on a program or a function, an
 *   `export`/`declare -x` argument, an assignment under `set -a`): yes, unless its name is inert.
 * - A bare assignment (or `read NAME`, `printf -v NAME`): when the name may already be in the
 *   environment (environment-variables.ts), since the user's environment is not known here.
 * - A variable whose value is code, set as a prefix on the program that runs it now
 *   (`GIT_PAGER=cat git log`), is judged by that code (walked on its own), not by its name.
 */
function envHijack(cmd: WalkedCommand, op: Operation): boolean {
  const name = op.target!;
  // A prefix on the program that runs the code now (`GIT_PAGER=cat git log`): the code was walked.
  // Exported or left set, it stays for later commands, run where shellgate cannot see with what.
  if (op.source === 'program' && cmd.program !== null && (SCRIPT_VARIABLES.has(name) || PROMPT_VARIABLES.has(name))) {
    const value = cmd.assignments.find((a) => a.name === name)?.value;
    if (value !== null && value !== undefined) return false;
  }
  // A prefix on a builtin that runs nothing (`IFS= read -r line`) lasts for that builtin only.
  if (op.source === 'program' && cmd.program !== null && ENVIRONMENT_BLIND_BUILTINS.has(cmd.program)) return false;
  if (op.source === 'operand' && cmd.program === 'printenv') return false; // `printenv HOME` reads it
  // Set by a builtin (`read PATH`, `printf -v HOME`, `export X=1`) or a prefix or a bare assignment.
  if (isInertVariable(name, assignedValue(cmd, name))) return false;
  if (op.source === 'program' && cmd.program !== null) return !ENVIRONMENT_BLIND_BUILTINS.has(cmd.program); // a prefix on a program
  const exported =
    cmd.exported.has(name) ||
    (op.source === 'operand' &&
      cmd.program !== null &&
      DECLARATION_BUILTINS.has(cmd.program) &&
      (cmd.program === 'export' || cmd.args.some((a) => /^-[A-Za-z]*x/.test(a.value))));
  // Exported, every later program gets it; else only if the user's environment already has the name.
  return exported || mayBeEnvironmentName(name);
}

/** The value a command gives `name`: a prefix or bare assignment, or a `NAME=value` argument (`export`); null when unknown. */
function assignedValue(cmd: WalkedCommand, name: string): string | null {
  const assigned = cmd.assignments.find((a) => a.name === name);
  if (assigned) return assigned.value;
  const arg = cmd.args.find((a) => a.value.startsWith(`${name}=`));
  return arg && !arg.dynamic ? arg.value.slice(name.length + 1) : null;
}

export interface AssessOptions {
  chaining: 'info' | 'ask';
}

export function makeFinding(rule: CoreFindingId, detail: string, span: Span, command: number | undefined, opts: AssessOptions): Finding {
  const meta = CORE_FINDINGS[rule];
  let level: Level = meta.level;
  if (opts.chaining === 'ask' && STRUCTURE_FINDINGS.has(rule)) level = 'ask';
  const finding: Finding = { rule, category: meta.category, level, message: fillDetail(meta.message, detail), span };
  if (command !== undefined) finding.command = command;
  return finding;
}

function describe(op: Operation): string {
  return op.path ?? op.target ?? op.host ?? op.program ?? op.kind;
}

/** `opOffset`: index in the verdict's operations of this command's first operation. */
export function assessCommand(cmd: WalkedCommand, facts: CommandFacts, opts: AssessOptions, opOffset = 0): Finding[] {
  const out: Finding[] = [];
  const add = (rule: CoreFindingId, detail: string, span: Span, operation?: number) => {
    const f = makeFinding(rule, detail, span, cmd.id, opts);
    if (operation !== undefined) f.operation = operation;
    out.push(f);
  };
  const name = cmd.program ?? cmd.programRaw;
  if (cmd.context.remote) add('remote', `${name} on ${cmd.context.remote}`, cmd.span);
  facts.ops.forEach((op, k) => {
    const opAdd = (rule: CoreFindingId, detail: string, span: Span): void => add(rule, detail, span, opOffset + k);
    const where = describe(op);
    const classes = op.classes ?? [];
    if (op.kind === 'Read' || op.kind === 'List' || op.kind === 'Write' || op.kind === 'Delete') {
      if (classes.includes('special-device')) return;
      if (op.dynamic && !cmd.context.remote) opAdd(op.splitNames ? 'split-names' : 'dynamic-path', `\`${op.target ?? '?'}\` for ${name}`, op.span);
      if (classes.includes('sensitive')) opAdd('sensitive-path', where, op.span);
      // Shared temp is outside too: other users and programs leave files there (`/tmp/krb5cc_0`
      // holds Kerberos tickets). Writing and deleting there already ask; reading asks as well.
      if (classes.includes('outside') || classes.includes('temp')) opAdd('outside-workspace', `${op.kind.toLowerCase()} ${where}`, op.span);
    }
    switch (op.kind) {
      case 'Write':
        opAdd('write', `${where} (${name})`, op.span);
        if (classes.includes('exec-config')) opAdd('exec-config', `${where} (${name})`, op.span);
        break;
      case 'Delete':
        opAdd('delete', `${where} (${name})`, op.span);
        break;
      case 'Exec':
        if (op.source === 'stdin') opAdd('stdin-exec', name, op.span);
        else if (op.source === 'config') opAdd('repo-code', `\`${facts.label}\` (${op.target ?? op.path ?? '?'})`, op.span);
        else {
          const what = op.path ?? op.program ?? where;
          opAdd('exec', what === name ? name : `${what} (${name})`, op.span);
        }
        break;
      case 'Network':
        opAdd('network', `${name}${op.host ? ' → ' + op.host : ''}`, op.span);
        break;
      case 'Privilege':
        opAdd('privilege', name, op.span);
        break;
      case 'Process':
        opAdd('process', name, op.span);
        break;
      case 'System':
        opAdd('system', name, op.span);
        break;
      case 'Env':
        if (op.target === '*') opAdd('env-dump', name, op.span);
        // A printed variable is proven harmless only by name, on the whitelist of readable ones.
        else if (op.prints) {
          if (op.dynamic || op.target === undefined || !READABLE_VARIABLES.has(op.target)) opAdd('secret-variable', `\`${op.target ?? '?'}\``, op.span);
        } else if (op.target && envHijack(cmd, op)) opAdd('env-hijack', op.target, op.span);
        break;
      case 'Unknown':
        if (op.source === 'program' && !op.dynamic) opAdd('unknown-command', `\`${name}\``, op.span);
        else if (op.source === 'operand') opAdd('dynamic-path', `\`${op.target}\` for ${name}`, op.span);
        break;
      default:
        break;
    }
  });
  for (const u of facts.unknownOptions) {
    const detail = u.dynamic
      ? `${u.program}: \`${u.option}\` is only known at run time and may expand to any of its options`
      : `${u.program}: \`${u.option}\`${u.word !== u.option ? ` (in \`${u.word}\`)` : ''} is not an option shellgate's description lists${
          u.checkedAgainst ? ` (checked against ${u.checkedAgainst})` : ''
        }`;
    add('unknown-option', detail, u.span);
  }
  for (const n of facts.namedOptions)
    out.push({ ...makeFinding('named-option', `${facts.label}: \`${n.option}\` (${n.why})`, n.span, cmd.id, opts), subject: n.option });
  // A program working in a directory outside the workspace reads it (git status reads that repo).
  if (facts.cwdOutside && !out.some((f) => f.rule === 'outside-workspace')) add('outside-workspace', `${name} runs in ${facts.cwdOutside}`, cmd.span);
  const asks = out.some((f) => f.level !== 'allow');
  if (!asks && facts.class === 'unknown' && cmd.program !== null) add('unknown-effect', `\`${facts.label}\``, cmd.span);
  if (!asks && facts.class === 'mutating') add('state-change', `\`${facts.label}\``, cmd.span);
  return out;
}
