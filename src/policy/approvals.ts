/**
 * "Always allow": the minimum rule that would have allowed what asked. For a shell command it is
 * the sub-command that asked, exact up to three words (`npm run lint`), and from four words on
 * with its last argument widened (`git push origin main` → `Bash(git push origin *)`); never a bare interpreter or wrapper, whose inner commands are parts
 * of their own. For files, the exact path; for web_fetch, the domain; for MCP tools, the tool.
 */
import type { Decision } from './decision.js';
import type { ToolCall, ToolFamily } from './tool-calls.js';
import { argOf } from './tool-calls.js';
import { shellQuote } from '../walk/parallel-jobs.js';
import { hostOf } from '../ops/operations.js';
import { registry } from '../programs/registry.js';

/**
 * Programs an approval may never name: they run whatever follows them (shells, interpreters,
 * wrappers), or a file (`source`), a package (`npx`), a command per match (`find -exec`).
 */
export const NEVER_APPROVE: ReadonlySet<string> = new Set([
  ...registry.tagged('shell'),
  ...registry.tagged('interpreter'),
  ...registry.tagged('wrapper'),
  'source',
  '.',
  'npx',
  'find',
]);

export function approvalRules(call: ToolCall, d: Decision, family: ToolFamily): string[] {
  const asked = d.parts.filter((p) => p.level === 'ask');
  if (d.level === 'deny' || asked.length === 0) return [];
  if (family === 'shell') {
    const out = new Set<string>();
    const askedCommands = new Set(asked.map((p) => p.command).filter((c): c is number => c !== undefined));
    for (const c of d.verdict?.commands ?? []) {
      if (!askedCommands.has(c.id)) continue;
      if (c.program === null || NEVER_APPROVE.has(c.program) || c.args.some((a) => a.dynamic)) continue;
      const words = [c.program, ...c.args.map((a) => a.value)].map((w) => (w.includes('*') ? w : shellQuote(w)));
      out.add(`Bash(${words.length < 4 ? words.join(' ') : [...words.slice(0, -1), '*'].join(' ')})`);
    }
    return [...out];
  }
  if (family === 'read' || family === 'search' || family === 'write' || family === 'edit' || family === 'patch') {
    const out: string[] = [];
    for (const p of asked) {
      const path = /\s(\/.*)$/.exec(p.label)?.[1];
      if (path) out.push(`${family === 'read' || family === 'search' ? 'Read' : 'Edit'}(/${path})`);
    }
    return out;
  }
  if (family === 'web') {
    const host = hostOf(argOf(call, 'url') ?? '');
    return host ? [`WebFetch(domain:${host})`] : [];
  }
  return [call.tool];
}
