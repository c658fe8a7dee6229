/** One shell verdict as the CLI prints it: a JSON line, or readable text. Shared by --jobs workers. */
import type { Decision } from '../policy/gate.js';
import type { Verdict } from '../verdict/types.js';
import { formatVerdict } from './format-text.js';

export function renderDecision(d: Decision, json: boolean, color: boolean): string {
  const v = { ...d.verdict!, level: d.level, trace: d.trace };
  return json ? toJson(v, d.reason) : formatVerdict(v, color) + `\n  decided: ${d.reason}\n`;
}

export function toJson(v: Verdict, reason: string): string {
  return JSON.stringify({
    command: v.command,
    level: v.level,
    reason,
    findings: v.findings,
    operations: v.operations,
    commands: v.commands.map((c) => ({
      id: c.id,
      program: c.program,
      programRaw: c.programRaw,
      argv: c.args.map((a) => a.value),
      cwd: c.cwd,
      parent: c.parent,
      via: c.context.via,
      span: c.span,
    })),
    trace: v.trace,
  });
}
