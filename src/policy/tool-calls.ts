/**
 * Tool calls and their parts. A shell call's parts are its sub-commands and their operations; a
 * file tool's part is its path; web_fetch's is the host; an MCP or unknown tool is one part. The
 * same rules (Read/Edit/Write/WebFetch) apply to a part whichever tool produced it.
 */
import { posix } from 'node:path';
import type { Finding, Level, Verdict } from '../verdict/types.js';
import { stricter } from '../verdict/types.js';
import type { Operation } from '../ops/types.js';
import type { PathClassifier } from '../paths/classify.js';
import { hostOf } from '../ops/operations.js';
import { ShellgateError } from '../errors.js';
import type { RuleTool } from './rule-syntax.js';

export interface ToolCall {
  /** `shell`, `read_file`, `write_file`, `edit`, `list_directory`, `grep`, `glob`, `web_fetch`, `mcp__server__tool`… */
  tool: string;
  args?: Record<string, unknown>;
}

export type ToolFamily = 'shell' | 'read' | 'write' | 'edit' | 'web' | 'mcp' | 'other';

const FAMILIES: Record<string, ToolFamily> = {
  shell: 'shell',
  bash: 'shell',
  Bash: 'shell',
  run_shell_command: 'shell',
  read_file: 'read',
  Read: 'read',
  read_many_files: 'read',
  list_directory: 'read',
  LS: 'read',
  grep: 'read',
  Grep: 'read',
  grep_search: 'read',
  search_file_content: 'read',
  glob: 'read',
  Glob: 'read',
  write_file: 'write',
  Write: 'write',
  edit: 'edit',
  Edit: 'edit',
  replace: 'edit',
  MultiEdit: 'edit',
  web_fetch: 'web',
  WebFetch: 'web',
};

export function familyOf(tool: string): ToolFamily {
  if (Object.prototype.hasOwnProperty.call(FAMILIES, tool)) return FAMILIES[tool];
  return tool.startsWith('mcp__') ? 'mcp' : 'other';
}

/** Rule tools that speak about a family's parts. Edit rules cover every tool that writes files. */
export function ruleToolsFor(family: ToolFamily, toolName: string): RuleTool[] {
  switch (family) {
    case 'shell':
      return ['Bash'];
    case 'read':
      return ['Read'];
    case 'write':
    case 'edit':
      return ['Edit', 'Write'];
    case 'web':
      return ['WebFetch'];
    default:
      return [toolName as RuleTool];
  }
}

export interface Part {
  kind: 'command' | 'operation' | 'call';
  label: string;
  /** Rule tools this part answers to. */
  tools: RuleTool[];
  argv?: string[];
  path?: string;
  host?: string;
  toolName?: string;
  /** Sub-command this part belongs to (operations of a shell command). */
  command?: number;
  /** Findings the tool default attached to this part. */
  findings: Finding[];
  /** Path outside the workspace roots, temp dirs and additional directories. */
  external: boolean;
  /** Changes something (for plan mode). */
  mutating: boolean;
}

const MUTATING_OPS = new Set(['Write', 'Delete', 'Exec', 'Privilege', 'Process', 'System', 'Unknown']);

export function argOf(call: ToolCall, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = call.args?.[n];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

function opTools(op: Operation): RuleTool[] {
  if (op.kind === 'Read' || op.kind === 'List') return ['Read'];
  if (op.kind === 'Write' || op.kind === 'Delete') return ['Edit', 'Write'];
  if (op.kind === 'Network') return ['WebFetch'];
  return [];
}

/** Parts of a shell call from the analyser's verdict. */
export function shellParts(v: Verdict, isExternal: (p: string) => boolean): { parts: Part[]; global: Finding[] } {
  const parts: Part[] = v.commands.map((c) => ({
    kind: 'command' as const,
    label: [c.program ?? c.programRaw, ...c.args.map((a) => a.value)].join(' ').trim() || '(redirects)',
    tools: ['Bash'],
    argv: [c.program ?? c.programRaw, ...c.args.map((a) => a.value)],
    command: c.id,
    findings: v.findings.filter((f) => f.command === c.id && f.operation === undefined),
    external: false,
    mutating: v.operations.some((o) => o.command === c.id && MUTATING_OPS.has(o.kind)),
  }));
  v.operations.forEach((op, i) => {
    const tools = opTools(op);
    if (tools.length === 0 || (op.path === undefined && op.host === undefined)) return;
    parts.push({
      kind: 'operation',
      label: `${op.kind} ${op.path ?? op.host}`,
      tools,
      path: op.path,
      host: op.host,
      command: op.command,
      findings: v.findings.filter((f) => f.operation === i),
      external: op.path !== undefined && op.host === undefined && !op.glob ? isExternal(op.path) : op.path !== undefined && isExternal(posix.dirname(op.path)),
      mutating: MUTATING_OPS.has(op.kind),
    });
  });
  // Findings about an operation that has no part of its own stay with their command.
  const owned = new Set(parts.flatMap((p) => p.findings));
  const global: Finding[] = [];
  for (const f of v.findings) {
    if (owned.has(f)) continue;
    const part = f.command !== undefined ? parts.find((p) => p.kind === 'command' && p.command === f.command) : undefined;
    if (part) part.findings.push(f);
    else global.push(f);
  }
  return { parts, global };
}

export interface FileToolEnv {
  classifier: PathClassifier;
  cwd: string;
  isExternal: (p: string) => boolean;
}

function finding(rule: string, category: string, level: Level, message: string): Finding {
  return { rule, category, level, message, span: { start: 0, end: 0 } };
}

/** The single part of a non-shell call, with the findings of its tool default. */
export function toolPart(call: ToolCall, family: ToolFamily, env: FileToolEnv): Part {
  if (family === 'read' || family === 'write' || family === 'edit') {
    const raw = argOf(call, 'path', 'file_path', 'absolute_path', 'dir_path', 'directory', 'filePath') ?? (family === 'read' ? '.' : undefined);
    if (raw === undefined) throw new ShellgateError('input', `${call.tool} needs a "path" argument`);
    const path = posix.resolve(env.cwd, raw);
    const classes = env.classifier.classify(path, /[*?[]/.test(raw));
    const external = env.isExternal(path);
    const findings: Finding[] = [];
    if (family !== 'read') findings.push(finding('write', 'write', 'ask', `${call.tool} writes ${path}`));
    if (external) findings.push(finding('outside-workspace', 'outside-workspace', 'ask', `reaches outside the workspace: ${path}`));
    if (classes.includes('sensitive')) findings.push(finding('sensitive-path', 'sensitive', 'ask', `touches a sensitive file (credentials, keys, shell or agent settings): ${path}`));
    // The same class and finding as a shell write to the file: edit modes do not approve it.
    if (family !== 'read' && classes.includes('exec-config')) findings.push(finding('exec-config', 'exec', 'ask', `${call.tool} writes ${path}, a file that changes what later commands run when they load it (git config and hooks, tool settings); edit modes do not approve it`));
    return { kind: 'call', label: `${call.tool} ${path}`, tools: ruleToolsFor(family, call.tool), path, findings, external, mutating: family !== 'read' };
  }
  if (family === 'web') {
    const url = argOf(call, 'url', 'prompt_url');
    if (url === undefined) throw new ShellgateError('input', `${call.tool} needs a "url" argument`);
    const host = hostOf(url) ?? url;
    return { kind: 'call', label: `${call.tool} ${host}`, tools: ['WebFetch'], host, findings: [finding('network', 'network', 'ask', `fetches ${url}`)], external: false, mutating: false };
  }
  return {
    kind: 'call',
    label: call.tool,
    tools: [call.tool as RuleTool],
    toolName: call.tool,
    findings: [finding('unknown-tool', 'unknown', 'ask', `${call.tool} is a tool shellgate cannot see into; a person should decide`)],
    external: false,
    mutating: true,
  };
}

export function strictestOf(findings: Finding[]): Level {
  let l: Level = 'allow';
  for (const f of findings) l = stricter(l, f.level);
  return l;
}
