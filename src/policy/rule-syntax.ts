/**
 * Permission rules in Claude Code's documented syntax: `Bash`, `Bash(npm run build)`,
 * `Bash(npm run test:*)`, `Bash(git commit *)`, `Read(./.env)`, `Read(~/.zshrc)`,
 * `Read(//abs/**)`, `Edit(/src/**)`, `WebFetch(domain:example.com)`, `mcp__server__tool`.
 * Parsed once into a matcher; a bad rule is an error naming the rule.
 */
import { posix } from 'node:path';
import { linearGlob } from '../guard/linear-glob.js';
import { parse as shellParse } from 'shell-quote';
import { toolSpecOf } from '../agents/registry.js';

/** Tools a rule can name, by family. Read covers every tool that reads (read_file, list, grep, glob). */
export const RULE_TOOLS = ['Bash', 'Read', 'Edit', 'Write', 'WebFetch', 'WebSearch'] as const;

export type RuleTool = (typeof RULE_TOOLS)[number] | `mcp__${string}`;

export interface ParsedRule {
  /** The rule as written. */
  text: string;
  /** A family rule tool (`Bash`, `Read`…), an MCP name, or the tool a tool rule names (`Grep`, `Agent`). */
  tool: RuleTool | string;
  /**
   * A rule naming one tool (`Grep`, `read_file`, `Agent(Explore)`, `Skill(pdf)`): it speaks about
   * calls of that tool only, never about every read (`allow: ["Grep"]` does not allow `cat`).
   */
  toolName: string | null;
  /** A tool rule's specifier, matched against the tool's subject argument (`subagent_type`…). */
  subject: ((value: string) => boolean) | null;
  /** Words a Bash rule names literally (an option a `*` does not stand for must be one of them). */
  literals: readonly string[];
  /** Null for the bare tool (`Bash`): every use of it. */
  bash: ((argv: readonly string[]) => boolean) | null;
  path: ((absolute: string) => boolean) | null;
  /**
   * The absolute globs a path rule covers (its pattern, and `pattern/**` for a directory), for
   * asking whether a walk or a glob may meet it (paths/glob-meet.ts); null for other rules.
   */
  pathGlobs?: readonly string[] | null;
  domain: ((host: string) => boolean) | null;
  mcp: ((toolName: string) => boolean) | null;
  /** True when the rule has no specifier (or `Tool(*)`). */
  whole: boolean;
}

export class RuleSyntaxError extends Error {}

/** Where relative path patterns are anchored. */
export interface PathAnchors {
  /** `/x` in a rule: relative to the project root (the folder holding the settings' project). */
  projectRoot: string;
  /** `x` or `./x`: relative to the working directory. */
  cwd: string;
  home: string;
}

export interface ParseRuleOptions {
  /**
   * A tool name no agent profile knows: `error` (shellgate's own settings: a typo should fail) or
   * `accept` (an imported agent settings file: a rule for that tool, never a hard error).
   */
  unknownTools?: 'error' | 'accept';
  /** The family of a named tool, when an agent profile knows it (for the meaning of its specifier). */
  familyOf?: (tool: string) => string | null;
}

export function parseRule(text: string, anchors: PathAnchors, options: ParseRuleOptions = {}): ParsedRule {
  if (typeof text !== 'string' || text.trim() === '') throw new RuleSyntaxError('a rule must be a non-empty string');
  const m = /^([A-Za-z_][A-Za-z0-9_*-]*)(?:\((.*)\))?$/s.exec(text.trim());
  if (!m) throw new RuleSyntaxError(`"${text}" is not Tool or Tool(specifier)`);
  const name = m[1];
  // `mcp__server__*` names every tool of a server; no other tool name takes a wildcard.
  if (name.includes('*') && !name.startsWith('mcp__')) throw new RuleSyntaxError(`"${text}": only MCP rules take * in the tool name (mcp__server__*)`);
  const spec = m[2];
  const base = { text, bash: null, path: null, pathGlobs: null, domain: null, mcp: null, toolName: null, subject: null, literals: [] as string[] };
  if (name.startsWith('mcp__')) {
    if (spec !== undefined) throw new RuleSyntaxError(`"${text}": MCP rules take no parentheses`);
    const parts = name.split('__');
    const whole = parts.length < 3;
    return { ...base, tool: name as RuleTool, whole, mcp: mcpMatcher(name, whole) };
  }
  // Every agent's shell tool is the Bash rule's tool.
  const familyOf = options.familyOf ?? registryFamily;
  const tool = TOOL_ALIASES[name] ?? (familyOf(name) === 'shell' ? 'Bash' : name);
  if (!(RULE_TOOLS as readonly string[]).includes(tool)) return toolRule(name, spec, text, anchors, options);
  if (spec === undefined || spec.trim() === '*' || spec.trim() === '') return { ...base, tool: tool as RuleTool, whole: true };
  switch (tool) {
    case 'Bash': {
      const { match, literals } = bashMatcher(spec, text);
      return { ...base, tool, whole: false, bash: match, literals };
    }
    case 'WebFetch': {
      const d = /^domain:(.+)$/.exec(spec.trim());
      if (!d) throw new RuleSyntaxError(`"${text}": WebFetch rules look like WebFetch(domain:example.com)`);
      const domain = d[1].toLowerCase();
      const g = domain.includes('*') ? linearGlob(domain, { dot: false }) : null;
      return { ...base, tool, whole: false, domain: (h) => (g ? g(h.toLowerCase()) : h.toLowerCase() === domain || h.toLowerCase().endsWith('.' + domain)) };
    }
    case 'WebSearch':
      return { ...base, tool, whole: true };
    default:
      return { ...base, tool: tool as RuleTool, whole: false, ...pathMatcher(spec.trim(), anchors, text) };
  }
}

const FILE_FAMILIES = new Set(['read', 'search', 'write', 'edit', 'patch']);

/**
 * The MCP tools a rule names: `mcp__server` (`whole`) every tool of the server, `mcp__server__tool`
 * that tool (a glob when it has `*`).
 */
function mcpMatcher(name: string, whole: boolean): (tool: string) => boolean {
  if (whole) return (tool) => tool.startsWith(`${name}__`) || tool === name;
  if (!name.includes('*')) return (tool) => tool === name;
  const glob = linearGlob(name, { dot: false });
  return (tool) => glob(tool);
}

/** A rule for one named tool: `Grep`, `read_file(./src/**)`, `Agent(Explore)`, `Skill(pdf)`, `TodoWrite`. */
function toolRule(name: string, spec: string | undefined, text: string, anchors: PathAnchors, options: ParseRuleOptions): ParsedRule {
  const family = (options.familyOf ?? registryFamily)(name);
  if (family === null && (options.unknownTools ?? 'error') === 'error') {
    throw new RuleSyntaxError(
      `"${text}": unknown tool "${name}" (known: ${RULE_TOOLS.join(', ')}, mcp__server__tool, or a tool an agent names: Grep, read_file, Agent…)`,
    );
  }
  const base = { text, tool: name, toolName: name, bash: null, path: null, pathGlobs: null, domain: null, mcp: null, subject: null, literals: [] as string[] };
  if (spec === undefined || spec.trim() === '' || spec.trim() === '*') return { ...base, whole: true };
  const s = spec.trim();
  if (family !== null && FILE_FAMILIES.has(family)) return { ...base, whole: false, ...pathMatcher(s, anchors, text) };
  let m: (v: string) => boolean;
  try {
    m = /[*?[]/.test(s) ? linearGlob(s) : (v: string) => v === s;
  } catch (e) {
    throw new RuleSyntaxError(`"${text}": bad pattern (${(e as Error).message})`);
  }
  return { ...base, whole: false, subject: m };
}

/**
 * Names other agents use for the Bash rule. Other tools' names (`read_file`, `Grep`) are rules for
 * that tool alone: an allow for one tool must not allow every read.
 */
export const TOOL_ALIASES: Record<string, string> = {
  // The class name older Gemini CLI and Qwen Code settings used for the shell tool. Every agent's
  // own shell tool name (`run_shell_command`, `Shell`, `bash`) comes from its profile.
  ShellTool: 'Bash',
};

/** A tool's family from the agent profiles (src/agents/registry.ts), or null for a name none knows. */
function registryFamily(tool: string): string | null {
  return toolSpecOf(tool)?.family ?? null;
}

/**
 * Bash patterns match a sub-command's normalised argv, word by word (tokenised with
 * shell-quote). A word that is `*` matches any number of words, so `git commit *` matches
 * `git commit` and `git commit -m x`, but `ls *` never matches `lsof`; a `*` inside a word
 * matches within that word (`ls*` matches `lsof`). A trailing `:*` is the legacy prefix form.
 */
function bashMatcher(spec: string, text: string): { match: (argv: readonly string[]) => boolean; literals: string[] } {
  let pattern = spec.trim();
  // Legacy `prefix:*`: the last word may run on (`test:unit`) and any words may follow.
  if (pattern.endsWith(':*')) pattern = pattern.slice(0, -2) + '* *';
  let tokens: string[];
  try {
    tokens = shellParse(pattern.replace(/\*/g, '\u0000STAR\u0000')).map((t) => {
      if (typeof t !== 'string') throw new RuleSyntaxError(`"${text}": a Bash rule names one command; operators such as ${JSON.stringify(t)} are not allowed`);
      return t.replace(/\u0000STAR\u0000/g, '*');
    });
  } catch (e) {
    if (e instanceof RuleSyntaxError) throw e;
    throw new RuleSyntaxError(`"${text}": cannot tokenise (${(e as Error).message})`);
  }
  if (tokens.length === 0) throw new RuleSyntaxError(`"${text}": empty command`);
  const words = tokens.map(bashRuleWord);
  // One table of (rule word, argv word) answers, filled from the end: `* * * x` against many words
  // stays words × argv (a recursion that retries every split grows as argv to the number of stars).
  const match = (argv: readonly string[]): boolean => {
    const n = argv.length;
    let next = new Uint8Array(n + 1);
    next[n] = 1;
    let cur = new Uint8Array(n + 1);
    for (let i = words.length - 1; i >= 0; i--) {
      const w = words[i];
      cur.fill(0);
      for (let j = n; j >= 0; j--) {
        if (w === null) cur[j] = next[j] === 1 || (j < n && cur[j + 1] === 1) ? 1 : 0;
        else if (j < n && next[j + 1] === 1) {
          const ok = typeof w === 'string' ? w === argv[j] || (i === 0 && normaliseName(w) === argv[j]) : w(argv[j]);
          cur[j] = ok ? 1 : 0;
        }
      }
      [next, cur] = [cur, next];
    }
    return next[0] === 1;
  };
  return { match, literals: tokens.filter((t) => !t.includes('*')) };
}

/** A Bash rule's word: `*` alone stands for any words (null), a word with `*` is a glob, else literal. */
function bashRuleWord(t: string): string | ((word: string) => boolean) | null {
  if (t === '*') return null;
  if (t.includes('*')) return linearGlob(t, { slashStar: true });
  return t;
}

function normaliseName(w: string): string {
  const slash = w.lastIndexOf('/');
  return slash >= 0 ? w.slice(slash + 1) : w;
}

/**
 * Path patterns (gitignore style): `//abs` absolute, `~/x` home, `/x` project root, `./x` or `x`
 * the working directory. A pattern without a slash matches that name in any folder.
 */
function pathMatcher(spec: string, a: PathAnchors, text: string): { path: (absolute: string) => boolean; pathGlobs: string[] } {
  let pattern: string;
  if (spec.startsWith('//')) pattern = spec.slice(1);
  else if (spec === '~' || spec.startsWith('~/')) pattern = a.home + spec.slice(1);
  else if (spec.startsWith('/')) pattern = posix.join(a.projectRoot, spec);
  else if (!spec.includes('/')) pattern = `**/${spec}`;
  else pattern = posix.join(a.cwd, spec);
  let m: (s: string) => boolean;
  try {
    m = linearGlob(pattern);
  } catch (e) {
    throw new RuleSyntaxError(`"${text}": bad path pattern (${(e as Error).message})`);
  }
  // A directory pattern (`Read(./secrets)`) also covers what is inside it.
  const inside = /[*?[\]{}]/.test(pattern) ? null : pattern.replace(/\/+$/, '') + '/';
  return {
    path: (p) => m(p) || (inside !== null && p.startsWith(inside)),
    pathGlobs: inside === null ? [pattern] : [pattern, inside + '**'],
  };
}
