/**
 * `shellgate init AGENT [--write] [--file FILE] [--command CMD]`: the configuration that registers
 * shellgate as AGENT's pre-tool hook. Without --write it is printed; with --write it is merged into
 * the agent's settings file (other settings and hooks kept), after a backup of the old file, and
 * written atomically. The default hook command names this node and this shellgate by absolute path:
 * a hook command the agent cannot start is, for most agents, a non-blocking error that lets the
 * tool run.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AGENTS, isAgentId } from '../agents/registry.js';
import { AGENT_IDS, type AgentProfile } from '../agents/types.js';
import { shellQuote } from '../walk/parallel-jobs.js';
import { UsageError } from './args.js';

export const INIT_USAGE = `usage: shellgate init AGENT [--write] [--file FILE] [--command CMD]

Print the configuration that makes AGENT (${AGENT_IDS.join(', ')}) call shellgate before each tool.
  --write        merge it into the agent's settings file (a backup of the old file is kept)
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

export function runInit(argv: string[], cwd = process.cwd(), home = homedir()): InitResult & { notes: string[] } {
  const [id, ...rest] = argv;
  if (id === undefined || !isAgentId(id)) throw new UsageError(`init needs an agent: ${AGENT_IDS.join(', ')}${id !== undefined ? ` (not "${id}")` : ''}`);
  const agent = AGENTS[id];
  if (!agent) throw new UsageError(`no hook for ${id} yet`);
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { write: { type: 'boolean' }, file: { type: 'string' }, command: { type: 'string' } },
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
  if (spec.syntax !== 'json') {
    if (values.write) throw new UsageError(`${file} is ${spec.syntax.toUpperCase()}: add the lines printed without --write by hand`);
    return { file, text: JSON.stringify(snippet, null, 2), notes };
  }
  if (!values.write) return { file, text: JSON.stringify(snippet, null, 2), notes };

  let existing: unknown = undefined;
  if (existsSync(file)) {
    try {
      existing = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new UsageError(`${file} is not valid JSON (${(e as Error).message}); fix it first — nothing was written`);
    }
    if (!isObject(existing)) throw new UsageError(`${file} does not hold a JSON object; nothing was written`);
  }
  const { value, conflicts } = mergeSettings(existing, snippet);
  const text = JSON.stringify(value, null, 2) + '\n';
  if (existing !== undefined && JSON.stringify(existing) === JSON.stringify(value))
    return { file, text, backup: null, changed: false, notes: [...conflicts, ...notes] };
  let backup: string | null = null;
  if (existing !== undefined) {
    backup = `${file}.shellgate-backup-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    copyFileSync(file, backup);
  }
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.shellgate-tmp-${process.pid}`;
  // The file keeps its permissions (a project's settings are shared; a user's may be private).
  writeFileSync(tmp, text, { mode: existing !== undefined ? statSync(file).mode & 0o777 : 0o644 });
  renameSync(tmp, file);
  return { file, text, backup, changed: true, notes: [...conflicts, ...notes] };
}
