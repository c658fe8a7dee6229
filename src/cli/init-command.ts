/**
 * `shellgate init AGENT [--write] [--force] [--file FILE] [--command CMD]`: the configuration that
 * registers shellgate as AGENT's pre-tool hook. Without --write it is printed; with --write it is
 * merged into the agent's settings file (other settings and hooks kept, comments too where the
 * agent's files allow them), after a backup of the old file, and written atomically through a
 * symbolic link to its target. The default hook command names this node and this shellgate by
 * absolute path: a hook command the agent cannot start is, for most agents, a non-blocking error
 * that lets the tool run. A setting that switches the agent's hooks off (Claude Code's
 * `disableAllHooks`, Gemini CLI's `hooksConfig.enabled: false`…) would leave the hook registered
 * and never run: --write refuses until it is resolved, or writes with a warning under --force.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AGENTS, isAgentId } from '../agents/registry.js';
import { AGENT_IDS, type AgentProfile } from '../agents/types.js';
import { shellQuote } from '../walk/parallel-jobs.js';
import { parseJsonc } from '../agents/jsonc.js';
import { ShellgateError } from '../errors.js';
import { UsageError } from './args.js';
import { editedText, writeAtomically, writeTarget } from './settings-file-write.js';

export const INIT_USAGE = `usage: shellgate init AGENT [--write] [--force] [--file FILE] [--command CMD]

Print the configuration that makes AGENT (${AGENT_IDS.join(', ')}) call shellgate before each tool.
  --write        merge it into the agent's settings file (a backup of the old file is kept)
  --force        write even where a setting switches the agent's hooks off (it is reported)
  --file FILE    the settings file to use instead of the agent's project file
  --command CMD  the hook command (default: this node and this shellgate, by absolute path)`;

export interface InitResult {
  file: string;
  text: string;
  /** Set with --write. */
  backup?: string | null;
  changed?: boolean;
}

function defaultCommand(agent: AgentProfile): string {
  let script = process.argv[1] ?? 'shellgate';
  try {
    script = realpathSync(script);
  } catch {
    // keep as given
  }
  return [process.execPath, script, 'hook', agent.id].map((w) => shellQuote(w)).join(' ');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Objects merge key by key; lists gain the entries they do not already hold; other values are kept, never replaced. */
export function mergeSettings(existing: unknown, add: unknown, path = ''): { value: unknown; conflicts: string[] } {
  if (existing === undefined) return { value: add, conflicts: [] };
  if (isObject(existing) && isObject(add)) {
    const out: Record<string, unknown> = { ...existing };
    const conflicts: string[] = [];
    for (const [k, v] of Object.entries(add)) {
      const r = mergeSettings(existing[k], v, `${path}/${k}`);
      out[k] = r.value;
      conflicts.push(...r.conflicts);
    }
    return { value: out, conflicts };
  }
  if (Array.isArray(existing) && Array.isArray(add)) {
    const out = [...existing];
    for (const item of add) if (!out.some((x) => JSON.stringify(x) === JSON.stringify(item))) out.push(item);
    return { value: out, conflicts: [] };
  }
  if (JSON.stringify(existing) === JSON.stringify(add)) return { value: existing, conflicts: [] };
  return {
    value: existing,
    conflicts: [`${path || '/'} is already set to ${JSON.stringify(existing)} (shellgate would set ${JSON.stringify(add)}): left as it is`],
  };
}

/** Where an agent's configuration file is: `~/` is the home folder, anything else is read from cwd. */
function agentFile(file: string, cwd: string, home: string): string {
  return file.startsWith('~/') ? join(home, file.slice(2)) : resolve(cwd, file);
}

/** A settings file's value: JSON, or JSON with comments for agents that read them (`jsonc`). */
function parseSettings(text: string, syntax: AgentProfile['init']['syntax']): unknown {
  return syntax === 'jsonc' ? parseJsonc(text) : JSON.parse(text);
}

/**
 * What keeps the hook from running once registered: a setting in the file being written (as it
 * will be) or in another file the agent reads that wins over it. Files that cannot be read say
 * nothing here (the agent reports them itself).
 */
function hooksOff(agent: AgentProfile, file: string, merged: unknown, cwd: string, home: string): string[] {
  const off = agent.init.hooksOff;
  if (!off) return [];
  const found: string[] = [];
  if (isObject(merged)) found.push(...off.check(merged).map((what) => `${file}: ${what}`));
  for (const f of off.files) {
    const path = agentFile(f, cwd, home);
    if (path === file || !existsSync(path)) continue;
    try {
      const value = parseJsonc(readFileSync(path, 'utf8'));
      if (isObject(value)) found.push(...off.check(value).map((what) => `${path}: ${what}`));
    } catch {
      // unreadable: not ours to judge
    }
  }
  return found;
}

export function runInit(argv: string[], cwd = process.cwd(), home = homedir()): InitResult & { notes: string[] } {
  const [id, ...rest] = argv;
  if (id === undefined || !isAgentId(id)) throw new UsageError(`init needs an agent: ${AGENT_IDS.join(', ')}${id !== undefined ? ` (not "${id}")` : ''}`);
  const agent = AGENTS[id];
  if (!agent) throw new UsageError(`no hook for ${id} yet`);
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { write: { type: 'boolean' }, force: { type: 'boolean' }, file: { type: 'string' }, command: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const spec = agent.init;
  const file = values.file !== undefined ? resolve(cwd, values.file) : agentFile(spec.file, cwd, home);
  const snippet = spec.snippet(values.command ?? defaultCommand(agent));
  const notes = [...agent.hook.limits];
  if (spec.syntax === 'toml') {
    if (values.write) throw new UsageError(`${file} is ${spec.syntax.toUpperCase()}: add the lines printed without --write by hand`);
    return { file, text: JSON.stringify(snippet, null, 2), notes };
  }
  if (!values.write) {
    // Every file that could switch the hook off, the one to edit included.
    const off = hooksOff(agent, '', undefined, cwd, home);
    return { file, text: JSON.stringify(snippet, null, 2), notes: [...off.map((o) => `warning: ${o}`), ...notes] };
  }

  // Through a link to the file it names: the link stays, its target is updated.
  const target = writeTarget(file);
  let existing: unknown = undefined;
  let before = '';
  if (existsSync(target)) {
    before = readFileSync(target, 'utf8');
    try {
      existing = parseSettings(before, spec.syntax);
    } catch (e) {
      const what = spec.syntax === 'jsonc' ? 'valid JSON (comments allowed)' : 'valid JSON';
      throw new UsageError(`${file} is not ${what} (${(e as Error).message}); fix it first — nothing was written`);
    }
    if (!isObject(existing)) throw new UsageError(`${file} does not hold a JSON object; nothing was written`);
  }
  const { value, conflicts } = mergeSettings(existing, snippet);
  const off = hooksOff(agent, file, value, cwd, home);
  if (off.length > 0 && !values.force)
    throw new ShellgateError(
      'config',
      `the hook would be registered but never run:\n  ${off.join('\n  ')}\nResolve it (or pass --force to write anyway); nothing was written`,
    );
  const warnings = off.map((o) => `warning: the hook will not run until this is resolved: ${o}`);
  const text = existing === undefined ? JSON.stringify(value, null, 2) + '\n' : editedText(before, existing, snippet);
  if (existing !== undefined && text === before) return { file, text, backup: null, changed: false, notes: [...warnings, ...conflicts, ...notes] };
  // The edited text must mean exactly the merged value, or nothing is written.
  if (!sameValue(parseSettings(text, spec.syntax), value))
    throw new ShellgateError('internal', `${file}: the merged settings could not be written as edits to the file; nothing was written`);
  let backup: string | null = null;
  if (existing !== undefined) {
    backup = `${file}.shellgate-backup-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    copyFileSync(target, backup);
  }
  mkdirSync(dirname(target), { recursive: true });
  // The file keeps its permissions (a project's settings are shared; a user's may be private).
  writeAtomically(target, text);
  return { file, text, backup, changed: true, notes: [...warnings, ...conflicts, ...notes] };
}

/** The same JSON value, whatever the order of object keys. */
function sameValue(a: unknown, b: unknown): boolean {
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue(a[k], b[k]));
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  return a === b;
}
