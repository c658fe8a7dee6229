/**
 * The flags every command that decides shares (`--config --preset --mode --workspace
 * --no-agent-settings --audit-log`): one option table for node:util parseArgs, one validation.
 */
import type { ShellDialect } from '../syntax/dialects.js';
import { checkShell } from './args.js';
import { resolve } from 'node:path';
import { MODES, type Mode } from '../policy/modes.js';
import { PRESETS, type PresetName } from '../policy/presets.js';
import { UsageError } from './args.js';

export const POLICY_OPTIONS = {
  config: { type: 'string' },
  preset: { type: 'string', multiple: true },
  mode: { type: 'string' },
  workspace: { type: 'string', multiple: true },
  'no-agent-settings': { type: 'boolean' },
  'audit-log': { type: 'string' },
  'ask-as-deny': { type: 'boolean' },
  shell: { type: 'string' },
} as const;

export interface PolicyFlags {
  config: string | null;
  presets: PresetName[];
  mode: Mode | null;
  workspaces: string[];
  agentSettings: boolean;
  auditLog: string | null;
  /** Answer ask with deny (saying approval is needed): for agents or versions that cannot ask. */
  askAsDeny: boolean;
  /** The shell the agent runs commands in (`--shell`); null: the settings', else the agent's own. */
  shell: ShellDialect | null;
}

/** A mode name, or a usage error listing the known ones. */
export function checkMode(mode: string | null | undefined): Mode | null {
  if (mode === null || mode === undefined) return null;
  if (!(MODES as readonly string[]).includes(mode)) throw new UsageError(`unknown --mode "${mode}" (known: ${MODES.join(', ')})`);
  return mode as Mode;
}

/** Preset names, or a usage error listing the known ones. */
export function checkPresets(presets: readonly string[]): PresetName[] {
  for (const p of presets)
    if (!Object.prototype.hasOwnProperty.call(PRESETS, p)) throw new UsageError(`unknown --preset "${p}" (known: ${Object.keys(PRESETS).join(', ')})`);
  return presets as PresetName[];
}

export function readPolicyFlags(values: {
  config?: string;
  preset?: string[];
  mode?: string;
  workspace?: string[];
  'no-agent-settings'?: boolean;
  'audit-log'?: string;
  'ask-as-deny'?: boolean;
  shell?: string;
}): PolicyFlags {
  return {
    config: values.config ?? null,
    presets: checkPresets(values.preset ?? []),
    mode: checkMode(values.mode),
    workspaces: (values.workspace ?? []).map((w) => resolve(w)),
    agentSettings: values['no-agent-settings'] !== true,
    auditLog: values['audit-log'] ?? null,
    shell: values.shell === undefined ? null : checkShell(values.shell),
    askAsDeny: values['ask-as-deny'] === true,
  };
}
