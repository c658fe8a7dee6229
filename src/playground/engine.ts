/**
 * What the playground page calls: the same gate and analyser as the CLI, over the in-memory file
 * system the page describes. Each decision says which paths it looked at on that (empty) disk, so
 * the page can tell the user where a real machine's files could change the verdict.
 */
import type { ShellDialect } from '../syntax/dialects.js';
import { createGate, type Decision, type Gate } from '../policy/gate.js';
import type { Mode } from '../policy/modes.js';
import type { PresetName } from '../policy/presets.js';
import type { SettingsFormat } from '../policy/settings.js';
import { parseBash } from '../syntax/parser/index.js';
import type { ParseResult } from '../syntax/parse-result.js';
import { clearUnder, declare, remove, takeQueries } from './shims/fs.js';
import { setHome } from './shims/os.js';

/** Where the page's settings text lives in the in-memory file system. */
const SETTINGS_FILE = '/playground/settings.json';

export interface PlaygroundInput {
  command: string;
  mode?: Mode;
  /** The shell that runs the command (default bash). */
  shell?: ShellDialect;
  channel?: string;
  presets?: PresetName[];
  /** Absolute workspace root (default /home/user/project). */
  workspace?: string;
  /** Absolute home directory (default /home/user). */
  home?: string;
  /** Settings text (shellgate or Claude Code JSON), or empty. */
  settings?: string;
  settingsFormat?: SettingsFormat;
  /**
   * What else the page's disk holds, a line each: `dir PATH`, `file PATH`, `link PATH -> TARGET`.
   * Nothing else exists: no symlink unless declared here.
   */
  files?: string;
}

export interface PlaygroundResult {
  decision: Decision | null;
  /** A settings error, with where it is when the message says. */
  settingsError: string | null;
  /** Paths outside shellgate's own data the analysis looked at: on a real machine they may exist. */
  diskQueries: string[];
  /** Milliseconds the decision took. */
  ms: number;
  /** shellgate's parse of the command (its own parser: the tree the walker reads). */
  parse: ParseResult | null;
  /** Lines of `files` that could not be read, with their line numbers. */
  fileErrors: string[];
}

/** Entries the previous call declared from `files`, removed before the next call declares its own. */
let declared: string[] = [];

function declareFiles(text: string): string[] {
  for (const p of declared) remove(p);
  declared = [];
  const errors: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const m = /^(dir|file|link)\s+(\/\S*)(?:\s*->\s*(\S+))?$/.exec(line);
    if (!m || (m[1] === 'link') !== (m[3] !== undefined)) {
      errors.push(`line ${i + 1}: expected "dir /path", "file /path" or "link /path -> target", not ${JSON.stringify(line)}`);
      return;
    }
    declare(m[2]!, m[1] === 'link' ? { kind: 'symlink', target: m[3]! } : { kind: m[1] as 'dir' | 'file', text: '' });
    declared.push(m[2]!);
  });
  return errors;
}

let cached: { key: string; gate: Gate } | null = null;

async function gateFor(input: PlaygroundInput): Promise<Gate> {
  const key = JSON.stringify([input.settings ?? '', input.settingsFormat ?? 'shellgate', input.presets ?? []]);
  if (cached?.key === key) return cached.gate;
  clearUnder('/playground');
  const hasSettings = (input.settings ?? '').trim() !== '';
  if (hasSettings) declare(SETTINGS_FILE, { kind: 'file', text: input.settings! });
  const gate = await createGate({
    // An agent's settings pasted here are read as the user's own: as a repository's file they
    // would only narrow (policy/settings.ts), and the page is for trying one's rules.
    settings: hasSettings
      ? [
          {
            source: (input.settingsFormat ?? 'shellgate') === 'shellgate' ? 'project' : 'user',
            file: SETTINGS_FILE,
            format: input.settingsFormat ?? 'shellgate',
          },
        ]
      : [],
    presets: input.presets ?? [],
    // The page's disk changes between calls (declared files, another workspace): nothing read
    // from it, and no verdict, is kept from one call to the next.
    analyzer: { cacheSize: 0 },
  });
  cached = { key, gate };
  return gate;
}

export async function decide(input: PlaygroundInput): Promise<PlaygroundResult> {
  const home = input.home ?? '/home/user';
  const workspace = input.workspace ?? `${home}/project`;
  setHome(home);
  declare(home, { kind: 'dir' });
  declare(workspace, { kind: 'dir' });
  let gate: Gate;
  try {
    gate = await gateFor(input);
  } catch (e) {
    return { decision: null, settingsError: e instanceof Error ? e.message : String(e), diskQueries: [], ms: 0, parse: null, fileErrors: [] };
  }
  const fileErrors = declareFiles(input.files ?? '');
  takeQueries();
  const start = performance.now();
  const decision = gate.evaluate(
    { tool: 'shell', args: { command: input.command } },
    {
      cwd: workspace,
      workspaceRoots: [workspace],
      home,
      env: { HOME: home, USER: home.split('/').pop() ?? 'user' },
      ...(input.mode ? { mode: input.mode } : {}),
      ...(input.shell ? { shell: input.shell } : {}),
      ...(input.channel ? { channel: input.channel } : {}),
    },
  );
  const ms = performance.now() - start;
  return {
    decision,
    settingsError: null,
    diskQueries: takeQueries().filter((p) => p !== workspace && p !== home),
    ms,
    parse: parseBash(input.command),
    fileErrors,
  };
}
