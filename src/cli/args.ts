/** Command-line parsing for `shellgate`: small and strict; a bad flag is a usage error (exit 64). */
import { isShellDialect, SHELL_DIALECTS, type ShellDialect } from '../syntax/dialects.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface CheckArgs {
  json: boolean;
  nul: boolean;
  cwd: string | null;
  workspaces: string[];
  mode: string | null;
  channel: string | null;
  /** The shell that runs the command (bash, zsh, sh, auto); null: the settings' or bash. */
  shell: ShellDialect | null;
  config: string | null;
  settings: string[];
  presets: string[];
  tool: string | null;
  toolArgs: Record<string, string>;
  classifierUrl: string | null;
  classifierModel: string | null;
  classifierFastModel: string | null;
  classifierKeyEnv: string | null;
  jobs: number;
  /** Append one audit record per decision to this file (agent `cli`). */
  auditLog: string | null;
  command: string | null;
  color: 'auto' | 'always' | 'never';
}

const VALUE_FLAGS = new Set([
  '--cwd',
  '--workspace',
  '--mode',
  '--shell',
  '--config',
  '--color',
  '--channel',
  '--settings',
  '--preset',
  '--tool',
  '--arg',
  '--classifier-url',
  '--classifier-model',
  '--classifier-fast-model',
  '--classifier-key-env',
  '--jobs',
  '--audit-log',
]);

export function parseCheckArgs(argv: string[]): CheckArgs {
  const out: CheckArgs = {
    json: false,
    nul: false,
    cwd: null,
    workspaces: [],
    mode: null,
    channel: null,
    shell: null,
    config: null,
    settings: [],
    presets: [],
    tool: null,
    toolArgs: {},
    command: null,
    color: 'auto',
    classifierUrl: null,
    classifierModel: null,
    classifierFastModel: null,
    classifierKeyEnv: null,
    jobs: 1,
    auditLog: null,
  };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    let value: string | undefined;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) {
      value = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    if (VALUE_FLAGS.has(a)) {
      if (value === undefined) {
        if (i + 1 >= argv.length) throw new UsageError(`${a} needs a value`);
        value = argv[++i];
      }
      if (a === '--cwd') out.cwd = value;
      else if (a === '--workspace') out.workspaces.push(value);
      else if (a === '--mode') out.mode = value;
      else if (a === '--shell') out.shell = checkShell(value);
      else if (a === '--config') out.config = value;
      else if (a === '--channel') out.channel = value;
      else if (a === '--settings') out.settings.push(value);
      else if (a === '--preset') out.presets.push(value);
      else if (a === '--tool') out.tool = value;
      else if (a === '--jobs') {
        if (!/^[1-9][0-9]*$/.test(value)) throw new UsageError('--jobs takes a positive number');
        out.jobs = Number(value);
      } else if (a === '--classifier-url') out.classifierUrl = value;
      else if (a === '--classifier-model') out.classifierModel = value;
      else if (a === '--classifier-fast-model') out.classifierFastModel = value;
      else if (a === '--classifier-key-env') out.classifierKeyEnv = value;
      else if (a === '--audit-log') out.auditLog = value;
      else if (a === '--arg') {
        const eq = value.indexOf('=');
        if (eq <= 0) throw new UsageError(`--arg takes NAME=VALUE, not ${JSON.stringify(value)}`);
        out.toolArgs[value.slice(0, eq)] = value.slice(eq + 1);
      } else if (a === '--color') {
        if (value !== 'auto' && value !== 'always' && value !== 'never') throw new UsageError('--color must be auto, always or never');
        out.color = value;
      }
      continue;
    }
    if (value !== undefined) throw new UsageError(`${a} takes no value`);
    if (a === '--json') out.json = true;
    else if (a === '--null' || a === '-0') out.nul = true;
    else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
    else positional.push(a);
  }
  if (positional.length > 0) out.command = positional.join(' ');
  return out;
}

/** `--shell`'s value, or a usage error naming the choices. */
export function checkShell(value: string): ShellDialect {
  if (isShellDialect(value)) return value;
  throw new UsageError(`--shell must be ${SHELL_DIALECTS.join(', ')}, not ${JSON.stringify(value)}`);
}
