/**
 * Tool calls and their parts. A shell call's parts are its sub-commands and their operations; a
 * file tool's part is its path; web_fetch's is the host; an MCP or unknown tool is one part. The
 * same rules (Read/Edit/Write/WebFetch) apply to a part whichever tool produced it.
 */
import { posix } from 'node:path';
import type { Finding, Level, Verdict } from '../verdict/types.js';
import { stricter } from '../verdict/types.js';
import { CORE_FINDINGS, type CoreFindingId, type FindingMeta } from '../findings/catalog.js';
import type { Operation } from '../ops/types.js';
import { writeChangesNothing, type PathClassifier } from '../paths/classify.js';
import { hostOf } from '../ops/operations.js';
import { applyPatchNames } from '../ops/patch-headers.js';
import type { RuleTool } from './rule-syntax.js';
import { landings, reachOf, type FormsEnv, type Landing } from './path-forms.js';
import { staticPrefix } from '../paths/resolve.js';
import { toolSpecOf } from '../agents/registry.js';
import type { AgentId, ToolFamily, ToolSpec } from '../agents/types.js';

export interface ToolCall {
  /** `shell`, `read_file`, `write_file`, `edit`, `grep`, `glob`, `web_fetch`, an agent's own tool name (`Bash`, `run_shell_command`…), `mcp__server__tool`… */
  tool: string;
  args?: Record<string, unknown>;
  /** The agent whose tool table names this tool (default: any agent's, then shellgate's generic names). */
  agent?: AgentId;
}

export type { ToolFamily };

export function familyOf(tool: string, agent?: AgentId): ToolFamily {
  const spec = toolSpecOf(tool, agent);
  if (spec) return spec.family;
  return tool.startsWith('mcp__') ? 'mcp' : 'other';
}

/** Rule tools that speak about a family's parts. Edit rules cover every tool that writes files. */
export function ruleToolsFor(family: ToolFamily): RuleTool[] {
  switch (family) {
    case 'shell':
      return ['Bash'];
    case 'read':
    case 'search':
      return ['Read'];
    case 'write':
    case 'edit':
    case 'patch':
      return ['Edit', 'Write'];
    case 'web':
      return ['WebFetch'];
    case 'web-search':
      return ['WebSearch'];
    default:
      return [];
  }
}

export interface Part {
  kind: 'command' | 'operation' | 'call';
  label: string;
  /** Rule tools this part answers to. */
  tools: RuleTool[];
  argv?: string[];
  /** The path as written, made absolute (a glob pattern when `glob`). */
  path?: string;
  /**
   * Where the kernel may land for `path`, each with its spellings (policy/path-forms.ts); null when
   * that cannot be known (a loop of links). A deny or ask rule holds when it matches the path as
   * written or any of these; an allow covers the part only when it covers every landing.
   */
  landings?: Landing[] | null;
  /** `path` is a glob pattern; `dotGlob`: its wildcards may match names that start with `.`. */
  glob?: boolean;
  dotGlob?: boolean;
  /**
   * The part walks everything below `path` (`grep -r`, a search tool's root): a deny or ask on any
   * path under it applies. `visible`: names starting with `.` below it are skipped.
   */
  walks?: 'all' | 'visible';
  /**
   * For a walk or a glob: the paths it reaches on the disk now (policy/path-forms.ts reachOf), read
   * when a rule first asks; null (or missing) when they cannot be known or something on the command
   * line may make new ones first: then a rule's pattern is compared with the part's instead.
   */
  below?: () => string[] | null;
  /** It lists names (a recursive listing, a glob tool), reading no file's content. */
  lists?: boolean;
  host?: string;
  /** The tool called (non-shell parts): rules that name a tool (`Grep`, `Agent(Explore)`) match it. */
  toolName?: string;
  /** What a tool rule's specifier is matched against (`subagent_type` of Agent, a skill's name). */
  subject?: string[];
  /** Options in this sub-command that an allow rule must name to cover (`-delete`, `--no-verify`). */
  guardedOptions?: string[];
  /** Sub-command this part belongs to (operations of a shell command). */
  command?: number;
  /** Findings the tool default attached to this part. */
  findings: Finding[];
  /** Path outside the workspace roots, temp dirs and additional directories. */
  external: boolean;
  /**
   * A write the program makes at every run, declared by its spec's `writes` (npm's logs, top's
   * settings folder): an allow rule for the command covers it, as running the program means it.
   */
  housekeeping?: boolean;
  /** Changes something (for plan mode). */
  mutating: boolean;
}

const MUTATING_OPS = new Set(['Write', 'Delete', 'Exec', 'Privilege', 'Process', 'System', 'Unknown']);

/** The operation changes something (plan mode denies it): a write to /dev/null or the command's own output does not. */
function mutates(op: Operation): boolean {
  if (!MUTATING_OPS.has(op.kind)) return false;
  return !(op.kind === 'Write' && op.path !== undefined && !op.glob && !op.dynamic && writeChangesNothing(op.path));
}

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

/**
 * An operation reaches outside the project: where its path lands (a link out of the workspace
 * leads out), or the folder of a glob or of a remote path. A landing that cannot be known is outside.
 */
function operationExternal(op: Operation, isExternal: (p: string) => boolean, where: Landing[] | null | undefined): boolean {
  // /dev/null, /dev/stdout, /dev/fd/N are this process's own streams, not a directory outside.
  if (op.classes?.includes('special-device')) return false;
  if (op.path === undefined) return false;
  if (op.host !== undefined) return isExternal(posix.dirname(op.path));
  if (where === null) return true;
  const paths = where === undefined ? [op.path] : where.map((l) => l[0]);
  return paths.some((p) => isExternal(op.glob ? posix.dirname(p) : p));
}

/** Where a local path operation lands on this disk (a remote one is on another machine's). */
function operationLandings(op: Operation, env: FormsEnv | undefined): Landing[] | null | undefined {
  if (env === undefined || op.path === undefined || op.host !== undefined || op.classes?.includes('special-device')) return undefined;
  return landings([op.path], env, { glob: op.glob, followLast: op.kind !== 'Delete' || op.target?.endsWith('/') === true });
}

/** Parts of a shell call from the analyser's verdict (`env`: to resolve their paths on disk). */
export function shellParts(v: Verdict, isExternal: (p: string) => boolean, env?: FormsEnv): { parts: Part[]; global: Finding[] } {
  const parts: Part[] = v.commands.map((c) => ({
    kind: 'command' as const,
    label: [c.program ?? c.programRaw, ...c.args.map((a) => a.value)].join(' ').trim() || '(redirects)',
    tools: ['Bash'],
    argv: [c.program ?? c.programRaw, ...c.args.map((a) => a.value)],
    command: c.id,
    guardedOptions: v.findings.filter((f) => f.command === c.id && f.rule === 'named-option' && f.subject !== undefined).map((f) => f.subject!),
    findings: v.findings.filter((f) => f.command === c.id && f.operation === undefined),
    external: false,
    mutating: v.operations.some((o) => o.command === c.id && mutates(o)),
  }));
  // What a walk reaches is read from the disk only when nothing on the line changes it first.
  const readOnly = !v.operations.some((o) => MUTATING_OPS.has(o.kind) || o.kind === 'Env');
  v.operations.forEach((op, i) => {
    const tools = opTools(op);
    if (tools.length === 0 || (op.path === undefined && op.host === undefined)) return;
    const where = operationLandings(op, env);
    const below =
      readOnly && env && where && (op.walks || op.glob)
        ? once(() => reachOf(where, env, { walks: op.walks, follows: op.followsLinks === true, glob: op.glob, dot: op.dotGlob })?.paths ?? null)
        : null;
    parts.push({
      kind: 'operation',
      label: `${op.kind} ${op.path ?? op.host}`,
      tools,
      path: op.path,
      ...(where !== undefined ? { landings: where } : {}),
      ...(op.glob ? { glob: true, ...(op.dotGlob ? { dotGlob: true } : {}) } : {}),
      ...(op.walks ? { walks: op.walks } : {}),
      ...(below ? { below } : {}),
      ...(op.kind === 'List' ? { lists: true } : {}),
      host: op.host,
      command: op.command,
      findings: v.findings.filter((f) => f.operation === i),
      external: operationExternal(op, isExternal, where),
      ...(op.origin && 'field' in op.origin && op.origin.field === 'writes' ? { housekeeping: true } : {}),
      mutating: mutates(op),
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
  home: string;
  isExternal: (p: string) => boolean;
}

/** A tool call's finding: category and level from the catalog, the message about this call. */
function finding(rule: CoreFindingId, message: string): Finding {
  const meta: FindingMeta = CORE_FINDINGS[rule];
  return { rule, category: meta.category, level: meta.level, message, span: { start: 0, end: 0 } };
}

/** The parts of a non-shell call, each with the findings of its tool default. */
export function toolParts(call: ToolCall, spec: ToolSpec | null, env: FileToolEnv): Part[] {
  const family = spec?.family ?? (call.tool.startsWith('mcp__') ? 'mcp' : 'other');
  const tools = ruleToolsFor(family);
  const base = { kind: 'call' as const, tools, toolName: call.tool, external: false, subject: subjectOf(call, spec) };
  const bad = spec ? badArguments(call, spec) : null;
  if (bad !== null) {
    // Never allow a call whose arguments shellgate cannot read: what it touches is unknown.
    return [
      { ...base, label: call.tool, findings: [finding('tool-arguments', `${call.tool}: ${bad}; what it would touch cannot be checked`)], mutating: true },
    ];
  }
  switch (family) {
    case 'read':
    case 'write':
    case 'edit':
    case 'patch': {
      const { targets, unsure } = family === 'patch' ? patchTargets(call, spec!) : { targets: pathTargets(call, spec!), unsure: [] };
      if (targets.length === 0) {
        if (family === 'read') targets.push({ raw: '.', deletes: false });
        else
          return [
            {
              ...base,
              label: call.tool,
              findings: [finding('tool-arguments', `${call.tool}: no file named in its arguments; what it would change cannot be checked`)],
              mutating: true,
            },
          ];
      }
      const parts = targets.map((t) => filePart(call, family, t.raw, t.deletes, base, env));
      // A line some applier may read as a header in a way shellgate cannot be sure of: a person
      // decides. First, so that the reason the agent reads names it.
      if (unsure.length > 0) {
        const what = unsure.map((l) => JSON.stringify(l.slice(0, 80))).join(', ');
        parts.unshift({
          ...base,
          label: call.tool,
          findings: [finding('tool-arguments', `${call.tool}: ${what} may be read as a file header by the agent; which file it changes cannot be known`)],
          mutating: true,
        });
      }
      return parts;
    }
    case 'search':
      return searchParts(call, spec!, base, env);
    case 'web':
      return webParts(call, spec!, base);
    case 'web-search':
      return [{ ...base, label: call.tool, findings: [finding('network', `${call.tool} sends a query to a search engine`)], mutating: false }];
    case 'meta':
      return [{ ...base, label: call.tool, findings: [], mutating: false }];
    default:
      return [
        {
          ...base,
          label: call.tool,
          findings: [finding('unknown-tool', `${call.tool} is a tool shellgate cannot see into; a person should decide`)],
          mutating: true,
        },
      ];
  }
}

type PartBase = Omit<Part, 'label' | 'findings' | 'mutating'>;

/**
 * A search reads its roots recursively: the `dir` argument and every `pathList` entry (Copilot
 * CLI's glob takes `paths: [...]`), the cwd when none is named; and each glob reaches under each root.
 */
function searchParts(call: ToolCall, spec: ToolSpec, base: PartBase, env: FileToolEnv): Part[] {
  const named = [firstString(call, spec.dir), ...(spec.pathList ?? []).flatMap((n) => stringsOf(call.args?.[n]))].filter((r): r is string => r !== undefined);
  const roots = named.length > 0 ? named : ['.'];
  const patterns = (spec.glob ?? []).flatMap((name) => stringsOf(call.args?.[name]));
  const filters = (spec.filter ?? []).flatMap((name) => stringsOf(call.args?.[name]));
  // A glob tool lists the names its pattern matches; a search reads the content of what it walks.
  const lists = patterns.length > 0;
  const parts: Part[] = [];
  for (const root of roots) {
    // The root is walked whole unless a pattern or filter narrows it: then the globs below say what it reaches.
    const walks = patterns.length === 0 && filters.length === 0 ? ('all' as const) : undefined;
    const part = filePart(call, 'read', root, false, base, env, { walks, lists });
    parts.push(part);
    // A link below that leads out of the workspace: the tool may follow it (the strictest reading), and read there.
    const reached = walks && part.landings ? reachOf(part.landings, env, { walks }) : null;
    for (const link of reached?.outside ?? []) parts.push(filePart(call, 'read', link, false, base, env, { walks, lists }));
    // The tool's glob is its own, not bash's: its wildcards may match dot names.
    for (const g of [...patterns, ...filters]) parts.push(filePart(call, 'read', globUnder(root, g), false, base, env, { lists }));
  }
  return parts;
}

/** Where a search's glob reaches: itself when absolute or under ~, else under the root (`*.ts` anywhere below it), as written. */
function globUnder(root: string, g: string): string {
  if (posix.isAbsolute(g) || g === '~' || g.startsWith('~/')) return g;
  return root.replace(/\/+$/, '') + '/' + (g.startsWith('**') || g.includes('/') ? g : `**/${g}`);
}

/** A fetch: one part per URL its arguments name; a fetch whose target cannot be found is never allowed. */
function webParts(call: ToolCall, spec: ToolSpec, base: PartBase): Part[] {
  const urls = (spec.url ?? []).flatMap((n) => stringsOf(call.args?.[n])).map((url) => ({ url, host: hostOf(url) ?? url }));
  // URLs inside a text are read as the agent reads them there: with the WHATWG parser.
  for (const url of (spec.urlsInText ?? []).flatMap((n) => stringsOf(call.args?.[n]).flatMap(urlsIn))) {
    urls.push({ url, host: urlHost(url) ?? hostOf(url) ?? url });
  }
  if (urls.length === 0) {
    const why = `${call.tool}: no http(s) URL in its arguments; what it would fetch cannot be checked`;
    return [{ ...base, label: call.tool, findings: [finding('tool-arguments', why)], mutating: false }];
  }
  return urls.map(({ url, host }) => ({ ...base, label: `${call.tool} ${host}`, host, findings: [finding('network', `fetches ${url}`)], mutating: false }));
}

function filePart(
  call: ToolCall,
  family: ToolFamily,
  raw: string,
  deletes: boolean,
  base: PartBase,
  env: FileToolEnv,
  reach: { walks?: 'all'; lists?: boolean } = {},
): Part {
  const path = resolveToolPath(raw, env);
  const glob = /[*?[]/.test(raw);
  // Where the kernel lands, read both ways a tool may hand the path over: normalised as written
  // (`link/..` is the link's directory) and as given (`link/..` is the parent of its target).
  const where = landings([path, unnormalised(raw, env)], env, { glob, followLast: !deletes });
  // An agent's glob is not bash's: whether its `*` skips dot names is the tool's choice, so it may match them.
  const options = glob ? { dotglob: true } : undefined;
  const classes = new Set(env.classifier.classify(path, glob, true, options));
  for (const l of where ?? []) for (const c of env.classifier.classify(l[0], glob, true, options)) classes.add(c);
  const external = where === null || where.some((l) => env.isExternal(glob ? staticPrefix(l[0]) : l[0]));
  const below = where && (reach.walks || glob) ? once(() => reachOf(where, env, { walks: reach.walks, glob, dot: true })?.paths ?? null) : null;
  const writes = family !== 'read';
  const findings: Finding[] = [];
  if (deletes) findings.push(finding('delete', `${call.tool} deletes ${path}`));
  else if (writes) findings.push(finding('write', `${call.tool} writes ${path}`));
  if (where === null) findings.push(finding('dynamic-path', `where ${path} leads cannot be known: more than 40 symbolic links (a loop)`));
  else if (external) {
    const out = where.map((l) => l[0]).find((p) => p !== path && env.isExternal(glob ? staticPrefix(p) : p));
    findings.push(finding('outside-workspace', `reaches outside the workspace: ${path}${out ? ` (a link leads to ${out})` : ''}`));
  }
  if (classes.has('sensitive')) findings.push(finding('sensitive-path', `touches a sensitive file (credentials, keys, shell or agent settings): ${path}`));
  // The same class and finding as a shell write to the file: edit modes do not approve it.
  if (writes && classes.has('exec-config'))
    findings.push(
      finding(
        'exec-config',
        `${call.tool} writes ${path}, a file that changes what later commands run when they load it (git config and hooks, tool settings); edit modes do not approve it`,
      ),
    );
  return {
    ...base,
    tools: writes ? ['Edit', 'Write'] : ['Read'],
    label: `${call.tool} ${path}`,
    path,
    landings: where,
    ...(glob ? { glob: true, dotGlob: true } : {}),
    ...(reach.walks ? { walks: reach.walks } : {}),
    ...(below ? { below } : {}),
    ...(reach.lists ? { lists: true } : {}),
    findings,
    external,
    mutating: writes,
  };
}

/** `make`'s answer, computed the first time it is asked for (a tree is read only when a rule needs it). */
function once<T>(make: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = make();
      done = true;
    }
    return value;
  };
}

/** The tool's path made absolute without normalising it: a `..` after a link is the kernel's to resolve. */
function unnormalised(raw: string, env: { cwd: string; home: string }): string {
  if (raw === '~' || raw.startsWith('~/')) return env.home + raw.slice(1);
  return raw.startsWith('/') ? raw : env.cwd.replace(/\/+$/, '') + '/' + raw;
}

/** A tool may expand `~` itself: read it as the home directory, the stricter reading. */
export function resolveToolPath(raw: string, env: { cwd: string; home: string }): string {
  return raw === '~' || raw.startsWith('~/') ? posix.join(env.home, raw.slice(1)) : posix.resolve(env.cwd, raw);
}

/**
 * Every http(s) URL in a text, however the agent finds it: Gemini CLI splits its prompt on
 * whitespace (older versions matched `https?://\S+`), and the model that fetches may read more,
 * so each `http(s)://` starts a URL, even inside quotes, brackets or another URL.
 */
function urlsIn(text: string): string[] {
  return [...text.matchAll(/(?=(https?:\/\/[^\s]+))/gi)].map((m) => m[1]);
}

/** The host the WHATWG URL parser (the agent's) reads, else null. */
function urlHost(url: string): string | null {
  try {
    const h = new URL(url).hostname;
    return h === '' ? null : h.toLowerCase();
  } catch {
    return null;
  }
}

function stringsOf(v: unknown): string[] {
  if (typeof v === 'string') return v === '' ? [] : [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string' && x !== '');
  return [];
}

function firstString(call: ToolCall, names: readonly string[] | undefined): string | undefined {
  for (const n of names ?? []) {
    const v = call.args?.[n];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

function subjectOf(call: ToolCall, spec: ToolSpec | null): string[] | undefined {
  if (!spec?.subject) return undefined;
  return spec.subject.flatMap((n) => stringsOf(call.args?.[n]));
}

/** Why the arguments cannot be read, or null: a required group missing, a path of the wrong type. */
function badArguments(call: ToolCall, spec: ToolSpec): string | null {
  const args = call.args ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return 'its arguments are not an object';
  for (const group of spec.required ?? []) {
    if (!group.some((n) => stringsOf(args[n]).length > 0)) return `missing ${group.map((n) => `"${n}"`).join(' or ')}`;
  }
  for (const n of [
    ...(spec.path ?? []),
    ...(spec.dir ?? []),
    ...(spec.command ?? []),
    ...(spec.url ?? []),
    ...(spec.urlsInText ?? []),
    ...(spec.glob ?? []),
    ...(spec.patch ?? []),
  ]) {
    if (args[n] !== undefined && args[n] !== null && typeof args[n] !== 'string') return `"${n}" is not a string`;
  }
  for (const n of [...(spec.pathList ?? []), ...(spec.filter ?? [])]) {
    const v = args[n];
    if (v === undefined || v === null || typeof v === 'string') continue;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) return `"${n}" is not a list of strings`;
  }
  return null;
}

function pathTargets(call: ToolCall, spec: ToolSpec): { raw: string; deletes: boolean }[] {
  const raws = [...(spec.path ?? []), ...(spec.pathList ?? [])].flatMap((n) => stringsOf(call.args?.[n]));
  return raws.map((raw) => ({ raw, deletes: false }));
}

/**
 * Files an apply_patch text names, read as the agents' own parsers read them (ops/patch-headers.ts),
 * with every unified-diff name in it; `unsure`: header-like lines no known parser reads in that form.
 */
function patchTargets(call: ToolCall, spec: ToolSpec): { targets: { raw: string; deletes: boolean }[]; unsure: string[] } {
  const targets: { raw: string; deletes: boolean }[] = [];
  const unsure: string[] = [];
  for (const text of (spec.patch ?? []).flatMap((n) => stringsOf(call.args?.[n]))) {
    const reading = applyPatchNames(text);
    for (const n of reading.names) targets.push({ raw: n.name, deletes: n.deletes });
    unsure.push(...reading.unsure);
  }
  return { targets, unsure };
}

export function strictestOf(findings: Finding[]): Level {
  let l: Level = 'allow';
  for (const f of findings) l = stricter(l, f.level);
  return l;
}
