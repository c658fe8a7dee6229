/**
 * Facts → findings. Every operation that is not a plain read inside the workspace or temp becomes
 * a finding with a level; the verdict's level is the strictest finding. Nothing is `allow` unless
 * every part was analysed and found read-only.
 */
import type { Span } from '../syntax/ast.js';
import type { CommandFacts } from '../ops/operations.js';
import type { Operation } from '../ops/types.js';
import type { WalkedCommand } from '../walk/types.js';
import { CORE_FINDINGS, STRUCTURE_FINDINGS, type CoreFindingId } from './catalog.js';
import type { Finding, Level } from './types.js';
import { SECRET_NAME } from '../walk/expansion-risks.js';

/** Variables that change what later commands run or load. */
export const HIJACK_VARIABLES = new Set([
  'PATH', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH', 'BASH_ENV', 'ENV',
  'PROMPT_COMMAND', 'IFS', 'PAGER', 'MANPAGER', 'GIT_PAGER', 'LESSOPEN', 'LESSCLOSE', 'EDITOR', 'VISUAL', 'GIT_EDITOR',
  'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_EXEC_PATH', 'GIT_CONFIG_GLOBAL', 'GIT_DIR', 'GIT_WORK_TREE', 'PYTHONPATH', 'PYTHONSTARTUP',
  'NODE_OPTIONS', 'NODE_PATH', 'PERL5LIB', 'PERL5OPT', 'RUBYOPT', 'RUBYLIB', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'HISTFILE',
  'SSH_ASKPASS', 'SUDO_ASKPASS', 'RIPGREP_CONFIG_PATH', 'LESSKEY', 'LESS', 'MANOPT', 'BROWSER', 'TERMINAL', 'SHELL', 'CDPATH',
  'GLOBIGNORE', 'FIGNORE', 'HOSTALIASES', 'TMPDIR', 'XDG_CONFIG_HOME', 'CURL_HOME', 'WGETRC', 'DOCKER_HOST', 'KUBECONFIG', 'http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'npm_config_script_shell',
]);

/** Prefixes of variable families that configure what programs run or load. */
const HIJACK_PREFIXES = /^(LD_|DYLD_|GIT_|PYTHON|PERL|RUBY|npm_config_|NPM_CONFIG_|BASH_FUNC_)/;

export function isHijackVariable(name: string): boolean {
  return HIJACK_VARIABLES.has(name) || HIJACK_PREFIXES.test(name);
}

export interface AssessOptions {
  chaining: 'info' | 'ask';
}

export function makeFinding(rule: CoreFindingId, detail: string, span: Span, command: number | undefined, opts: AssessOptions): Finding {
  const meta = CORE_FINDINGS[rule];
  let level: Level = meta.level;
  if (opts.chaining === 'ask' && STRUCTURE_FINDINGS.has(rule)) level = 'ask';
  const finding: Finding = { rule, category: meta.category, level, message: meta.message.replace('{detail}', detail), span };
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
      if (op.dynamic && !cmd.context.remote) opAdd('dynamic-path', `\`${op.target ?? '?'}\` for ${name}`, op.span);
      if (classes.includes('sensitive')) opAdd('sensitive-path', where, op.span);
      if (classes.includes('outside')) opAdd('outside-workspace', `${op.kind.toLowerCase()} ${where}`, op.span);
    }
    switch (op.kind) {
      case 'Write':
        opAdd('write', `${where} (${name})`, op.span);
        break;
      case 'Delete':
        opAdd('delete', `${where} (${name})`, op.span);
        break;
      case 'Exec':
        if (op.source === 'stdin') opAdd('stdin-exec', name, op.span);
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
        else if (op.target && isHijackVariable(op.target)) opAdd('env-hijack', op.target, op.span);
        else if (op.target && op.source === 'operand' && op.program === 'printenv' && SECRET_NAME.test(op.target)) opAdd('secret-variable', op.target, op.span);
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
  // A program working in a directory outside the workspace reads it (git status reads that repo).
  if (facts.cwdOutside && !out.some((f) => f.rule === 'outside-workspace')) add('outside-workspace', `${name} runs in ${facts.cwdOutside}`, cmd.span);
  const asks = out.some((f) => f.level !== 'allow');
  if (!asks && facts.class === 'unknown' && cmd.program !== null) add('unknown-effect', `\`${facts.label}\``, cmd.span);
  if (!asks && facts.class === 'mutating') add('state-change', `\`${facts.label}\``, cmd.span);
  return out;
}
