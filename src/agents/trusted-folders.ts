/**
 * Does the agent load a project's own settings in this folder? Gemini CLI and Qwen Code (its fork)
 * skip a workspace's `.gemini/settings.json` / `.qwen/settings.json` in a folder the user has not
 * trusted ("trusted folders"); shellgate imports a project's file only where the agent would.
 *
 * Read (not copied) in google-gemini/gemini-cli packages/core/src/utils/trust.ts, cli/src/config/
 * trustedFolders.ts and settings.ts (v0.10–v0.56), and QwenLM/qwen-code packages/cli/src/config/
 * trustedFolders.ts:
 * - the trust file (`~/.gemini/trustedFolders.json`, `~/.qwen/trustedFolders.json`) is a JSON
 *   object (comments allowed) from a folder path to TRUST_FOLDER, TRUST_PARENT (the folder above
 *   the path is trusted) or DO_NOT_TRUST;
 * - the check is on when `security.folderTrust.enabled` in the system-defaults, user or system
 *   settings says so (the project's own file is not consulted); default on in Gemini CLI since
 *   v0.28, off before and off in Qwen Code;
 * - Gemini CLI: `GEMINI_CLI_TRUST_WORKSPACE=true|false` decides outright (newer versions); the
 *   rule with the longest path holding the folder decides, both compared through links; Qwen
 *   Code: any trusting rule holding the folder trusts it, else an exact DO_NOT_TRUST distrusts;
 * - a folder no rule speaks for is untrusted; an unreadable trust file stops the agent.
 *
 * What the hook cannot see: an IDE companion's workspace trust (it overrides the file), the
 * agent's version (older Gemini CLI trusted every folder in headless runs), `--bare`-style flags.
 * Either way is sound: an imported project file can only narrow what shellgate decides
 * (policy/settings.ts), so a wrong guess here adds or drops the repository's own denies and asks,
 * never an allow. Where the answer cannot be read, the project's file is imported.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { AgentProfile, FolderTrustSpec } from './types.js';
import { parseJsonc } from './jsonc.js';

export interface TrustAnswer {
  /** The agent loads the project's settings in this folder. */
  load: boolean;
  /** Why, for explain and the tests. */
  why: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const LEVELS = new Set(['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST']);

/** Whether `agent` loads the project settings of `folder` (the folder holding `.gemini/`). */
export function projectSettingsLoaded(agent: AgentProfile, folder: string, home: string, env: Env): TrustAnswer {
  const spec = agent.folderTrust;
  if (!spec) return { load: true, why: `${agent.name} loads a project's settings in every folder` };
  if (spec.decideEnv) {
    const v = env[spec.decideEnv];
    if (v === 'true') return { load: true, why: `${spec.decideEnv}=true trusts every folder` };
    if (v === 'false') return { load: false, why: `${spec.decideEnv}=false trusts no folder` };
  }
  if (!trustCheckEnabled(agent, spec, home)) return { load: true, why: 'folder trust is off (security.folderTrust.enabled)' };
  const file = trustFile(spec, home, env);
  let rules: Record<string, unknown>;
  try {
    if (!existsSync(file)) return { load: false, why: `no trust file (${file}): the folder is not trusted` };
    const data = parseJsonc(readFileSync(file, 'utf8'));
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('not a JSON object');
    rules = data as Record<string, unknown>;
    if (spec.match === 'longest' && Object.values(rules).some((v) => typeof v !== 'string' || !LEVELS.has(v))) throw new Error('an unknown trust level');
  } catch (e) {
    // The agent refuses to start on such a file; importing the project's file only narrows.
    return { load: true, why: `${file} cannot be read (${(e as Error).message}): the project's settings are imported` };
  }
  const trusted = spec.match === 'longest' ? longestMatch(rules, folder) : trustFirst(rules, folder);
  if (trusted === undefined) return { load: false, why: `${file} names no folder holding ${folder}: it is not trusted` };
  return { load: trusted, why: `${file} ${trusted ? 'trusts' : 'does not trust'} ${folder}` };
}

function trustFile(spec: FolderTrustSpec, home: string, env: Env): string {
  const named = spec.fileEnv ? env[spec.fileEnv] : undefined;
  if (named) return named;
  const base = (spec.homeEnv ? env[spec.homeEnv] : undefined) || home;
  return spec.file.startsWith('~/') ? join(base, spec.file.slice(2)) : spec.file;
}

/**
 * `security.folderTrust.enabled` as the agent merges it from the settings other than the
 * project's (the profile lists them lowest first: system defaults, user, system). A file that
 * cannot be read says nothing here (the agent stops on it).
 */
function trustCheckEnabled(agent: AgentProfile, spec: FolderTrustSpec, home: string): boolean {
  let enabled = spec.enabledByDefault;
  for (const s of agent.settings) {
    if (s.source === 'project' || s.format === 'none' || !s.path.endsWith('.json')) continue;
    const file = s.path.startsWith('~/') ? join(home, s.path.slice(2)) : s.path;
    try {
      if (!existsSync(file)) continue;
      const v = (parseJsonc(readFileSync(file, 'utf8')) as { security?: { folderTrust?: { enabled?: unknown } } } | null)?.security?.folderTrust?.enabled;
      if (typeof v === 'boolean') enabled = v;
    } catch {
      // unreadable: the agent does not start with it
    }
  }
  return enabled;
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function within(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Gemini CLI: the rule with the longest path that holds the folder decides; links resolved on both sides. */
function longestMatch(rules: Record<string, unknown>, folder: string): boolean | undefined {
  const location = real(resolve(folder));
  let best = -1;
  let level: unknown;
  for (const [rulePath, lvl] of Object.entries(rules)) {
    const key = resolve(rulePath);
    const effective = real(lvl === 'TRUST_PARENT' ? dirname(key) : key);
    if (within(effective, location) && key.length > best) {
      best = key.length;
      level = lvl;
    }
  }
  if (level === 'DO_NOT_TRUST') return false;
  return level === 'TRUST_FOLDER' || level === 'TRUST_PARENT' ? true : undefined;
}

/** Qwen Code: any trusting rule that holds the folder trusts it; else an exact DO_NOT_TRUST distrusts. */
function trustFirst(rules: Record<string, unknown>, folder: string): boolean | undefined {
  // Qwen Code compares with its process.cwd(), the folder's physical path.
  const location = real(resolve(folder));
  const entries = Object.entries(rules);
  for (const [p, lvl] of entries) {
    if (lvl === 'TRUST_FOLDER' && within(resolve(p), location)) return true;
    if (lvl === 'TRUST_PARENT' && within(dirname(resolve(p)), location)) return true;
  }
  return entries.some(([p, lvl]) => lvl === 'DO_NOT_TRUST' && resolve(p) === location) ? false : undefined;
}
