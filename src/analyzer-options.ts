/**
 * The analyser's options and per-call context, checked at the boundary: a bad option or context
 * fails with a message naming the field, never later with a stack trace or a silent default.
 */
import { homedir } from 'node:os';
import { posix } from 'node:path';
import { ShellgateError } from './errors.js';
import { TrustedInstallers } from './guard/installer-urls.js';
import { isShellDialect, SHELL_DIALECTS, type ShellDialect } from './syntax/dialects.js';

/** Far above what a real command line walks: none of the 47,000 corpus commands takes 200 steps. */
export const DEFAULT_WALK_STEPS = 5_000;

export type ParserChoice = 'bash' | 'consensus' | 'tree-sitter';

export type { ShellDialect } from './syntax/dialects.js';

export interface AnalyzerOptions {
  /** `info` (default): chaining, substitutions, redirects and background jobs are findings at `allow`; `ask` raises them. */
  chaining?: 'info' | 'ask';
  /** Longest input analysed, in characters (default 4 MiB); the rest is cut with an `input-limit` finding. */
  maxInputLength?: number;
  /** How many nested scripts (`sh -c`, `eval`, `source`) to follow (default 8). */
  maxScriptDepth?: number;
  /**
   * How many function bodies to walk at their call sites in one analysis (default 64); past it a
   * call asks (`depth-limit`). A command line rarely calls more; a whole script (`shellgate lint`)
   * may call its functions thousands of times.
   */
  maxFunctionWalks?: number;
  /**
   * The walk's one budget of work (default 5,000 steps): every command walked at any depth (sourced
   * files, function bodies, `eval`, `sh -c`, loop bodies, substitutions) is a step, and nested code
   * costs one more step per 64 characters parsed. Past it the walk stops and the verdict asks
   * (`expansion-limit`): a line that sources small scripts from scripts cannot make the analysis
   * run for minutes (an agent that times its hook out runs the command).
   */
  maxWalkSteps?: number;
  /** Findings listed in one verdict (default 1000; the strictest first); the rest are counted in an `input-limit` finding. */
  maxFindings?: number;
  /** Extra folders of command specs (same format as rules/programs/: one file per program), read after the built-in ones. */
  commandSpecDirs?: string[];
  /** Read the file of `source FILE` / `. FILE` when it exists (default true; at most 256 KiB). */
  followSource?: boolean;
  /** Extra guard rule files (JSON, the format of rules/builtin/*.json). */
  ruleFiles?: string[];
  /**
   * URL prefixes (`https://HOST[/PATH]`) whose scripts may be fetched and run with a question
   * instead of a deny (`curl … | sh`), added to the built-in vendor installers (docs/download-exec.md).
   */
  trustedInstallers?: string[];
  /**
   * `bash` (default): shellgate's own parser, written from bash's grammar (src/syntax/parser/).
   * `consensus`: also parse with tree-sitter-bash and bash-parser and ask (`parser-disagreement`)
   * where either sees other commands, words, redirects or operators; loads tree-sitter's WASM.
   * `tree-sitter`: the earlier front end (tree-sitter-bash with its repairs) instead of ours.
   */
  parser?: ParserChoice;
  /**
   * The shell that runs the commands, for calls whose context names none (default `bash`). Where
   * that shell may read a command otherwise than bash (see ShellDialect), the verdict asks with
   * `dialect-difference`.
   */
  shell?: ShellDialect;
  /**
   * Verdicts remembered per command and context (default 10,000; 0 turns the cache off). A cached
   * verdict is shared: treat verdicts as read-only. `env` is keyed by object identity: pass a new
   * object when its variables change.
   */
  cacheSize?: number;
  /**
   * How long a cached verdict, and the realpaths read from disk, may be reused, in ms (default
   * 1,000; `Infinity` for a filesystem that does not change, such as a log linted in one go). A
   * verdict reads the filesystem (symlinks, .git/config, sourced files) and the commands it
   * judges change it. With `cacheSize: 0` nothing is reused: every analysis reads afresh.
   */
  cacheTtlMs?: number;
}

export interface AnalysisContext {
  /** Working directory the command runs in (default: the process cwd). */
  cwd?: string;
  /** Workspace roots (default: `[cwd]`). */
  workspaceRoots?: string[];
  /** Home directory for `~` and `$HOME` (default: the user's home). */
  home?: string;
  /** Environment variables known for expansion; others stay dynamic (default: none). */
  env?: Record<string, string | undefined>;
  /** The shell that runs this command (default: the analyser's `shell` option). */
  shell?: ShellDialect;
}

/** The options a shellgate settings file may set (the rest belong to the program that embeds the analyser). */
export const SETTINGS_OPTION_KEYS = [
  'chaining',
  'maxInputLength',
  'maxScriptDepth',
  'maxFunctionWalks',
  'maxWalkSteps',
  'maxFindings',
  'commandSpecDirs',
  'followSource',
  'ruleFiles',
  'trustedInstallers',
  'shell',
] as const;

const OPTION_KEYS = new Set<string>([...SETTINGS_OPTION_KEYS, 'cacheSize', 'cacheTtlMs', 'parser']);
const CONTEXT_KEYS = new Set(['cwd', 'workspaceRoots', 'home', 'env', 'shell']);

export function checkOptions(o: AnalyzerOptions): Required<AnalyzerOptions> {
  if (typeof o !== 'object' || o === null) throw new ShellgateError('options', 'options must be an object');
  for (const k of Object.keys(o)) if (!OPTION_KEYS.has(k)) throw new ShellgateError('options', `unknown option "${k}" (known: ${[...OPTION_KEYS].join(', ')})`);
  const chaining = o.chaining ?? 'info';
  if (chaining !== 'info' && chaining !== 'ask')
    throw new ShellgateError('options', `option "chaining" must be "info" or "ask", not ${JSON.stringify(chaining)}`);
  const positive = (name: string, v: unknown, d: number): number => {
    if (v === undefined) return d;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new ShellgateError('options', `option "${name}" must be a positive integer`);
    return v;
  };
  const dirs = o.commandSpecDirs ?? [];
  if (!Array.isArray(dirs) || dirs.some((d) => typeof d !== 'string'))
    throw new ShellgateError('options', 'option "commandSpecDirs" must be a list of folders');
  const ruleFiles = o.ruleFiles ?? [];
  if (!Array.isArray(ruleFiles) || ruleFiles.some((d) => typeof d !== 'string'))
    throw new ShellgateError('options', 'option "ruleFiles" must be a list of files');
  return {
    chaining,
    maxInputLength: positive('maxInputLength', o.maxInputLength, 4 * 1024 * 1024),
    maxScriptDepth: positive('maxScriptDepth', o.maxScriptDepth, 8),
    maxFunctionWalks: positive('maxFunctionWalks', o.maxFunctionWalks, 64),
    maxWalkSteps: positive('maxWalkSteps', o.maxWalkSteps, DEFAULT_WALK_STEPS),
    maxFindings: positive('maxFindings', o.maxFindings, 1000),
    commandSpecDirs: dirs,
    followSource: o.followSource ?? true,
    ruleFiles,
    trustedInstallers: trustedInstallersOption(o.trustedInstallers),
    cacheSize: o.cacheSize === 0 ? 0 : positive('cacheSize', o.cacheSize, 10_000),
    cacheTtlMs: ttlOption(o.cacheTtlMs),
    parser: parserOption(o.parser),
    shell: shellOption('option "shell"', o.shell) ?? 'bash',
  };
}

function shellOption(what: string, v: unknown): ShellDialect | null {
  if (v === undefined) return null;
  if (isShellDialect(v)) return v;
  throw new ShellgateError('options', `${what} must be ${SHELL_DIALECTS.map((d) => `"${d}"`).join(', ')}, not ${JSON.stringify(v)}`);
}

/** Checked here so a bad entry fails naming it; the analyser parses the list again into its guard settings. */
function trustedInstallersOption(t: unknown): string[] {
  if (t === undefined) return [];
  if (!Array.isArray(t)) throw new ShellgateError('options', 'option "trustedInstallers" must be a list of URL prefixes such as "https://sh.rustup.rs"');
  TrustedInstallers.from(t, (entry, i, problem) => {
    throw new ShellgateError('options', `option "trustedInstallers"[${i}] ${JSON.stringify(entry)} ${problem}`);
  });
  return t as string[];
}

function ttlOption(t: unknown): number {
  if (t === undefined) return 1000;
  if (typeof t !== 'number' || Number.isNaN(t) || t <= 0)
    throw new ShellgateError('options', 'option "cacheTtlMs" must be a positive number of milliseconds (or Infinity)');
  return t;
}

function parserOption(p: unknown): ParserChoice {
  if (p === undefined || p === 'bash') return 'bash';
  if (p === 'consensus' || p === 'tree-sitter') return p;
  throw new ShellgateError('options', `option "parser" must be "bash", "consensus" or "tree-sitter", not ${JSON.stringify(p)}`);
}

/** Every field checked and set; `shell` falls back to the analyser's option. */
export function checkContext(c: AnalysisContext, defaultShell: ShellDialect = 'bash'): Required<AnalysisContext> {
  if (typeof c !== 'object' || c === null) throw new ShellgateError('options', 'context must be an object');
  for (const k of Object.keys(c))
    if (!CONTEXT_KEYS.has(k)) throw new ShellgateError('options', `unknown context field "${k}" (known: ${[...CONTEXT_KEYS].join(', ')})`);
  const abs = (name: string, v: unknown): string => {
    if (typeof v !== 'string' || !v.startsWith('/'))
      throw new ShellgateError('options', `context "${name}" must be an absolute path, got ${JSON.stringify(v)}`);
    return posix.normalize(v);
  };
  const cwd = abs('cwd', c.cwd ?? process.cwd());
  const roots = c.workspaceRoots ?? [cwd];
  if (!Array.isArray(roots)) throw new ShellgateError('options', 'context "workspaceRoots" must be a list of absolute paths');
  const env = c.env ?? {};
  if (typeof env !== 'object' || env === null) throw new ShellgateError('options', 'context "env" must be an object of strings');
  const shell = shellOption('context "shell"', c.shell) ?? defaultShell;
  return { cwd, workspaceRoots: roots.map((r, i) => abs(`workspaceRoots[${i}]`, r)), home: abs('home', c.home ?? homedir()), env, shell };
}

export interface CheckedContext {
  ctx: Required<AnalysisContext>;
  /** Cache key prefix for this context (env is keyed separately). */
  prefix: string;
  /** The fields it was made from, compared by identity on the next call. */
  from: AnalysisContext;
  /** A copy of workspaceRoots, so a list changed in place is noticed. */
  roots: string[] | undefined;
  /** process.cwd() when the context names no cwd. */
  processCwd: string | null;
}

export const NO_CONTEXT: AnalysisContext = Object.freeze({});

export function sameRoots(m: CheckedContext, roots: readonly string[] | undefined): boolean {
  if (m.from.workspaceRoots !== roots) return false;
  if (roots === undefined || m.roots === undefined) return roots === m.roots;
  if (roots.length !== m.roots.length) return false;
  for (let i = 0; i < roots.length; i++) if (roots[i] !== m.roots[i]) return false;
  return true;
}
