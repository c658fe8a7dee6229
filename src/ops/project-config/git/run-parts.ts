/**
 * Which parts of a git run a read-only git command reaches, so that only the keys it can start
 * make it ask: `git log` never runs core.fsmonitor, `git status` never runs a textconv driver.
 * Learnt from git 2.39 run here under a terminal with every program-naming key and every hook
 * pointed at a logging script (the table in the tests reproduces it); where a newer git or an
 * option could reach more, the sets below include it.
 */
import type { ParsedArgv } from '../../../programs/argv.js';
import type { WalkedCommand } from '../../../walk/types.js';
import type { GitRunPart } from './code-keys.js';

/** Commands that never read the index or the work tree unless an argument names an index path (`:file`). */
const NO_INDEX = new Set([
  'log',
  'whatchanged',
  'shortlog',
  'reflog',
  'rev-list',
  'for-each-ref',
  'show-ref',
  'show-branch',
  'ls-tree',
  'cat-file',
  'show',
  'rev-parse',
  'merge-base',
  'name-rev',
  'cherry',
  'count-objects',
  'range-diff',
  'describe',
  'notes',
  'archive',
  'check-ref-format',
  'version',
  'help',
  'var',
  'verify-commit',
  'verify-tag',
  'remote',
  'worktree',
  'branch',
  'tag',
  'config',
  'ls-remote',
  'request-pull',
  'hash-object',
]);

/** Paginated by default when stdout is a terminal (pager.<cmd> can add any other). */
const PAGINATED = new Set([
  'log',
  'whatchanged',
  'shortlog',
  'reflog',
  'show',
  'diff',
  'grep',
  'blame',
  'annotate',
  'range-diff',
  'branch',
  'tag',
  'config',
  'help',
  'stash',
  'notes',
  'bisect',
]);

/** Show file contents in converted form whatever the options (textconv, diff drivers, smudge). */
const CONTENT = new Set(['show', 'diff', 'blame', 'annotate', 'range-diff', 'archive', 'stash', 'bisect']);
/** Show contents only when asked for a patch. */
const LOG_FAMILY = new Set(['log', 'whatchanged', 'reflog']);
/** Options that make the log family (and plumbing diffs) produce or search patches. */
const PATCH_OPTION = /^(-p|-u|--patch.*|--cc|-c|--dd|-m|--word-diff.*|--color-words.*|--ext-diff|--textconv|-L.*|-S.*|-G.*|--pickaxe.*|-W|--function-context)$/;
const PLUMBING_DIFF = new Set(['diff-files', 'diff-index', 'diff-tree']);
/** Signatures: `%G?`-style pretty formats, ref-filter `%(signature…)`. */
const SIGNATURE_FORMAT = /%G|%\(signature/;
const SIGNATURE_CAPABLE = new Set(['log', 'whatchanged', 'reflog', 'show', 'rev-list', 'shortlog', 'for-each-ref', 'branch', 'tag']);

export interface GitRun {
  /** The git subcommand (`status`, `log`…), null when there is none. */
  command: string | null;
  parts: Set<GitRunPart>;
  /** Hook events the run may fire. */
  hookEvents: string[];
  /**
   * 'forced' by -p, 'default' when the command pages unless pager.<cmd> says otherwise, 'never'
   * when --no-pager or stdout is certainly not a terminal, 'config' when only pager.<cmd> can turn it on.
   */
  pager: 'forced' | 'default' | 'config' | 'never';
  /** --show-signature / --no-show-signature given (log.showSignature applies otherwise). */
  showSignature: boolean | null;
}

/**
 * Git only pages when stdout is a terminal. A stage feeding a pipe, a command substitution, or a
 * redirect of stdout to a file certainly is not; anything else may be.
 */
export function stdoutMayBeTerminal(cmd: WalkedCommand): boolean {
  const p = cmd.context.pipeline;
  if (p && p.index < p.length - 1) return false;
  if (cmd.context.substitution === 'command' || cmd.context.substitution === 'process-in') return false;
  for (const r of cmd.redirects) {
    const toStdout = (r.fd === null || r.fd === 1) && (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>' || r.op === '&>>');
    if (toStdout && r.path && !r.path.dynamic && r.path.value !== '/dev/tty' && r.path.value !== '/dev/stdout' && r.path.value !== '/dev/stderr') return false;
  }
  return true;
}

export function gitRun(cmd: WalkedCommand, parsed: ParsedArgv): GitRun {
  const command = parsed.subcommands[0] ?? null;
  const parts = new Set<GitRunPart>();
  const hookEvents: string[] = [];
  const global = parsed.options.filter((o) => o.depth === 0);
  const local = parsed.options.filter((o) => o.depth > 0);
  const has = (...names: string[]) => local.some((o) => names.includes(o.name));
  const words = cmd.args.map((a) => a.value);
  const dynamicArgs = cmd.args.some((a) => a.dynamic);

  // `git help TOPIC` hands over to man (which pages with MANPAGER/PAGER); only the lists page.
  const helpTopic = command === 'help' && (parsed.operands.length > 0 || local.some((o) => ['-m', '--man', '-w', '--web', '-i', '--info'].includes(o.name)));
  let pager: GitRun['pager'] = command !== null && PAGINATED.has(command) && !helpTopic ? 'default' : 'config';
  if (global.some((o) => o.name === '-p' || o.name === '--paginate')) pager = 'forced';
  if (global.some((o) => o.name === '-P' || o.name === '--no-pager') || !stdoutMayBeTerminal(cmd)) pager = 'never';
  if (pager !== 'never') parts.add('pager');

  if (command === null) return { command, parts, hookEvents, pager, showSignature: null };

  // Index and work tree: core.fsmonitor, clean filters, the post-index-change hook, submodules.
  const indexPath = parsed.operands.some((a) => a.dynamic || (a.value.startsWith(':') && !a.value.startsWith(':/')));
  const describeDirty = command === 'describe' && local.some((o) => /^--(dirty|broken)/.test(o.name));
  if (!NO_INDEX.has(command) || indexPath || describeDirty) {
    parts.add('index');
    hookEvents.push('post-index-change');
  }

  // Contents: textconv, external diff drivers, smudge/clean filters.
  const patch = local.some((o) => PATCH_OPTION.test(o.name)) || dynamicArgs;
  if (CONTENT.has(command)) parts.add('content');
  else if ((LOG_FAMILY.has(command) || PLUMBING_DIFF.has(command)) && patch) parts.add('content');
  else if (command === 'cat-file' && has('--textconv', '--filters', '--batch', '--batch-check', '--batch-command')) parts.add('content');
  else if (command === 'grep' && has('--textconv')) parts.add('content');
  else if (command === 'hash-object' && !has('--no-filters')) parts.add('content');

  // Signatures.
  let showSignature: boolean | null = null;
  if (local.some((o) => o.name === '--show-signature')) showSignature = true;
  if (local.some((o) => o.name === '--no-show-signature')) showSignature = false;
  const verifying = command === 'verify-commit' || command === 'verify-tag' || (command === 'tag' && has('-v', '--verify'));
  if (verifying || showSignature === true || (SIGNATURE_CAPABLE.has(command) && (dynamicArgs || words.some((w) => SIGNATURE_FORMAT.test(w)))))
    parts.add('signature');

  // Remotes.
  const remoteShow = command === 'remote' && parsed.subcommands[1] === 'show' && !has('-n');
  if (command === 'ls-remote' || command === 'request-pull' || remoteShow || (command === 'archive' && has('--remote'))) parts.add('network');

  // Documentation: `git help TOPIC`, `git CMD --help`.
  if (helpTopic || local.some((o) => o.name === '--help')) parts.add('help');

  // Newer gits let an alias replace a deprecated command (whatchanged).
  if (command === 'whatchanged') parts.add('alias');
  return { command, parts, hookEvents, pager, showSignature };
}
